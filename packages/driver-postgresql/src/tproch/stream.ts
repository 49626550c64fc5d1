import { performance } from 'node:perf_hooks';
import type { Client } from 'pg';
import type { TprochNewOrder, TprochQueryRun, TprochQueryText, TprochRefreshOptions, TprochStream, TprochStreamOptions, Value } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { closeQuietly, connect } from '../engine/connect.js';
import { tprochStatement } from './sql.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** PostgreSQL's type OID of DATE. */
const DATE_OID = 1082;

/**
 * DATE values as the server sends them (YYYY-MM-DD: DateStyle ISO, set in
 * stream_settings). node-postgres would make a Date at the process's local
 * midnight, which shows as a timestamp and, east of UTC, as the day before;
 * a stream's rows are the same text on every machine.
 */
const dateAsText = (value: string): string => value;

/** application_name of a TPROC-H stream's session. */
export const streamApplicationName = (stream: number): string => `sledge-tproch-${stream}`;

type Statement = TprochQueryText['statements'][number];

/** The statements around the timed one: before (Q15's create view) and after (drop view). */
function split(q: TprochQueryText): { before: Statement[]; timed: Statement; after: Statement[] } {
  const i = q.statements.findIndex((s) => s.timed);
  if (i < 0) throw new Error(`query ${q.query} has no timed statement`);
  return { before: q.statements.slice(0, i), timed: q.statements[i]!, after: q.statements.slice(i + 1) };
}

/**
 * One TPROC-H stream on PostgreSQL: a session named sledge-tproch-<n> with
 * max_parallel_workers_per_gather = dop and statement_timeout set (SQLSTATE
 * 57014 when it fires). cancel() sends pg_cancel_backend for this session's
 * backend from a second connection, opened on first use.
 */
class PgStream implements TprochStream {
  private canceller: Promise<Client> | undefined;
  private busy = false;

  constructor(
    private readonly c: Client,
    private readonly pid: number,
    private readonly t: PostgresqlTarget,
    private readonly opts: TprochStreamOptions,
  ) {}

  /** Run the statements, timing the timed one; after a failure the trailing statements (drop view) still run. */
  async query(q: TprochQueryText, o: { fetch?: boolean } = {}): Promise<TprochQueryRun> {
    const { before, timed, after } = split(q);
    this.busy = true;
    try {
      for (const s of before) await this.c.query(s.sql);
      const t0 = performance.now();
      let r;
      try {
        r = await this.c.query<unknown[]>({ text: timed.sql, rowMode: 'array' });
      } catch (e) {
        await this.cleanup(after);
        throw e;
      }
      const ms = performance.now() - t0;
      for (const s of after) await this.c.query(s.sql);
      return { rows: r.rows.length, ms, ...(o.fetch ? { data: r.rows } : {}) };
    } finally {
      this.busy = false;
    }
  }

  private async cleanup(after: Statement[]): Promise<void> {
    for (const s of after) await this.c.query(s.sql).catch(() => undefined);
  }

  async explain(q: TprochQueryText): Promise<string> {
    const { before, timed, after } = split(q);
    for (const s of before) await this.c.query(s.sql);
    try {
      const sql = tprochStatement('explain.sql', 'explain').replace('{{sql}}', () => timed.sql);
      const r = await this.c.query<unknown[]>({ text: sql, rowMode: 'array' });
      return r.rows.map((row) => String(row[0])).join('\n');
    } finally {
      await this.cleanup(after);
    }
  }

  async cancel(): Promise<void> {
    if (!this.busy) return;
    this.canceller ??= connect(this.t, 'user', `${streamApplicationName(this.opts.stream)}-cancel`, this.opts.log);
    const c = await this.canceller;
    await c.query(tprochStatement('admin.sql', 'cancel_backend'), [this.pid]);
  }

  async newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void> {
    const order = tprochStatement('refresh.sql', 'rf1_order');
    const line = tprochStatement('refresh.sql', 'rf1_lineitem');
    const defer = tprochStatement('refresh.sql', 'defer_constraints');
    await this.trickle(orders, o, defer, async (x) => {
      await this.c.query(order, x.order as Value[]);
      for (const l of x.lineitems) await this.c.query(line, l as Value[]);
    });
  }

  async oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const lines = tprochStatement('refresh.sql', 'rf2_lineitem');
    const order = tprochStatement('refresh.sql', 'rf2_order');
    await this.trickle(orderKeys, o, undefined, async (k) => {
      await this.c.query(lines, [k]);
      await this.c.query(order, [k]);
    });
  }

  /** Per item: sleep trickleMs, apply it; commit every commitEvery items and at the end. */
  private async trickle<X>(items: readonly X[], o: TprochRefreshOptions, atBegin: string | undefined, apply: (x: X) => Promise<void>): Promise<void> {
    const every = Math.max(1, o.commitEvery);
    let inTx = 0;
    try {
      for (const x of items) {
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (inTx === 0) {
          await this.c.query('BEGIN');
          if (atBegin) await this.c.query(atBegin);
        }
        await apply(x);
        if (++inTx >= every) {
          await this.c.query('COMMIT');
          inTx = 0;
        }
      }
      if (inTx > 0) await this.c.query('COMMIT');
    } catch (e) {
      if (inTx > 0) await this.c.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  async close(): Promise<void> {
    const canceller = this.canceller;
    this.canceller = undefined;
    await Promise.all([closeQuietly(this.c), canceller ? canceller.then(closeQuietly, () => undefined) : undefined]);
  }
}

export async function openPgTprochStream(t: PostgresqlTarget, opts: TprochStreamOptions): Promise<TprochStream> {
  const c = await connect(t, 'user', streamApplicationName(opts.stream), opts.log);
  c.setTypeParser(DATE_OID, dateAsText);
  try {
    await c.query(tprochStatement('admin.sql', 'stream_settings'), [String(Math.max(0, Math.trunc(opts.dop))), String(Math.max(0, opts.queryTimeoutSec) * 1000)]);
    const pid = Number((await c.query<{ pid: number }>(tprochStatement('admin.sql', 'backend_pid'))).rows[0]!.pid);
    return new PgStream(c, pid, t, opts);
  } catch (e) {
    await closeQuietly(c);
    throw e;
  }
}
