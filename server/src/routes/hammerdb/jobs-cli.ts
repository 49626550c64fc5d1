import type { JobStore } from '@sledge/jobstore';
import { diffProfiles } from '../../engine/profile-diff.js';
import { isChartType, renderJobChart, renderProfileChart, type ChartPage } from '../../report/job-chart.js';
import { hasResult, jobResult, jobTimestamp, nopmTpm, tprochFigures, bmOf, dbOf } from './jobs-data.js';
import { jobForm, jobOutput, jobVuTiming, printed, returned, show, THREE_PARAM_USAGE, TWO_PARAM_USAGE, type CliReply, type JobsCliCtx } from './jobs-cli-job.js';
import { jobsTables, listJobs, profileData, profileIds } from './jobs-list.js';
import { BodyError } from './reply.js';
import type { JobsSettings } from './state.js';
import { tclList, tclValue } from './tcl-text.js';

/**
 * HammerDB CLI's `jobs` verb (jobs-1.0.tm `jobs`, hammerdb.md §3.3, §11.1)
 * for POST /jobscmd {"args":[...]}: the lines it prints and the value it
 * returns. Errors are printed lines, as HammerDB prints them and goes on.
 */

export type { CliReply };

const USAGE =
  'Error: Usage: [ jobs | jobs format <fmt> | jobs disable <0|1> | jobs jobid | jobs jobid <command> [option] | jobs jobid timing <vuid|vu=n> | jobs jobid getchart [result|timing|tcount|metrics|profile|diff:pid] | jobs profileid [id] | jobs profile <id> | jobs diff basepid comppid [true|false] ] - type "help jobs"';
const usageError = (msg: string): CliReply => printed(msg, USAGE);

/** Tcl `string is boolean -strict`: 1 0 true false yes no on off and their unique prefixes. */
const TCL_BOOL = /^(1|0|t|tr|tru|true|f|fa|fal|fals|false|y|ye|yes|n|no|on|of|off)$/i;
const tclTrue = (s: string) => /^(1|t|tr|tru|true|y|ye|yes|on)$/i.test(s);

export interface JobsCmdCtx {
  store: JobStore;
  settings: JobsSettings;
  /** The data directory: `jobs ID save` writes there. */
  dataDir: string;
}

/** `jobs result`: every job's figures. */
function allResults(ctx: JobsCliCtx): CliReply {
  const out: Record<string, unknown> = {};
  for (const job of listJobs(ctx.store)) {
    const r = jobResult(ctx.store, job);
    const base = { db: dbOf(job), bm: bmOf(job), tstamp: jobTimestamp(job) };
    const h = tprochFigures(r);
    if (!hasResult(r)) out[job.id] = 'Jobid has no test result';
    else if (h) out[job.id] = { ...base, ...h };
    else if (r[r.length - 1]!.startsWith('TEST RESULT')) {
      const f = nopmTpm(r);
      out[job.id] = { ...base, activevu: f.activevu, nopm: f.nopm, tpm: f.tpm };
    }
  }
  return show(ctx, out, tclValue(out));
}

function profileIdCmd(ctx: JobsCmdCtx, cli: JobsCliCtx, arg: string | undefined): CliReply {
  if (arg === undefined) return printed(`Performance profile id set to ${ctx.settings.profileId}`);
  if (/^all$/i.test(arg)) {
    const ids = profileIds(ctx.store).map(String);
    if (!ids.length) return printed('No performance profiles found');
    return show(cli, ids, ids.join('\n'));
  }
  if (!/^\+?\d+$/.test(arg)) return printed('Error: Performance profile id should be an integer');
  ctx.settings.profileId = Number(arg);
  return printed(`Setting performance profile id to ${ctx.settings.profileId}`);
}

function profileCmd(ctx: JobsCmdCtx, cli: JobsCliCtx, arg: string): CliReply {
  if (!/^\+?\d+$/.test(arg) || Number(arg) < 1) return printed('Error: Performance profile id should be an integer greater than 0');
  if (ctx.store.listJobs({ profileId: Number(arg), limit: 1 }).total === 0) return printed(`Error: No jobs found with performance profile id of ${arg}`);
  const d = profileData(ctx.store, Number(arg));
  return Object.keys(d).length ? show(cli, d, tclValue(d)) : printed();
}

/** `jobs diff base comp [true|false]`: HammerDB's lines, and the signed ratio ("null" when there is none). */
function diffCmd(ctx: JobsCmdCtx, args: string[]): CliReply {
  if (args.length < 3 || args.length > 4) return usageError('Error: Usage: jobs diff basepid comppid [true|false]');
  const [, b, c, w = 'false'] = args as [string, string, string, string?];
  if (!TCL_BOOL.test(w)) return usageError('Error: Usage: jobs diff basepid comppid [true|false]');
  const fail = (msg: string): CliReply => ({ output: [msg], value: 'null' });
  if (!/^\+?\d+$/.test(b) || Number(b) < 1) return fail('Error: good profile id must be an integer > 0');
  if (!/^\+?\d+$/.test(c) || Number(c) < 1) return fail('Error: bad profile id must be an integer > 0');
  const exists = (pid: number) => ctx.store.listJobs({ profileId: pid, limit: 1 }).total > 0;
  if (!exists(Number(b))) return fail(`Error: no jobs found for good profile id ${Number(b)}`);
  if (!exists(Number(c))) return fail(`Error: no jobs found for bad profile id ${Number(c)}`);
  const d = diffProfiles(ctx.store, ctx.store.profileJobs(Number(b)), ctx.store.profileJobs(Number(c)), tclTrue(w), `profile ${Number(b)}`);
  if ('missing' in d) return fail(d.missing.startsWith('no active-VU') ? 'Error: the two profiles have no overlapping activevu points' : 'Error: good profile average NOPM is zero; cannot compute ratio');
  return { output: d.lines, value: d.diff };
}

