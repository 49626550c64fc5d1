import { join } from 'node:path';
import type { JobStore } from '@sledge/jobstore';
import { isTerminal, type Job } from '@sledge/protocol';
import { buildArtifact } from '../../artifact/build.js';
import { writePrivateFile } from '../../files/private-file.js';
import { allLines, bmOf, dbOf, dbVersion, jobDict, jobMetrics, jobResult, jobStatusLines, jobSystem, jobTcount, jobTiming, localTimestamp } from './jobs-data.js';
import { huddleDump, tclList, tclValue } from './tcl-text.js';

/**
 * `jobs <jobid> ...` of HammerDB's CLI (jobs-1.0.tm getjob, hammerdb.md §3.3):
 * what each form prints (`puts`) in the session's format, text (Tcl
 * lists and dicts) or JSON (huddle's pretty JSON), and what it returns.
 */

export type CliReply = {
  output: string[];
  value: string;
};

export interface JobsCliCtx {
  store: JobStore;
  format: 'text' | 'JSON';
  /** The data directory: `jobs ID save` writes <data dir>/artifacts/hdb_<ID>.json. */
  dataDir: string;
}

/** Where `jobs ID save` writes (HammerDB: the temp directory). */
export const artifactsDir = (dataDir: string): string => join(dataDir, 'artifacts');

export const printed = (...texts: string[]): CliReply => ({ output: texts.flatMap((t) => t.split('\n')), value: '' });
export const returned = (value: string): CliReply => ({ output: [], value });

/** puts of a value in the session's format: JSON pretty, or Tcl text. */
export const show = (ctx: JobsCliCtx, json: unknown, text: string): CliReply => printed(ctx.format === 'JSON' ? huddleDump(json) : text);

export const TWO_PARAM_USAGE =
  'Jobs Two Parameter Usage: jobs jobid status or jobs jobid db or jobs jobid bm or jobid system or jobs jobid timestamp or jobs jobid dict or jobs jobid vuid or jobs jobid result or jobs jobid timing or jobs jobid delete or jobs jobid metrics or jobs jobid system';
export const THREE_PARAM_USAGE = 'Error: Jobs Three Parameter Usage: [ jobs jobid timing vuid | jobs jobid timing vu=n | jobs jobid getchart chart ]';

/** The lines of VU n (VU 0: the status stream), as [vu, line] pairs. */
function vuRows(store: JobStore, job: Job, vu?: number): [number, string][] {
  if (vu === 0) return jobStatusLines(store, job).map((l) => [0, l]);
  const lines = allLines(store, job.id, vu).map((l): [number, string] => [l.vu, l.text]);
  return vu === undefined ? [...jobStatusLines(store, job).map((l): [number, string] => [0, l]), ...lines.filter(([v]) => v !== 0)] : lines;
}

/** Output rows: "Virtual User 1: line" (text) or a flat JSON list. */
function rowsReply(ctx: JobsCliCtx, rows: [number, string][]): CliReply {
  return show(
    ctx,
    rows.flat(),
    rows.map(([vu, l]) => `Virtual User ${vu}: ${l}`).join('\n'),
  );
}

/** `jobs ID`: every output line. */
export function jobOutput(ctx: JobsCliCtx, jobId: string): CliReply {
  const job = ctx.store.getJob(jobId.toUpperCase());
  if (!job) return printed(`Jobid ${jobId} does not exist`);
  return rowsReply(ctx, vuRows(ctx.store, job));
}

/** `jobs ID timing VU`: returned, not printed. */
export function jobVuTiming(ctx: JobsCliCtx, jobId: string, sel: string): CliReply {
  const m = /^(?:vu=)?(\d+)$/i.exec(sel);
  if (!m) return printed('Error: Jobs Three Parameter Usage: [ jobs jobid timing vuid | jobs jobid timing vu=n ]');
  const job = ctx.store.getJob(jobId.toUpperCase());
  const t = job ? jobTiming(ctx.store, job, Number(m[1])) : undefined;
  if (!t) return printed(`No Timing Data for VU ${m[1]} for JOB ${jobId}: jobs jobid timing vuid`);
  return returned(ctx.format === 'JSON' ? huddleDump(t) : tclValue(t));
}

