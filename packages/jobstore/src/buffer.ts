import type Database from 'better-sqlite3';
import { inTransaction, type Db } from './db.js';

/** A buffered row: the statement's parameters, job id first. */
export type Row = [jobId: string, ...rest: (string | number | null)[]];

interface Sink {
  stmt: Database.Statement<unknown[]>;
  rows: Row[];
}

/**
 * In-memory write buffer for append-only rows (output, samples, metrics).
 * Everything pending is written in ONE transaction per flush; a flush that
 * fails keeps every row for the next attempt, so rows are never lost or
 * written twice. A crash loses at most what arrived since the last flush.
 */
export class WriteBuffer {
  private readonly sinks = new Map<string, Sink>();
  private pending = 0;

  constructor(private readonly db: Db) {}

  /** Declare a destination: an INSERT whose first parameter is the job id. */
  sink(name: string, insertSql: string): void {
    this.sinks.set(name, { stmt: this.db.prepare(insertSql), rows: [] });
  }

  push(name: string, rows: Row[]): void {
    const s = this.sinks.get(name);
    if (!s) throw new Error(`write buffer has no sink "${name}"`);
    for (const r of rows) s.rows.push(r);
    this.pending += rows.length;
  }

  /** Rows waiting for the next flush. */
  get size(): number {
    return this.pending;
  }

  /** Write every pending row in one transaction. Returns the number of rows written. */
  flush(): number {
    if (this.pending === 0) return 0;
    const batches = [...this.sinks.values()].filter((s) => s.rows.length > 0).map((s) => ({ sink: s, rows: s.rows }));
    inTransaction(this.db, () => {
      for (const { sink, rows } of batches) {
        for (const r of rows) sink.stmt.run(r);
      }
    });
    // Committed: drop exactly the rows written (pushes cannot interleave: this is synchronous).
    let written = 0;
    for (const { sink, rows } of batches) {
      written += rows.length;
      sink.rows = sink.rows.length === rows.length ? [] : sink.rows.slice(rows.length);
    }
    this.pending -= written;
    return written;
  }

  /** Forget pending rows of one job (the job is being deleted). */
  discard(jobId: string): void {
    for (const s of this.sinks.values()) {
      const kept = s.rows.filter((r) => r[0] !== jobId);
      this.pending -= s.rows.length - kept.length;
      s.rows = kept;
    }
  }
}