function formatCmd(ctx: JobsCmdCtx, arg: string): CliReply {
  if (arg.toLowerCase() !== 'text' && arg.toUpperCase() !== 'JSON') return printed('Error: Usage: jobs format [ text | JSON ]');
  ctx.settings.format = arg.toLowerCase() === 'text' ? 'text' : 'JSON';
  return printed(`Setting jobs output format to ${ctx.settings.format}`);
}

/** The global forms (first word is not a job id), or undefined. */
function globalForm(ctx: JobsCmdCtx, cli: JobsCliCtx, args: string[]): CliReply | undefined {
  const n = args.length;
  switch (args[0]!.toLowerCase()) {
    case 'result':
      return n === 1 ? allResults(cli) : usageError('Error: Usage: jobs result');
    case 'timestamp': {
      if (n !== 1) return usageError('Error: Usage: jobs timestamp');
      const d = Object.fromEntries(listJobs(ctx.store).map((j) => [j.id, jobTimestamp(j)]));
      return show(cli, d, tclValue(d));
    }
    case 'joblist':
      return n === 1 ? returned(tclList(listJobs(ctx.store).map((j) => j.id))) : usageError('Error: Usage: jobs joblist');
    case 'profileid':
      return n <= 2 ? profileIdCmd(ctx, cli, args[1]) : usageError('Error: Usage: jobs profileid [id]');
    case 'format':
      return n === 2 ? formatCmd(ctx, args[1]!) : usageError('Error: Usage: jobs format <fmt>');
    case 'disable':
      return n === 2 ? printed('Error: jobs disable is not supported: Sledge always keeps its jobs (delete one with jobs <jobid> delete)') : usageError('Error: Usage: jobs disable <0|1>');
    case 'profile':
      return n === 2 ? profileCmd(ctx, cli, args[1]!) : usageError('Error: Usage: jobs profile <id>');
    default:
      return undefined;
  }
}

const GETCHART_USAGE = 'Error: Jobs Three Parameter Usage: jobs jobid getchart [ result | timing | tcount | metrics | profile ]';

/**
 * `jobs ID getchart result|timing|tcount|metrics`, `jobs PID getchart profile`:
 * returns the chart as a self-contained HTML page (HammerDB returns its chart's
 * HTML so that a script can save it); a job without the data prints HammerDB's
 * "Chart for jobid ID not available, Jobid has no ..." and returns "".
 */
function getChart(store: JobStore, args: string[]): CliReply {
  const [id, , type] = args as [string, string, string?];
  if (args.length !== 3) return printed(THREE_PARAM_USAGE);
  const chart = type!.toLowerCase();
  if (chart.startsWith('diff:')) return printed('Error: getchart diff:<pid> is not supported: compare profiles with jobs diff <basepid> <comppid> or on the dashboard (/compare?profile=N)');
  if (!isChartType(chart)) return printed(GETCHART_USAGE);
  let page: ChartPage;
  if (chart === 'profile') {
    if (!/^\+?\d+$/.test(id) || Number(id) < 1) return printed('Error: Performance profile id should be an integer greater than 0');
    page = renderProfileChart(store, Number(id));
    if ('missing' in page) return printed('Error: Not enough data for performance profile chart type');
  } else {
    const job = store.getJob(id.toUpperCase());
    if (!job) return printed(`Jobid ${id} does not exist`);
    page = renderJobChart(store, job.id, chart);
  }
  return 'html' in page ? returned(page.html) : printed(`Chart for jobid ${id} not available, Jobid has no ${page.missing}`);
}

/** Run `jobs <args...>`. */
export function jobsCommand(ctx: JobsCmdCtx, args: string[]): CliReply {
  const cli: JobsCliCtx = { store: ctx.store, format: ctx.settings.format, dataDir: ctx.dataDir };
  if (args.length === 0) return returned(jobsTables(ctx.store, ctx.store.path));
  if (args[0]!.toLowerCase() === 'diff') return diffCmd(ctx, args);
  const global = globalForm(ctx, cli, args);
  if (global) return global;
  const [jobId, cmd, opt] = args as [string, string?, string?];
  if (args.length === 1) return jobOutput(cli, jobId);
  if (cmd!.toLowerCase() === 'timing' && args.length <= 3) return args.length === 2 ? jobForm(cli, jobId, 'timing') : jobVuTiming(cli, jobId, opt!);
  if (cmd!.toLowerCase() === 'getchart') return getChart(ctx.store, args);
  // HammerDB splits its arguments on white space again: a "job id" of several words (vurun's whole
  // return value, "Benchmark Run jobid=ID") is not a form it knows, and it prints its usage.
  if (args.length === 2 && /\s/.test(jobId)) return printed(TWO_PARAM_USAGE);
  if (args.length === 2) return jobForm(cli, jobId, cmd!);
  if (args.length === 3) return printed(THREE_PARAM_USAGE);
  return usageError('Error: Too many arguments to jobs');
}

/** The body of POST /jobscmd: {"args":["word", ...]} (numbers are taken as words). */
export function jobsArgs(raw: unknown): string[] {
  const text = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : JSON.stringify(raw);
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new BodyError('Not a valid JSON string: send {"args":["word", ...]}');
  }
  const args = (parsed as { args?: unknown } | null)?.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string' || typeof a === 'number')) throw new BodyError('args must be a list of words: {"args":["diff","1","2","true"]}');
  if (args.length > 16) throw new BodyError('Error: Too many arguments to jobs');
  return args.map(String);
}