/** Which VU a two-parameter form reads: vu=N, 1 for result, else 0 (the status stream). */
function formVu(cmd: string): number {
  const m = /^vu=(\d+)$/.exec(cmd);
  return m ? Number(m[1]) : cmd === 'result' ? 1 : 0;
}

/** `jobs ID cmd`. */
export function jobForm(ctx: JobsCliCtx, jobId: string, rawCmd: string): CliReply {
  const cmd = /^\d+$/.test(rawCmd) ? `vu=${rawCmd}` : rawCmd;
  const job = ctx.store.getJob(jobId.toUpperCase());
  const vu = formVu(cmd);
  if (!job || !vuRows(ctx.store, job, vu).length) return printed(`Jobid ${jobId} for virtual user ${vu} does not exist`);
  if (cmd.startsWith('vu=') || cmd === 'status') return rowsReply(ctx, vuRows(ctx.store, job, vu));
  const simple = simpleForm(ctx, job, cmd);
  if (simple) return simple;
  return seriesForm(ctx, job, cmd) ?? printed(TWO_PARAM_USAGE);
}

function simpleForm(ctx: JobsCliCtx, job: Job, cmd: string): CliReply | undefined {
  switch (cmd) {
    case 'delete':
      if (!isTerminal(job.status)) return printed(`Error: Jobid ${job.id} is ${job.status}: wait for it to end (or vudestroy) before deleting it`);
      ctx.store.deleteJob(job.id);
      return printed(`Deleted Jobid ${job.id}`);
    case 'result': {
      const r = jobResult(ctx.store, job);
      return show(ctx, r, r.join('\n'));
    }
    case 'timestamp':
      return show(ctx, { [job.id]: localTimestamp(Date.parse(job.createdAt)) }, tclList([job.id, localTimestamp(Date.parse(job.createdAt))]));
    case 'dict': {
      const d = jobDict(job);
      return show(ctx, d, tclValue(d));
    }
    case 'db': {
      const words = [dbOf(job), dbVersion(ctx.store, job)].filter((w) => w !== '');
      return show(ctx, words, words.join('\n'));
    }
    case 'bm':
      return show(ctx, [bmOf(job)], bmOf(job));
    case 'save': {
      // Owner-only, never through a link or over a file not ours (files/private-file.ts).
      try {
        const file = writePrivateFile(artifactsDir(ctx.dataDir), `hdb_${job.id}.json`, JSON.stringify(buildArtifact(ctx.store, job), null, 2) + '\n', 'args');
        return printed(`Saved job ${job.id} result artifact to ${file}`);
      } catch (e) {
        return printed(`Error: Failed to save job ${job.id} result artifact: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    default:
      return undefined;
  }
}

function seriesForm(ctx: JobsCliCtx, job: Job, cmd: string): CliReply | undefined {
  const none = (what: string) => show(ctx, [job.id, `Jobid has no ${what}`], tclList([job.id, `Jobid has no ${what}`]));
  switch (cmd) {
    case 'timing': {
      const t = jobTiming(ctx.store, job);
      return t ? show(ctx, t, tclValue(t)) : none('timing data');
    }
    case 'tcount': {
      const t = jobTcount(ctx.store, job);
      if (!t) return none('transaction counter data');
      const series = Object.fromEntries(t.points.map(([ts, v]) => [localTimestamp(ts), String(v)]));
      return show(ctx, { [t.name]: series }, tclValue({ [t.name]: tclList(t.points.flatMap(([ts, v]) => [localTimestamp(ts), String(v)])) }));
    }
    case 'metrics': {
      const rows = jobMetrics(ctx.store, job);
      if (!rows.length) return none('metric data');
      const d = Object.fromEntries(rows.map((r) => [localTimestamp(r.ts), { 'usr%': r.usr, 'sys%': r.sys, 'irq%': r.irq, 'idle%': r.idle, iops: r.iops, mbps: r.mbps }]));
      return show(ctx, d, tclValue(d));
    }
    case 'system': {
      const row = jobSystem(ctx.store, job);
      const d = row ? { jobid: job.id, ...row } : { jobid: job.id, message: 'Jobid has no system data' };
      return show(ctx, d, tclValue(d));
    }
    default:
      return undefined;
  }
}
