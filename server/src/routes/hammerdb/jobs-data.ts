import type { JobStore } from '@sledge/jobstore';
import { isTerminal, type CpuSample, type Job, type OutputLine } from '@sledge/protocol';
import { jobAgent, jobSystemInfo } from '../../engine/job-cpus.js';
import { tclFixed } from '../../engine/jobs-diff.js';
import { databaseByEngine, defaultDict, type Dict } from './dicts.js';
import { sledgeToDict } from './keymap.js';
import { maskDict } from './settings.js';

/**
 * A Sledge job read the way HammerDB's jobs module reads its tables
 * (hammerdb.md §4): JOBMAIN's db and bm, getjobresult, getjobtiming,
 * getjobtcount, getjobmetrics, getjobsystem, the summary status and the
 * best ("top") jobs. Every viewer and CLI form is built from these.
 */

/** HammerDB's local 'YYYY-MM-DD HH:MM:SS'. */
export function localTimestamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

export const jobTimestamp = (job: Job): string => localTimestamp(Date.parse(job.createdAt));

/** JOBMAIN.bm: TPC-C or TPC-H. */
export const bmOf = (job: Job): 'TPC-C' | 'TPC-H' => (job.workload === 'tproch' ? 'TPC-H' : 'TPC-C');
/** JOBMAIN.db: HammerDB's name of the database (PostgreSQL, MariaDB, MSSQLServer, ...). */
export const dbOf = (job: Job): string => databaseByEngine(job.engine).name;

export function allLines(store: JobStore, jobId: string, vu?: number): OutputLine[] {
  const out: OutputLine[] = [];
  let afterSeq = 0;
  for (;;) {
    const page = store.getOutput(jobId, { afterSeq, limit: 100000, ...(vu === undefined ? {} : { vu }) });
    out.push(...page.lines);
    if (page.lines.length < 100000) return out;
    afterSeq = page.lines[page.lines.length - 1]!.seq;
  }
}

/**
 * The status stream as HammerDB writes it. Sledge's run jobs write VU 0
 * themselves; builds write only their build workers' (Vuser 2..), checks and
 * deletes none, so the monitor's (Vuser 1) are derived from the job's status.
 */
export function statusLines(job: Job, stored: readonly string[]): string[] {
  const lines = [...stored];
  if (job.status === 'queued') return lines;
  // Builds write their workers' lines (Vuser 2.. RUNNING/FINISHED) but not the monitor's (Vuser 1).
  if (!lines.includes('Vuser 1:RUNNING')) lines.unshift('Vuser 1:RUNNING');
  if (isTerminal(job.status)) {
    if (!lines.some((l) => /^Vuser 1:FINISHED (SUCCESS|FAILED)$/.test(l))) lines.push(job.status === 'completed' ? 'Vuser 1:FINISHED SUCCESS' : 'Vuser 1:FINISHED FAILED');
    if (!lines.includes('ALL VIRTUAL USERS COMPLETE')) lines.push('ALL VIRTUAL USERS COMPLETE');
  }
  return lines;
}

export const jobStatusLines = (store: JobStore, job: Job): string[] =>
  statusLines(
    job,
    allLines(store, job.id, 0).map((l) => l.text),
  );

/** The database version from VU 1's `DBVersion:<v>` line ('' when there is none). */
export function dbVersion(store: JobStore, job: Job): string {
  const text = allLines(store, job.id, 1)
    .map((l) => l.text)
    .join(' ');
  return /DBVersion:(\d.+?)\s/.exec(`${text} `)?.[1] ?? '';
}

