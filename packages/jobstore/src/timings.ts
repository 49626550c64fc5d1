import { SledgeError, type TimingRow } from '@sledge/protocol';
import { inTransaction, type Db } from './db.js';
import type { JobsRepo } from './jobs.js';
import { requireArray, requireFiniteNumber, requireInteger, requireString } from './check.js';
import { fromJsonOpt, toJson } from './json.js';

/** TimingRow number fields and their columns. */
const NUMBERS = [
  ['minMs', 'min_ms'],
  ['avgMs', 'avg_ms'],
  ['maxMs', 'max_ms'],
  ['totalMs', 'total_ms'],
  ['p25Ms', 'p25_ms'],
  ['p50Ms', 'p50_ms'],
  ['p75Ms', 'p75_ms'],
  ['p95Ms', 'p95_ms'],
  ['p99Ms', 'p99_ms'],
  ['sdMs', 'sd_ms'],
  ['ratioPct', 'ratio_pct'],
  ['elapsedMs', 'elapsed_ms'],
] as const;

type TimingDbRow = { proc: string; vu: number; calls: number; histogram: string | null } & Record<(typeof NUMBERS)[number][1], number>;

function toRow(r: TimingDbRow): TimingRow {
  const row: TimingRow = {
    proc: r.proc,
    vu: r.vu,
    calls: r.calls,
    minMs: r.min_ms,
    avgMs: r.avg_ms,
    maxMs: r.max_ms,
    totalMs: r.total_ms,
    p25Ms: r.p25_ms,
    p50Ms: r.p50_ms,
    p75Ms: r.p75_ms,
    p95Ms: r.p95_ms,
    p99Ms: r.p99_ms,
    sdMs: r.sd_ms,
    ratioPct: r.ratio_pct,
    elapsedMs: r.elapsed_ms,
  };
  const histogram = fromJsonOpt<[number, number][]>(r.histogram);
  if (histogram !== undefined) row.histogram = histogram;
  return row;
}

/** Time profile per transaction (HammerDB's JOBTIMING): per-VU rows, vu = 0 the summary. */
export class TimingsRepo {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobsRepo,
  ) {}

  /** Replace every timing row of the job in one transaction. */
  set(jobId: string, rows: readonly TimingRow[]): void {
    requireArray(rows, 'rows');
    const seen = new Set<string>();
    const params = rows.map((r, i) => {
      const f = `rows[${i}]`;
      if (r === null || typeof r !== 'object') throw new SledgeError('SLEDGE_E_VALIDATION', `${f} must be an object`, { field: f });
      const proc = requireString(r.proc, `${f}.proc`, { nonEmpty: true });
      const vu = requireInteger(r.vu, `${f}.vu`, 0);
      const key = `${vu}\u0000${proc}`;
      if (seen.has(key)) throw new SledgeError('SLEDGE_E_VALIDATION', `${f} repeats ${proc} for vu ${vu}: one row per vu and transaction`, { field: f });
      seen.add(key);
      const calls = requireInteger(r.calls, `${f}.calls`, 0);
      const nums = NUMBERS.map(([k]) => requireFiniteNumber(r[k], `${f}.${k}`));
      if (r.histogram !== undefined) requireArray(r.histogram, `${f}.histogram`);
      return [jobId, vu, proc, calls, ...nums, r.histogram === undefined ? null : toJson(r.histogram, `${f}.histogram`)];
    });
    const cols = ['job_id', 'vu', 'proc', 'calls', ...NUMBERS.map(([, c]) => c), 'histogram'];
    inTransaction(this.db, () => {
      this.jobs.assertExists(jobId);
      this.db.prepare('DELETE FROM job_timing WHERE job_id = ?').run(jobId);
      const insert = this.db.prepare(`INSERT INTO job_timing (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
      for (const p of params) insert.run(p);
    });
  }

  /** Rows by vu (summary vu 0 first), each vu's rows in the order they were set. */
  get(jobId: string, opts: { vu?: number } = {}): TimingRow[] {
    const cols = ['proc', 'vu', 'calls', ...NUMBERS.map(([, c]) => c), 'histogram'].join(', ');
    const rows =
      opts.vu === undefined
        ? this.db.prepare(`SELECT ${cols} FROM job_timing WHERE job_id = ? ORDER BY vu, rowid`).all(jobId)
        : this.db.prepare(`SELECT ${cols} FROM job_timing WHERE job_id = ? AND vu = ? ORDER BY rowid`).all(jobId, requireInteger(opts.vu, 'vu', 0));
    return (rows as TimingDbRow[]).map(toRow);
  }
}
