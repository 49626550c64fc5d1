import { SledgeError, type OutputLine } from '@sledge/protocol';
import type { Db } from './db.js';
import type { WriteBuffer } from './buffer.js';
import type { JobsRepo } from './jobs.js';
import { likeContains, requireArray, requireFiniteNumber, requireInteger, requireString } from './check.js';

export interface OutputInput {
  vu: number;
  ts: number;
  text: string;
}

export interface OutputQuery {
  /** Only this VU's lines (0 = status stream). */
  vu?: number;
  /** Lines with seq > afterSeq (paging cursor). */
  afterSeq?: number;
  /** Page size: default 1000, at most 100000. */
  limit?: number;
  /** Case-insensitive substring of the text. */
  q?: string;
}

export interface OutputPage {
  lines: OutputLine[];
  /** Lines matching vu and q in the whole job (ignores afterSeq and limit). */
  total: number;
}

/** The seqs given to one append: firstSeq..lastSeq inclusive (empty when lastSeq < firstSeq). */
export interface SeqRange {
  firstSeq: number;
  lastSeq: number;
}

export const OUTPUT_SINK = 'output';
export const DEFAULT_OUTPUT_LIMIT = 1000;
export const MAX_OUTPUT_LIMIT = 100000;

/**
 * Job output (HammerDB's JOBOUTPUT). Appends are buffered; seqs are assigned
 * at append time from a per-job counter loaded from the file on first use,
 * so they are contiguous and never reused, buffered or not.
 */
export class OutputRepo {
  private readonly lastSeq = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly jobs: JobsRepo,
    private readonly buffer: WriteBuffer,
  ) {
    buffer.sink(OUTPUT_SINK, 'INSERT INTO job_output (job_id, seq, vu, ts, text) VALUES (?, ?, ?, ?, ?)');
  }

  append(jobId: string, lines: readonly OutputInput[]): SeqRange {
    requireArray(lines, 'lines');
    // Validate everything first: a bad line must not leave a gap in the seqs.
    lines.forEach((l, i) => {
      if (l === null || typeof l !== 'object') throw new SledgeError('SLEDGE_E_VALIDATION', `lines[${i}] must be an object`, { field: `lines[${i}]` });
      requireInteger(l.vu, `lines[${i}].vu`, 0);
      requireFiniteNumber(l.ts, `lines[${i}].ts`);
      requireString(l.text, `lines[${i}].text`);
    });
    const last = this.counter(jobId);
    const rows = lines.map((l, i) => [jobId, last + i + 1, l.vu, l.ts, l.text] as [string, number, number, number, string]);
    this.buffer.push(OUTPUT_SINK, rows);
    this.lastSeq.set(jobId, last + lines.length);
    return { firstSeq: last + 1, lastSeq: last + lines.length };
  }

  /** Read lines in seq order. The caller flushes the buffer first. */
  read(jobId: string, query: OutputQuery = {}): OutputPage {
    const where = ['job_id = ?'];
    const params: (string | number)[] = [jobId];
    if (query.vu !== undefined) {
      where.push('vu = ?');
      params.push(requireInteger(query.vu, 'vu', 0));
    }
    if (query.q !== undefined && query.q !== '') {
      where.push(`text LIKE ? ESCAPE '\\'`);
      params.push(likeContains(requireString(query.q, 'q')));
    }
    // Seqs are contiguous from 1, so an unfiltered total is the last seq: one index lookup, not a count.
    const total =
      where.length === 1
        ? ((this.db.prepare('SELECT max(seq) AS n FROM job_output WHERE job_id = ?').get(jobId) as { n: number | null }).n ?? 0)
        : (this.db.prepare(`SELECT count(*) AS n FROM job_output WHERE ${where.join(' AND ')}`).get(...params) as { n: number }).n;
    const afterSeq = query.afterSeq === undefined ? 0 : requireInteger(query.afterSeq, 'afterSeq', 0);
    const limit = query.limit === undefined ? DEFAULT_OUTPUT_LIMIT : requireInteger(query.limit, 'limit', 1);
    if (limit > MAX_OUTPUT_LIMIT) throw new SledgeError('SLEDGE_E_VALIDATION', `limit must be at most ${MAX_OUTPUT_LIMIT}`, { field: 'limit' });
    const lines = this.db
      .prepare(`SELECT seq, vu, ts, text FROM job_output WHERE ${where.join(' AND ')} AND seq > ? ORDER BY seq LIMIT ?`)
      .all(...params, afterSeq, limit) as OutputLine[];
    return { lines, total };
  }

  /** Forget the counter of a deleted job. */
  forget(jobId: string): void {
    this.lastSeq.delete(jobId);
  }

  private counter(jobId: string): number {
    const known = this.lastSeq.get(jobId);
    if (known !== undefined) return known;
    this.jobs.assertExists(jobId);
    // Nothing of this job can be buffered yet (buffered rows imply a loaded counter).
    const row = this.db.prepare('SELECT max(seq) AS s FROM job_output WHERE job_id = ?').get(jobId) as { s: number | null };
    const last = row.s ?? 0;
    this.lastSeq.set(jobId, last);
    return last;
  }
}
