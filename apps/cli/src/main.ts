#!/usr/bin/env node
/**
 * sledge — drive a Sledge server from the command line, or run jobs
 * in-process with --local (the CLI then starts the server app itself on a
 * loopback port and talks to it exactly as it would to a remote one).
 *
 * Progress goes to stderr, results to stdout; exit code 0 only on success.
 */
import { parseArgs } from 'node:util';
import { SledgeError, didYouMean, isChbenchResult, isScriptResult, isTproccResult, isTprochResult, type Capabilities, type Job, type JobList, type ProfileScalability, type ProfileSummary, type ServerFrame, type TimingRow } from '@sledge/protocol';
import { FIELD_FLAGS, JOB_FLAGS, jobBody, type Flags } from './args.js';
import { joinNegativeValues, nearestFlag, unknownOptionOf } from './argv.js';
import { capabilitiesText } from './capabilities.js';
import type { SledgeClient } from './client.js';
import { connect } from './connect.js';
import { runHammerdb } from './hammerdb/runner.js';
import { replicaCommand } from './replica.js';
import { chbenchReport, jobDetail, jobTable, scriptReport, timingTable, tprochReport } from './print.js';
import { buildProgressLine } from './progress.js';
import { REPORT_FLAGS, reportCommand, reportIds } from './report.js';
import { validityReport } from './validity.js';
import { SCRIPT_FLAGS, type ScriptFlags } from './script.js';
import { THRESHOLD_FLAGS, jobVerdict, parseMaxRegression, thresholdFields, thresholdReport, type ThresholdFlags } from './thresholds.js';
import type { CapacityResult, ThresholdEvaluation } from '@sledge/protocol';
import { capacityLines } from './shapes.js';

