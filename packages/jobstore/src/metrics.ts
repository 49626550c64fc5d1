import { SledgeError } from '@sledge/protocol';
import type { Db } from './db.js';
import type { Row, WriteBuffer } from './buffer.js';
import type { JobsRepo } from './jobs.js';
import { requireArray, requireFiniteNumber, requireInteger, requireString } from './check.js';
import { fromJson, toJson } from './json.js';

/** A sampled metric: CPU per core, ASH sessions, ... `data` is any JSON value. */
export interface MetricSample {
  ts: number;
  source?: string;
  data: unknown;
}

export interface MetricQuery {
  /** ts >= from (unix ms). */
  from?: number;
  /** ts <= to (unix ms). */
  to?: number;
  source?: string;
  limit?: number;
  /** With limit: the newest `limit` samples (still returned oldest first). */
  newest?: boolean;
}

const SINK = 'metric';
const KIND = /^[a-z][a-z0-9_.-]{0,63}$/;

function checkKind(kind: string): string {
  if (typeof kind !== 'string' || !KIND.test(kind)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'kind must be 1-64 lowercase letters, digits, "_", "." or "-", starting with a letter (e.g. "cpu", "ash")', { field: 'kind' });
  }
  return kind;
}

/**
 * Generic metric samples by kind (HammerDB's JOBMETRIC generalised) for the
 * ASH and CPU samplers. Appends are buffered; reads are ordered by ts.
 */
export class MetricsRepo {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobsRepo,
    private readonly buffer: WriteBuffer,
  ) {
    buffer.sink(SINK, 'INSERT INTO job_metric (job_id, kind, ts, source, data) VALUES (?, ?, ?, ?, ?)');
  }

  append(jobId: string, kind: string, samples: readonly MetricSample[]): void {
    checkKind(kind);
    requireArray(samples, 'samples');
    const rows = samples.map((s, i): Row => {
      if (s === null || typeof s !== 'object') throw new SledgeError('SLEDGE_E_VALIDATION', `samples[${i}] must be an object`, { field: `samples[${i}]` });
      requireFiniteNumber(s.ts, `samples[${i}].ts`);
      if (s.source !== undefined) requireString(s.source, `samples[${i}].source`);
      return [jobId, kind, s.ts, s.source ?? null, toJson(s.data, `samples[${i}].data`)];
    });
    this.jobs.assertExists(jobId);
    this.buffer.push(SINK, rows);
  }

  /** The caller flushes the buffer first. */
  get(jobId: string, kind: string, q: MetricQuery = {}): MetricSample[] {
    const where = ['job_id = ?', 'kind = ?'];
    const params: (string | number)[] = [jobId, checkKind(kind)];
    if (q.from !== undefined) {
      where.push('ts >= ?');
      params.push(requireFiniteNumber(q.from, 'from'));
    }
    if (q.to !== undefined) {
      where.push('ts <= ?');
      params.push(requireFiniteNumber(q.to, 'to'));
    }
    if (q.source !== undefined) {
      where.push('source = ?');
      params.push(requireString(q.source, 'source'));
    }
    const newest = q.newest === true && q.limit !== undefined;
    let sql = `SELECT ts, source, data FROM job_metric WHERE ${where.join(' AND ')} ORDER BY ${newest ? 'ts DESC, rowid DESC' : 'ts, rowid'}`;
    if (q.limit !== undefined) {
      sql += ' LIMIT ?';
      params.push(requireInteger(q.limit, 'limit', 1));
    }
    const rows = this.db.prepare(sql).all(...params) as { ts: number; source: string | null; data: string }[];
    if (newest) rows.reverse();
    return rows.map((r) => {
      const s: MetricSample = { ts: r.ts, data: fromJson<unknown>(r.data) };
      if (r.source !== null) s.source = r.source;
      return s;
    });
  }

  /** The kinds a job has samples of, sorted. The caller flushes the buffer first. */
  kinds(jobId: string): string[] {
    const rows = this.db.prepare('SELECT DISTINCT kind FROM job_metric WHERE job_id = ? ORDER BY kind').all(jobId) as { kind: string }[];
    return rows.map((r) => r.kind);
  }
}
