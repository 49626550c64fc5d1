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
  /**
   * Without vu or q: every line the job produced (its last seq), dropped ones
   * included. With vu or q: the stored lines matching them. Both ignore
   * afterSeq and limit.
   */
  total: number;
}

/** The seqs given to one append: firstSeq..lastSeq inclusive (empty when lastSeq < firstSeq). */
export interface SeqRange {
  firstSeq: number;
  lastSeq: number;
}

export const OUTPUT_SINK = 'output';
const NOTE_SINK = 'output-note';
const PRUNE_SINK = 'output-prune';
export const DEFAULT_OUTPUT_LIMIT = 1000;
export const MAX_OUTPUT_LIMIT = 100000;
/** Output kept per job and VU: the first HEAD lines, one note line, the last TAIL lines. */
export const OUTPUT_HEAD_LINES = 10_000;
export const OUTPUT_TAIL_LINES = 2_000;
/** Jobs whose per-VU line counts are kept in memory (the active job and a few recent ones). */
const TRIM_STATES = 8;

/** The text of the line that stands for the lines dropped between a VU's head and tail. */
export function droppedNote(dropped: number): string {
  return `... ${dropped} output line${dropped === 1 ? '' : 's'} of this virtual user dropped here: a job keeps the first ${OUTPUT_HEAD_LINES} and the last ${OUTPUT_TAIL_LINES} lines of each virtual user`;
}

/** One VU's output bookkeeping: lines seen, and past the head, the seqs (and times) of the tail window. */
interface VuTrim {
  count: number;
  /** Tail window (seq, ts pairs), oldest first from `start`. */
  tail: number[];
  start: number;
  /** The seq of the first dropped line, which holds the note; 0 until a line is dropped. */
  noteSeq: number;
  noteTs: number;
  dropped: number;
  /** Lines of this VU with seq in (noteSeq, prunedTo] are deleted. */
  prunedTo: number;
}

/**
 * Job output (HammerDB's JOBOUTPUT). Appends are buffered; seqs are assigned
 * at append time from a per-job counter loaded from the file on first use,
 * so they are contiguous and never reused, buffered or not.
 *
 * Output is bounded per VU: after OUTPUT_HEAD_LINES lines a VU keeps a
 * sliding window of its last OUTPUT_TAIL_LINES; the first line that leaves
 * the window becomes a note counting the dropped lines, the later ones are
 * deleted, in the same transaction that writes the new lines. The note is a
 * stored line (seq and vu of the first dropped line), so every reader (REST,
 * export, snapshot) shows it where the lines were dropped. Seqs stay the
 * job's count of lines produced: dropped lines leave gaps.
 */
export class OutputRepo {
  private readonly lastSeq = new Map<string, number>();
  private readonly trims = new Map<string, Map<number, VuTrim>>();

  constructor(
    private readonly db: Db,
    private readonly jobs: JobsRepo,
    private readonly buffer: WriteBuffer,
  ) {
    // Sinks are written in this order in one transaction: new lines, then notes (replacing a line written before), then deletions.
    buffer.sink(OUTPUT_SINK, 'INSERT INTO job_output (job_id, seq, vu, ts, text) VALUES (?, ?, ?, ?, ?)');
    buffer.sink(NOTE_SINK, 'INSERT OR REPLACE INTO job_output (job_id, seq, vu, ts, text) VALUES (?, ?, ?, ?, ?)');
    buffer.sink(PRUNE_SINK, 'DELETE FROM job_output WHERE job_id = ? AND vu = ? AND seq > ? AND seq <= ?');
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
    this.trim(jobId, rows);
    return { firstSeq: last + 1, lastSeq: last + lines.length };
  }

  /** Count the new lines per VU; past a VU's head, slide its tail window and drop what leaves it. */
  private trim(jobId: string, rows: readonly [string, number, number, number, string][]): void {
    const vus = this.trimState(jobId);
    const touched = new Map<number, { st: VuTrim; to: number }>();
    for (const [, seq, vu, ts] of rows) {
      let st = vus.get(vu);
      if (!st) vus.set(vu, (st = { count: 0, tail: [], start: 0, noteSeq: 0, noteTs: 0, dropped: 0, prunedTo: 0 }));
      if (++st.count <= OUTPUT_HEAD_LINES) continue;
      st.tail.push(seq, ts);
      if (st.tail.length - st.start <= 2 * OUTPUT_TAIL_LINES) continue;
      const outSeq = st.tail[st.start]!;
      const outTs = st.tail[st.start + 1]!;
      st.start += 2;
      if (st.start >= 2 * OUTPUT_TAIL_LINES) {
        st.tail = st.tail.slice(st.start);
        st.start = 0;
      }
      st.dropped++;
      if (st.noteSeq === 0) {
        st.noteSeq = outSeq;
        st.noteTs = outTs;
        st.prunedTo = outSeq;
      }
      touched.set(vu, { st, to: outSeq });
    }
    for (const [vu, { st, to }] of touched) {
      this.buffer.push(NOTE_SINK, [[jobId, st.noteSeq, vu, st.noteTs, droppedNote(st.dropped)]]);
      if (to > st.prunedTo) {
        this.buffer.push(PRUNE_SINK, [[jobId, vu, st.prunedTo, to]]);
        st.prunedTo = to;
      }
    }
  }

  /** Per-VU counts of a job, counted from this process's appends (a job appends from one process). */
  private trimState(jobId: string): Map<number, VuTrim> {
    let vus = this.trims.get(jobId);
    if (vus) {
      // Most recently used last, so the active job is never the one forgotten.
      this.trims.delete(jobId);
    } else {
      vus = new Map();
      for (const k of this.trims.keys()) {
        if (this.trims.size < TRIM_STATES) break;
        this.trims.delete(k);
      }
    }
    this.trims.set(jobId, vus);
    return vus;
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
    // Seqs are assigned from 1 to every line produced, so an unfiltered total is the last seq: one index lookup, not a count.
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

  /** Forget the counters of a deleted job. */
  forget(jobId: string): void {
    this.lastSeq.delete(jobId);
    this.trims.delete(jobId);
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