/** getjobresult: [id, ts, active line, TEST RESULT line] (TPROC-C), [id, ts, geomean lines, Completed lines] (TPROC-H), or [id, "Jobid has no test result"]. */
export function jobResult(store: JobStore, job: Job): string[] {
  const none = [job.id, 'Jobid has no test result'];
  const ts = jobTimestamp(job);
  if (bmOf(job) === 'TPC-C') {
    const monitor = allLines(store, job.id, 1).map((l) => l.text);
    const result = monitor.find((l) => l.startsWith('TEST RESULT'));
    if (!result) return none;
    const active = monitor.find((l) => l.includes('Active Sessions')) ?? monitor.find((l) => l.includes('Active Virtual Users'));
    return active ? [job.id, ts, active, result] : [job.id, ts, result];
  }
  const lines = allLines(store, job.id).map((l) => l.text);
  const completed = lines.filter((l) => l.startsWith('Completed'));
  if (!completed.length) return none;
  const geomean = lines.filter((l) => l.includes('Geometric mean'));
  return geomean.length ? [job.id, ts, geomean.join(' '), completed.join(' ')] : [job.id, ts, completed.join(' ')];
}

export const hasResult = (r: readonly string[]): boolean => !(r.length === 2 && r[1] === 'Jobid has no test result');

/** getnopmtpm: the figures of a TPROC-C result line (tokens 5, 6, 8, 9; NOPM-first or TPM-first). */
export function nopmTpm(r: readonly string[]): { activevu: string; nopm: string; tpm: string; db: string } {
  const line = r[r.length - 1] ?? '';
  const t = line.split(' ');
  const [first, unit, second, db] = [t[5] ?? '', t[6] ?? '', t[8] ?? '', t[9] ?? ''];
  const activevu = r.length === 4 ? (r[2]!.match(/[0-9]*\.?[0-9]+/g) ?? []).join(' ') : '';
  return unit === 'NOPM' ? { activevu, nopm: first, tpm: second, db } : { activevu, nopm: second, tpm: first, db };
}

/** TPROC-H figures from a result: queries, query sets, geomean, query time (seconds). */
export function tprochFigures(r: readonly string[]): { queries: string; querysets: string; geomean: string; querytime: string } | undefined {
  if (r.length < 4 || !r[2]!.startsWith('Geometric')) return undefined;
  const g = r[2]!.match(/[0-9]*\.?[0-9]+/g) ?? [];
  const q = r[3]!.match(/[0-9]*\.?[0-9]+/g) ?? [];
  return { queries: g[0] ?? '', geomean: g[1] ?? '', querysets: q[0] ?? '', querytime: q[1] ?? '' };
}

export const TIMING_FIELDS = ['elapsed_ms', 'calls', 'min_ms', 'avg_ms', 'max_ms', 'total_ms', 'p99_ms', 'p95_ms', 'p75_ms', 'p50_ms', 'p25_ms', 'sd', 'ratio_pct'] as const;
export type TimingFields = Record<(typeof TIMING_FIELDS)[number], number>;

/** getjobtiming: the summary rows (vu omitted) or one VU's rows, by ratio descending; undefined when there are none. */
export function jobTiming(store: JobStore, job: Job, vu?: number): Record<string, TimingFields> | undefined {
  const rows = store.getTimings(job.id, { vu: vu ?? 0 }).filter((r) => r.vu === (vu ?? 0));
  if (!rows.length) return undefined;
  rows.sort((a, b) => b.ratioPct - a.ratioPct);
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return Object.fromEntries(
    rows.map((r) => [
      r.proc,
      {
        elapsed_ms: r3(r.elapsedMs),
        calls: r.calls,
        min_ms: r3(r.minMs),
        avg_ms: r3(r.avgMs),
        max_ms: r3(r.maxMs),
        total_ms: r3(r.totalMs),
        p99_ms: r3(r.p99Ms),
        p95_ms: r3(r.p95Ms),
        p75_ms: r3(r.p75Ms),
        p50_ms: r3(r.p50Ms),
        p25_ms: r3(r.p25Ms),
        sd: r3(r.sdMs),
        ratio_pct: r3(r.ratioPct),
      },
    ]),
  );
}

