import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { TxInputs, TxOutcome, VuSession, VuSessionOptions } from '@sledge/core';
import type { SqliteTarget, TxType } from '@sledge/protocol';
import { openExisting, VU_TUNING } from '../engine/connection.js';
import { SessionClosedError, schemaMissingIfNoTable } from '../engine/errors.js';
import type { Db } from '../engine/library.js';
import type { TxBody } from './tx/body.js';
import { BusyWait } from '../engine/busywait.js';
import { namedSql } from './sql.js';
import { deliveryBody } from './tx/delivery.js';
import { newOrderBody } from './tx/neworder.js';
import { orderStatusBody } from './tx/orderstatus.js';
import { paymentBody } from './tx/payment.js';
import { stockLevelBody } from './tx/stocklevel.js';

/**
 * A SQLite VU session: one connection, the five transactions prepared once,
 * run synchronously (one VU per worker thread).
 *
 * Beyond the VuSession contract it reports where the last transaction's time
 * went, for the wait-event (ASH) sampling:
 * - lastWaitMs(): for write transactions the wait for SQLite's single
 *   write lock at BEGIN IMMEDIATE (see BusyWait), up to target.busyTimeoutMs;
 *   for read-only ones (BEGIN DEFERRED, a WAL snapshot) 0 unless a rare
 *   busy reader had to start over.
 * - lastExecMs(): time from holding the lock (or starting the successful
 *   read) to the end of COMMIT/ROLLBACK.
 */
export interface SqliteVuSession extends VuSession {
  run<K extends TxType>(tx: K, input: TxInputs[K]): TxOutcome;
  lastWaitMs(): number;
  lastExecMs(): number;
}

type Bodies = { [K in TxType]: TxBody<TxInputs[K]> };

/** WAL size past which a VU checkpoints and truncates it between two transactions. */
export const WAL_CHECKPOINT_BYTES = 64 * 1024 * 1024;
/** Write transactions between two looks at the WAL size (a stat call). */
const WAL_CHECK_EVERY = 64;
/** How long that checkpoint tries for the locks before it leaves it to the next look. */
const CHECKPOINT_WAIT_MS = 1_000;

class Session implements SqliteVuSession {
  private readonly bodies: Bodies;
  private readonly busy: BusyWait;
  private readonly beginImmediate;
  private readonly beginDeferred;
  private readonly commit;
  private readonly rollback;
  private readonly checkpoint;
  private readonly walFile: string;
  private writes = 0;
  private waitMs = 0;
  private execMs = 0;
  private closed = false;

  constructor(
    private readonly db: Db,
    busyTimeoutMs: number,
  ) {
    this.bodies = {
      neworder: newOrderBody(db),
      payment: paymentBody(db),
      delivery: deliveryBody(db),
      stocklevel: stockLevelBody(db),
      orderstatus: orderStatusBody(db),
    };
    this.busy = new BusyWait(busyTimeoutMs);
    this.beginImmediate = db.prepare('BEGIN IMMEDIATE');
    this.beginDeferred = db.prepare('BEGIN DEFERRED');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.checkpoint = db.prepare<[], { busy: number }>(namedSql('counters.sql').after_run_checkpoint);
    this.walFile = `${db.name}-wal`;
  }

  run<K extends TxType>(tx: K, input: TxInputs[K]): TxOutcome {
    if (this.closed || !this.db.open) throw new SessionClosedError();
    const body = this.bodies[tx] as TxBody<TxInputs[K]>;
    if (body === undefined) throw new RangeError(`unknown transaction ${String(tx)}`);
    return body.write ? this.runWrite(body, input) : this.runRead(body, input);
  }

  /**
   * Write transactions wait for the write lock at BEGIN IMMEDIATE; once it
   * is held nothing else in the transaction can be busy (WAL).
   */
  private runWrite<I>(body: TxBody<I>, input: I): TxOutcome {
    const t0 = performance.now();
    try {
      this.busy.retry(() => this.beginImmediate.run());
    } catch (e) {
      // SQLITE_BUSY after the busy timeout: no transaction was opened.
      this.waitMs = performance.now() - t0;
      this.execMs = 0;
      throw e;
    }
    const t1 = performance.now();
    this.waitMs = t1 - t0;
    try {
      return this.finish(body.run(input));
    } catch (e) {
      this.abandon();
      throw e;
    } finally {
      this.execMs = performance.now() - t1;
      this.boundWal();
    }
  }

  /**
   * Keep the WAL bounded. VUs overlap their transactions, so the automatic
   * (passive) checkpoint can copy pages but never finds a moment without a
   * reader to restart the WAL, which then grows by gigabytes an hour (1.8 GB
   * in a 2-minute run at 2 VUs). Every WAL_CHECK_EVERY writes a VU looks at
   * its size; past WAL_CHECKPOINT_BYTES it runs a TRUNCATE checkpoint right
   * after its own commit, when the write lock is free: other writers wait at
   * BEGIN IMMEDIATE, readers finish, the WAL is folded in and truncated. The
   * monitor cannot do this from the main thread: SQLite's busy handler
   * sleeps too long to catch the write lock between two VUs' transactions.
   * Housekeeping only: its failures are ignored (tried again next time).
   */
  private boundWal(): void {
    if (++this.writes % WAL_CHECK_EVERY !== 0) return;
    try {
      if (statSync(this.walFile).size < WAL_CHECKPOINT_BYTES) return;
      new BusyWait(CHECKPOINT_WAIT_MS).retry(() => {
        if (this.checkpoint.get()?.busy) throw Object.assign(new Error('checkpoint busy'), { code: 'SQLITE_BUSY' });
      });
    } catch {
      // busy for a whole second, or no WAL file: tried again at the next look
    }
  }

  /**
   * Read-only transactions read a WAL snapshot and take no write lock. A
   * reader is busy only in rare moments (WAL recovery, a truncating
   * checkpoint); then the whole transaction is rolled back and run again.
   */
  private runRead<I>(body: TxBody<I>, input: I): TxOutcome {
    const t0 = performance.now();
    let started = t0;
    try {
      return this.busy.retry(() => {
        started = performance.now();
        this.beginDeferred.run();
        try {
          return this.finish(body.run(input));
        } catch (e) {
          this.abandon();
          throw e;
        }
      });
    } finally {
      this.waitMs = started - t0;
      this.execMs = performance.now() - started;
    }
  }

  private finish(outcome: TxOutcome): TxOutcome {
    (outcome === 'commit' ? this.commit : this.rollback).run();
    return outcome;
  }

  /** Roll back whatever is open after an error; the original error is the one that matters. */
  private abandon(): void {
    if (!this.db.open || !this.db.inTransaction) return;
    try {
      this.rollback.run();
    } catch {
      // SQLite rolls back on its own when ROLLBACK fails (e.g. after SQLITE_FULL); nothing left to do.
    }
  }

  lastWaitMs(): number {
    return this.waitMs;
  }

  lastExecMs(): number {
    return this.execMs;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.db.open) {
      this.abandon();
      this.db.close();
    }
  }
}

export function openVuSession(target: SqliteTarget, _opts: VuSessionOptions): SqliteVuSession {
  // Opening (journal mode, WAL recovery) waits with SQLite's busy handler, as
  // VUs start together; after that the session does its own lock waiting
  // (BusyWait) within target.busyTimeoutMs.
  const db = openExisting(target, VU_TUNING);
  try {
    db.pragma('busy_timeout = 0');
    return new Session(db, target.busyTimeoutMs);
  } catch (e) {
    db.close();
    throw schemaMissingIfNoTable(e, db.name);
  }
}