const USAGE = `usage: sledge <command> [flags]

commands:
  build | check | delete | run   create a job and follow it to the end
  datagen                        write TPROC-C flat files + load scripts (no database):
                                 --warehouses N --workers M --dir D [--seed N --timestamp 'YYYY-MM-DD HH:MM:SS']
                                 (a relative --dir is under the server's data directory, or the
                                 current directory with --local; run it again to resume)
  jobs                           list jobs (--engine --status --type --limit)
  job <id>                       show a job (--output for its log, --json)
  stop <id>                      stop a queued or running job
  export <id>                    --format json|csv [--series tcount|client|timing|latency|output|vus|thresholds]
  artifact <id> [-o FILE]        HammerDB v6's JSON result artifact of a run (hammerdb-job-report-v1);
                                 stdout, or FILE (-o DIR/ writes DIR/hdb_<id>.json)
  report <id>                    a self-contained HTML report (opens offline): -o FILE (default sledge-<id>.html, - = stdout);
                                 --compare <id,...> compares the job with up to 7 more (sledge-compare-<ids>.html)
  diff <base> <comp>             HammerDB jobs diff of two profiles (mean NOPM over matched VU counts;
                                 --weighted: CPU-weighted, w = max(1, VUs / ceil(cpus/2)));
                                 with --max-regression PCT: exit 1 when comp is worse by more
  thresholds <id>                evaluate --threshold/--baseline against a stored job (nothing changes;
                                 without them: the job's own); exit 1 when one fails
  profile --sequence 1,2,4,8     a performance profile: one timed run per VU count (same profile id)
  capabilities                   which engine drivers load here, and which loop (native or JavaScript) runs each one's VUs
  hammerdb [auto] <script.tcl|-> run a HammerDB CLI script unchanged (hammerdbcli auto script.tcl);
                                 no script on a terminal: a hammerdb> prompt ("sledge hammerdb --help");
                                 a script.py (or --py) in your python3 (hammerdbcli py auto script.py)
  replica --nats URL [--name N]  join a primary over NATS and run the VUs it places here ("sledge replica --help")

connection and workload flags (build/check/delete/run):
  --db sqlite|postgresql|mysql|mariadb|mssql|oracle|db2   (default sqlite)
  --url <engine url> | --host --port --user --password --database --socket
  --superuser --superuser-password (PostgreSQL)   --file <path> (SQLite)
  --connect-string --system-user --system-password (Oracle)
  --encrypt --trust-server-cert --auth sql|azure-active-directory-password (SQL Server)
  --warehouses N --build-vus N --vus N --driver test|timed --rampup MIN --duration MIN
  --total-iterations N --keyandthink --allwarehouse --timeprofile --raiseerror
  --verify                       after a timed run, check the schema's consistency (C1-C4) for its validity verdict
  --user-delay MS --tc-refresh SEC --workers N --async-scale --async-clients N
  --async-delay MS --async-verbose
  --key-think neworder=18:12,payment=3:12,delivery=2:10,stocklevel=2:5,orderstatus=2:5
                                 keying:mean thinking seconds per transaction (with --keyandthink)
  --mix neworder=45,payment=43,delivery=4,stocklevel=4,orderstatus=4
                                 transaction mix weights, the types left out at 0 (--mix neworder=100: new orders
                                 only); default HammerDB's 10/10/1/1/1. Another mix's NOPM is not comparable with HammerDB's
  --no-prepared                  PostgreSQL: unnamed statements (PgBouncer pool_mode=transaction)
  --no-reconnect --max-tries N --retry-on serialization,connection,timeout,constraint,other
  --stored-procs --prepared --partition --storage-engine NAME
  --no-stored-procs              MySQL, MariaDB, PostgreSQL: each transaction as client-side statements, no routines
  --seed N --label TEXT --profile-id N
  --steps '0:1:2,1:1:4'          step load: START_AFTER_MIN:DURATION_MIN:VUS per step (or a JSON array, or @file.json)
  --arrival-rate TX/S [--arrival-ramp-to TX/S] [--max-sessions N] [--arrival-grace MS]   arrival-rate (open) model
  --capacity 'SLO'               capacity at an SLO on the arrival-rate model: conditions in the --threshold grammar,
                                 comma-separated, e.g. 'p95(neword)<20ms, error_rate<0.1%'; the rate doubles from the
                                 start until a probe fails, is bisected to the tolerance, then held (the measured
                                 window); prints each probe and the verdict, exit 1 when no rate held
  --capacity-start TX/S (default 10, or --arrival-rate) --capacity-max TX/S --capacity-step SEC (default 30)
  --capacity-hold SEC (default 60) --capacity-tolerance PCT (default 5)   --max-sessions N as for --arrival-rate
  --connect-pool FILE   HammerDB connect pool XML (<prefix>cpool.xml): every VU opens each of its connections,
                        each transaction picks one by its policy (first_named, last_named, random, round_robin)
  --ash-background-idle          count background processes' sleeps in ASH (default: only their work)
  --ash-scope database|server    ASH samples the target database's sessions (default) or every session of the server
  --replicas all|NAME,NAME       run the VUs on replicas joined over NATS (an even spread), or
  --replica-vus NAME=N,NAME=N    with these VU counts per replica (they add up to --vus)

thresholds (run; exit code 1 when one fails, each printed PASS/FAIL):
  --threshold EXPR               repeatable: '<metric> <op> <value>[unit]', op < <= > >= ==, e.g.
                                 'nopm>1000' 'tpm>=5000' 'p95(neword)<50ms' 'error_rate<1%' 'retries<=10'
                                 metrics: result fields (nopm, tpm, geomean, qphh, clientCpuMsPer1000Tx ...),
                                 errors, retries, error_rate, p25|p50|p75|p90|p95|p99|min|max|avg(<operation>)
  --baseline job:<id>|profile:<id>   fail when the headline regresses against a job, or (profile)
                                 HammerDB jobs diff: mean NOPM over matched active-VU counts
  --max-regression PCT           allowed regression (default 2.5%, HammerDB v6's diff threshold)
  --abort-on-fail                judge every --threshold during the measured window too (every 5 s) and stop
                                 the run when one fails (exit 1, ABORTED line); per condition: 'EXPR:abort',
                                 'EXPR:abort(30s)' to start judging 30 s into the window

TPROC-H (--workload tproch; default tprocc):
  --scale SF --build-vus N --mode power|throughput|performance --streams N (0 = TPC-H's count for the SF)
                                 performance: a power test, then a throughput test, with the power, throughput
                                 and composite scores (TPC-H's formulas, not TPC results)
  --query-sets N --refresh --update-sets N --trickle MS --dop N --query-timeout SEC
  --raise-query-error --validation --no-explain --verbose
  e.g. sledge build --workload tproch --db postgresql --scale 1 --build-vus 2
       sledge run --workload tproch --db postgresql --scale 1 --mode throughput --streams 2 --refresh
       sledge run --workload tproch --db postgresql --scale 1 --mode performance --refresh
       sledge run --workload tproch --db postgresql --scale 1 --validation   (each answer against TPC-H's SF 1 answer set)

CH-benCHmark (--workload chbench: TPROC-C's VUs and analytic streams on one schema, one timed window):
  the TPROC-C flags, and --analytic-streams N (0 = transactions alone, the interference baseline)
  --dop N --query-timeout SEC --raise-query-error (the analytic queries)
  e.g. sledge build --workload chbench --db postgresql --warehouses 4 --build-vus 2
       sledge run --workload chbench --db postgresql --vus 2 --analytic-streams 1 --rampup 1 --duration 3
  --vus 0: the analytic streams alone (DuckDB runs no TPROC-C transactions, so it takes --vus 0 only)
  e.g. sledge build --workload chbench --db duckdb --file ch.duckdb --warehouses 1
       sledge run --workload chbench --db duckdb --file ch.duckdb --vus 0 --analytic-streams 1 --rampup 0 --duration 1

script (--workload script: pgbench scripts, see docs/script-workload.md):
  -f FILE[@W] (repeatable) --builtin tpcb-like|simple-update|select-only[@W] --vus N --rampup MIN --duration MIN
  --scale N --workers N --threads N (the native loop's threads, pgbench's -j; 0 = one per core)
  --max-tries N --retry-on CLASSES, and --steps, --arrival-rate (...), --replicas,
  --threshold as for TPROC-C; thresholds name scripts as operations: 'p95(tpcb-like)<10ms' 'error_rate(a.sql)<1%'
  e.g. sledge build --workload script --db postgresql --scale 1
       sledge run --workload script -f a.sql@5 -f b.sql@1 --builtin tpcb-like@1 --vus 4 --duration 1
       sledge run --local --workload script --db duckdb --file pg.duckdb -f a.sql --vus 2 --max-tries 5

global flags:
  --server URL   (default http://127.0.0.1:8080, or $SLEDGE_SERVER)
  --local        run in-process (no server needed); --data-dir DIR (default ./data)
  --token T      API token ($SLEDGE_TOKEN)      --json  machine-readable stdout
  --quiet        no progress on stderr`;