/** getjobtcount: the series name ("PostgreSQL tpm"; TPROC-H "... qph") and [local ts, value] points; undefined when empty. */
export function jobTcount(store: JobStore, job: Job): { name: string; metric: 'tpm' | 'qph'; points: [number, number][] } | undefined {
  const samples = store.getTcount(job.id).engine;
  if (!samples.length) return undefined;
  const metric = bmOf(job) === 'TPC-H' ? 'qph' : 'tpm';
  return { name: `${dbOf(job)} ${metric}`, metric, points: samples.map((x) => [x.ts, Math.round(metric === 'qph' ? x.tpm * 60 : x.tpm)]) };
}

export interface MetricRow {
  ts: number;
  usr: number;
  sys: number;
  irq: number;
  idle: number;
  iops: number;
  mbps: number;
}

const geo = (xs: number[]) => (xs.some((x) => x <= 0) ? 0 : Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length));
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/** getjobmetrics: JOBMETRIC rows as HammerDB stores them, one per 5 'all'-CPU samples of the DB host's agent (geometric means of usr/sys/irq/idle, mean IOPS and MB/s). */
export function jobMetrics(store: JobStore, job: Job): MetricRow[] {
  const label = jobAgent(store, job, true)?.[0];
  const samples = store
    .getMetrics(job.id, 'cpu', label ? { source: label } : {})
    .map((s) => s.data as CpuSample)
    .filter((s) => s && Array.isArray(s.cpus) && s.cpus.some((c) => c.cpu === 'all'));
  const rows: MetricRow[] = [];
  for (let i = 0; i + 5 <= samples.length; i += 5) {
    const group = samples.slice(i, i + 5);
    const all = group.map((s) => s.cpus.find((c) => c.cpu === 'all')!);
    const f2 = (x: number) => Number(tclFixed(x, 2));
    rows.push({
      ts: group[4]!.ts,
      usr: f2(geo(all.map((c) => c.usr))),
      sys: f2(geo(all.map((c) => c.sys))),
      irq: f2(geo(all.map((c) => c.irq))),
      idle: f2(geo(all.map((c) => c.idle))),
      iops: Number(tclFixed(mean(group.map((s) => s.iops)), 0)),
      mbps: f2(mean(group.map((s) => s.mbps))),
    });
  }
  return rows;
}

export const SYSTEM_FIELDS = ['hostname', 'cpumodel', 'cpucount', 'system_vendor', 'system_type', 'os_name', 'memory', 'nic', 'storage', 'cloud_instance', 'other_software', 'extra'] as const;

/** getjobsystem: the JOBSYSTEM row of the job's database host (empty fields left out), or undefined. */
export function jobSystem(store: JobStore, job: Job): Record<string, string> | undefined {
  const info = jobSystemInfo(store, job);
  if (!info) return undefined;
  const str = (k: string) => (typeof info[k] === 'string' || typeof info[k] === 'number' ? String(info[k]) : '');
  const bytes = Number(info['memoryBytes']);
  const row: Record<string, string> = {
    hostname: str('hostname'),
    cpumodel: str('cpuModel'),
    cpucount: str('cpuCount'),
    os_name: str('os'),
    memory: Number.isFinite(bytes) && bytes > 0 ? `${tclFixed(bytes / 2 ** 30, 1)} GB` : '',
    extra: str('kernel') ? `kernel ${str('kernel')}` : '',
  };
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== ''));
}

/** JOBMAIN.jobdict: the job's configuration as its database's dict without the other workload's section (secrets stay redacted). */
export function jobDict(job: Job): Dict {
  const db = databaseByEngine(job.engine);
  const cfg = (job.config ?? {}) as { target?: Record<string, unknown>; tprocc?: Record<string, unknown>; tproch?: Record<string, unknown> };
  const d = maskDict(sledgeToDict(db.prefix, job.engine, defaultDict(db.prefix), cfg));
  const other = bmOf(job) === 'TPC-C' ? 'tpch' : 'tpcc';
  return Object.fromEntries(Object.entries(d).filter(([sec]) => sec !== other)) as Dict;
}