const GLOBAL = {
  server: { type: 'string' },
  local: { type: 'boolean' },
  'data-dir': { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  output: { type: 'boolean' },
  engine: { type: 'string' },
  status: { type: 'string' },
  type: { type: 'string' },
  limit: { type: 'string' },
  format: { type: 'string' },
  series: { type: 'string' },
  sequence: { type: 'string' },
  ...REPORT_FLAGS,
  weighted: { type: 'boolean' },
} as const;

/** Every command, for "did you mean" (USAGE describes them). */
const COMMANDS = ['build', 'check', 'delete', 'run', 'datagen', 'jobs', 'job', 'stop', 'export', 'artifact', 'report', 'diff', 'thresholds', 'profile', 'capabilities', 'hammerdb', 'replica', 'help'] as const;

type Opts = Flags & Partial<Record<keyof typeof GLOBAL, string | boolean>> & ThresholdFlags & ScriptFlags;

/** sledge artifact <id> [-o FILE|DIR/]: the v6 result artifact, to stdout or a file. */
async function artifactCommand(id: string | undefined, o: Opts): Promise<number> {
  if (!id) throw new SledgeError('SLEDGE_E_VALIDATION', 'sledge artifact needs a job id: sledge artifact <jobId> [-o file]', { field: 'id' });
  const { client, close } = await connect(o);
  try {
    const text = await client.text(`/jobs/${encodeURIComponent(id)}/artifact`);
    const out = o.out as string | undefined;
    if (!out) {
      process.stdout.write(text.endsWith('\n') ? text : text + '\n');
      return 0;
    }
    const { statSync } = await import('node:fs');
    const { writeOwnerFile } = await import('./owner-file.js');
    const { join } = await import('node:path');
    const isDir = out.endsWith('/') || (() => {
      try {
        return statSync(out).isDirectory();
      } catch {
        return false;
      }
    })();
    const file = isDir ? join(out, `hdb_${(JSON.parse(text) as { job: { jobid: string } }).job.jobid}.json`) : out;
    writeOwnerFile(file, text.endsWith('\n') ? text : text + '\n', '-o');
    if (!o.quiet) process.stderr.write(`wrote ${file}\n`);
    return 0;
  } finally {
    await close();
  }
}

/** The count under the job table: how many are shown of how many match (`--limit` shows the newest). */
function jobCount(list: JobList): string {
  return list.jobs.length < list.total ? `${list.jobs.length} of ${list.total} job(s)` : `${list.total} job(s)`;
}

function progressPrinter(quiet: boolean) {
  const seen = new Set<number>();
  const progress = buildProgressLine(Boolean(process.stderr.isTTY));
  return (f: ServerFrame) => {
    if (quiet) return;
    const lines = f.t === 'output' ? f.lines : f.t === 'snapshot' ? f.snapshot.output : [];
    for (const l of lines) {
      if (seen.has(l.seq)) continue;
      seen.add(l.seq);
      if (l.text.startsWith('TEST RESULT')) continue; // goes to stdout
      process.stderr.write(`${l.vu === 0 ? '' : `Vuser ${l.vu}:`}${l.text}\n`);
    }
    if (f.t === 'progress') {
      const text = progress(f.progress);
      if (text) process.stderr.write(text);
    }
  };
}

async function runJobCommand(type: string, o: Opts): Promise<number> {
  const body: Record<string, unknown> = { ...jobBody(type, o), ...thresholdFields(o) };
  const dg = body['datagen'] as { dir?: unknown } | undefined;
  if (o.local && dg && typeof dg.dir === 'string') {
    // In-process server: a relative --dir means the caller's working directory.
    const { resolve } = await import('node:path');
    dg.dir = resolve(dg.dir);
  }
  const { client, close } = await connect(o);
  try {
    const final = await submitAndFollow(client, type, body, o);
    if (o.json) {
      const timings = final.type === 'run' ? await client.request<TimingRow[]>('GET', `/jobs/${final.id}/timing`) : [];
      process.stdout.write(JSON.stringify({ job: final, result: final.result ?? null, timings }, null, 2) + '\n');
    } else {
      if (isTprochResult(final.result)) process.stdout.write(tprochReport(final.result));
      else if (isChbenchResult(final.result)) process.stdout.write(chbenchReport(final.result));
      else if (isScriptResult(final.result)) process.stdout.write(scriptReport(final.result));
      else if (final.result) process.stdout.write(final.result.line + '\n');
      const capacity = (final.result as { capacity?: CapacityResult } | undefined)?.capacity;
      if (capacity) process.stdout.write(capacityLines(capacity).join('\n') + '\n');
      else if (final.status === 'completed') process.stdout.write(`${type} job ${final.id} completed${final.summary ? `: ${final.summary}` : ''}\n`);
    }
    const validity = validityReport(final.result);
    if (validity && !o.json) process.stdout.write(validity);
    const verdict = jobVerdict(final);
    if (verdict && !o.json) process.stdout.write(verdict.report);
    const held = (final.result as { capacity?: CapacityResult } | undefined)?.capacity?.held ?? true;
    return final.status === 'completed' && (verdict?.passed ?? true) && held ? 0 : 1;
  } finally {
    await close();
  }
}

/** Create a job and follow it to its end (Ctrl-C stops it); progress on stderr. */
async function submitAndFollow(client: SledgeClient, type: string, body: Record<string, unknown>, o: Opts): Promise<Job> {
  const job = await client.request<Job>('POST', '/jobs', body);
  if (!o.quiet) process.stderr.write(`${type} job ${job.id} created\n`);
  let stopping = false;
  const onSigint = () => {
    if (stopping) process.exit(130);
    stopping = true;
    process.stderr.write(`\nstopping job ${job.id} (Ctrl-C again to leave it running)\n`);
    void client.request('POST', `/jobs/${job.id}/stop`).catch(() => undefined);
  };
  process.on('SIGINT', onSigint);
  try {
    const final = await client.follow(job.id, progressPrinter(Boolean(o.quiet)));
    if (final.status !== 'completed') process.stderr.write(`job ${final.id} ${final.status}${final.error ? `: ${final.error.code}: ${final.error.message}` : ''}\n`);
    return final;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** The profile's scalability explainer (docs/scalability.md), or undefined while it has runs at fewer than 3 VU counts. */
async function profileScalability(client: SledgeClient, pid: number): Promise<ProfileScalability | undefined> {
  try {
    return await client.request<ProfileScalability>('GET', `/profiles/${pid}/scalability`);
  } catch (e) {
    if (e instanceof SledgeError && e.code === 'SLEDGE_E_CONFLICT') return undefined;
    throw e;
  }
}

/**
 * A performance profile (HammerDB's autopilot): one timed run per VU count in
 * --sequence, all with the same profile id, then NOPM and TPM against VUs and,
 * with 3 or more VU counts, the scalability explainer's summary.
 */
async function profileCommand(o: Opts): Promise<number> {
  const seq = String(o.sequence ?? '1,2,4,8')
    .split(',')
    .map((x) => Number(x.trim()));
  if (!seq.length || seq.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `--sequence must list VU counts like 1,2,4,8 (got ${JSON.stringify(o.sequence)})`, { field: '--sequence' });
  }
  const { client, close } = await connect(o);
  try {
    let pid = o['profile-id'] === undefined ? undefined : Number(o['profile-id']);
    if (pid === undefined) {
      const profiles = await client.request<ProfileSummary[]>('GET', '/profiles');
      pid = profiles.reduce((m, p) => Math.max(m, p.profileId), 0) + 1;
    }
    const rows: { vus: number; nopm: number; tpm: number; id: string }[] = [];
    let failed = 0;
    for (const vus of seq) {
      const body = { ...jobBody('run', { ...o, vus: String(vus), 'profile-id': String(pid) }), ...thresholdFields(o) };
      const final = await submitAndFollow(client, 'run', body, o);
      if (final.status !== 'completed' || !isTproccResult(final.result)) return 1;
      if (!o.json) process.stdout.write(`${vus} VU: ${final.result.line}\n`);
      const verdict = jobVerdict(final);
      if (verdict && !o.json) process.stdout.write(verdict.report);
      if (verdict && !verdict.passed) failed++;
      rows.push({ vus, nopm: final.result.nopm, tpm: final.result.tpm, id: final.id });
    }
    const scalability = await profileScalability(client, pid);
    if (o.json) process.stdout.write(JSON.stringify({ profileId: pid, runs: rows, ...(scalability ? { scalability } : {}) }, null, 2) + '\n');
    else {
      process.stdout.write(`profile ${pid}:\n` + rows.map((r) => `  ${String(r.vus).padStart(4)} VU  ${String(r.nopm).padStart(9)} NOPM  ${String(r.tpm).padStart(9)} TPM  ${r.id}`).join('\n') + '\n');
      if (scalability) process.stdout.write(`${scalability.summary}\n`);
    }
    return failed ? 1 : 0;
  } finally {
    await close();
  }
}

async function main(argv: string[]): Promise<number> {
  const cmd = argv[0];
  // HammerDB's CLI scripts: a flag set and a Tcl interpreter of their own.
  if (cmd === 'hammerdb') return runHammerdb(argv.slice(1));
  // A long-running process joining a primary over NATS: flags of its own.
  if (cmd === 'replica') return replicaCommand(argv.slice(1));
  if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    process.stdout.write(USAGE + '\n');
    return cmd ? 0 : 2;
  }
  const options = { ...JOB_FLAGS, ...GLOBAL, ...THRESHOLD_FLAGS, ...SCRIPT_FLAGS };
  const { values, positionals } = parseArgs({ args: joinNegativeValues(argv.slice(1), options), options, allowPositionals: true, strict: true });
  const o = values as Opts;
  if (o.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  switch (cmd) {
    case 'build':
    case 'check':
    case 'delete':
    case 'run':
    case 'datagen':
      return runJobCommand(cmd, o);
    case 'profile':
      return profileCommand(o);
    case 'diff': {
      const [b, c] = positionals;
      if (!b || !c || !/^\d+$/.test(b) || !/^\d+$/.test(c)) throw new SledgeError('SLEDGE_E_VALIDATION', 'sledge diff needs two profile ids: sledge diff <base> <comp>', { field: 'profileId' });
      const max = o['max-regression'] === undefined ? undefined : parseMaxRegression(o['max-regression']);
      const { client, close } = await connect(o);
      try {
        const d = await client.request<{ ratio: number; diff: string; line: string; lines: string[] }>('GET', `/profiles/${b}/diff/${c}${o.weighted ? '?weighted=1' : ''}`);
        const failed = max !== undefined && -d.ratio > max;
        process.stdout.write(o.json ? JSON.stringify(d, null, 2) + '\n' : `${d.lines.join('\n')}\n${d.diff}\n${max === undefined ? '' : `${failed ? 'FAIL' : 'PASS'}: regression ${(Math.max(0, -d.ratio) * 100).toFixed(2)}% (at most ${(max * 100).toFixed(2)}% allowed)\n`}`);
        return failed ? 1 : 0;
      } finally {
        await close();
      }
    }
    case 'thresholds': {
      const id = positionals[0];
      if (!id) throw new SledgeError('SLEDGE_E_VALIDATION', 'sledge thresholds needs a job id', { field: 'id' });
      const { client, close } = await connect(o);
      try {
        const ev = await client.request<ThresholdEvaluation>('POST', `/jobs/${id}/thresholds`, thresholdFields(o));
        process.stdout.write(o.json ? JSON.stringify(ev, null, 2) + '\n' : thresholdReport(ev));
        return ev.passed ? 0 : 1;
      } finally {
        await close();
      }
    }
    case 'jobs': {
      const { client, close } = await connect(o);
      try {
        const q = new URLSearchParams();
        for (const k of ['engine', 'status', 'type', 'limit'] as const) if (o[k]) q.set(k, String(o[k]));
        const list = await client.request<JobList>('GET', `/jobs${q.size ? `?${q}` : ''}`);
        process.stdout.write(o.json ? JSON.stringify(list, null, 2) + '\n' : jobTable(list.jobs) + `\n${jobCount(list)}\n`);
        return 0;
      } finally {
        await close();
      }
    }
    case 'job':
    case 'stop':
    case 'export': {
      const id = positionals[0];
      if (!id) throw new SledgeError('SLEDGE_E_VALIDATION', `sledge ${cmd} needs a job id`, { field: 'id' });
      const { client, close } = await connect(o);
      try {
        if (cmd === 'stop') {
          const j = await client.request<Job>('POST', `/jobs/${id}/stop`);
          process.stdout.write(o.json ? JSON.stringify(j, null, 2) + '\n' : `job ${j.id} ${j.status}\n`);
          return 0;
        }
        if (cmd === 'export') {
          const format = (o.format as string | undefined) ?? 'json';
          const text = await client.text(`/jobs/${id}/export?format=${encodeURIComponent(format)}${o.series ? `&series=${encodeURIComponent(String(o.series))}` : ''}`);
          process.stdout.write(text.endsWith('\n') ? text : text + '\n');
          return 0;
        }
        const j = await client.request<Job>('GET', `/jobs/${id}`);
        if (o.json) {
          process.stdout.write(JSON.stringify(j, null, 2) + '\n');
          return 0;
        }
        process.stdout.write(jobDetail(j) + '\n');
        if (j.type === 'run' && j.status === 'completed') process.stdout.write('\n' + (validityReport(j.result) ?? 'Validity: not computed (a job stored before verdicts, or a workload without checks)\n'));
        const verdict = jobVerdict(j);
        if (verdict) process.stdout.write('\n' + verdict.report);
        if (j.type === 'run') {
          const t = await client.request<TimingRow[]>('GET', `/jobs/${id}/timing`);
          if (t.length) process.stdout.write('\n' + timingTable(t) + '\n');
        }
        if (o.output) {
          const out = await client.request<{ lines: { vu: number; text: string }[] }>('GET', `/jobs/${id}/output?limit=10000`);
          process.stdout.write('\n' + out.lines.map((l) => `${l.vu === 0 ? '' : `Vuser ${l.vu}:`}${l.text}`).join('\n') + '\n');
        }
        return 0;
      } finally {
        await close();
      }
    }
    case 'artifact':
      return artifactCommand(positionals[0], o);
    case 'report': {
      // Checked before connecting: a missing id needs no server.
      const ids = reportIds(positionals[0], typeof o.compare === 'string' ? o.compare : undefined);
      const { client, close } = await connect(o);
      try {
        return await reportCommand(client, ids, o);
      } finally {
        await close();
      }
    }
    case 'capabilities': {
      const { client, close } = await connect(o);
      try {
        const c = await client.request<Capabilities>('GET', '/capabilities');
        process.stdout.write(o.json ? JSON.stringify(c, null, 2) + '\n' : capabilitiesText(c));
        return 0;
      } finally {
        await close();
      }
    }
    default: {
      const hint = didYouMean(cmd, COMMANDS);
      throw new SledgeError('SLEDGE_E_VALIDATION', `unknown command "${cmd}"${hint ? `${hint} ("sledge help" lists every command)` : ': run "sledge help"'}`, { field: 'command' });
    }
  }
}

/** A server message and field in CLI terms: flags instead of body paths, commands instead of job types. */
function forCli(text: string): string {
  return text
    .replace(/\(job type "(\w+)"\)/g, (_m, t: string) => `(sledge ${t} with the same connection flags)`)
    .replace(/\btprocc\.mix\.([a-z]+)\b/g, '--mix $1')
    .replace(/\b(?:target|tprocc|datagen)\.[A-Za-z]+\b/g, (f) => FIELD_FLAGS[f] ?? f);
}

// `sledge job <id> --output | head -1`: a closed pipe ends the command quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

main(process.argv.slice(2)).then(
  // Exit once stdout has drained: a large export piped to jq must not be cut short.
  (code) => process.stdout.write('', () => process.exit(code)),
  (e: unknown) => {
    if (SledgeError.is(e)) {
      const se = e as SledgeError;
      // Every field at fault, one line each (validation lists them all at once).
      for (const x of se.errors ?? [{ field: se.field, message: se.message }]) {
        const field = x.field ? ` [${FIELD_FLAGS[x.field] ?? x.field}]` : '';
        process.stderr.write(`error: ${se.code}: ${forCli(x.message)}${field}\n`);
      }
      process.exit(se.httpStatus < 500 ? 2 : 1);
    }
    if (e instanceof Error && (e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = unknownOptionOf(e.message) ?? '?';
      const near = nearestFlag(flag, { ...JOB_FLAGS, ...GLOBAL, ...THRESHOLD_FLAGS });
      process.stderr.write(`error: unknown flag ${flag}${near ? `: did you mean ${near}?` : ''} ("sledge help" lists every flag)\n`);
      process.exit(2);
    }
    if (e instanceof Error && (e as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`error: ${e.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
