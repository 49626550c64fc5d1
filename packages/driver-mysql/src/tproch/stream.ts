import { performance } from 'node:perf_hooks';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { TprochNewOrder, TprochQueryRun, TprochQueryText, TprochRefreshOptions, TprochStream, TprochStreamOptions } from '@sledge/core';
import { connect } from '../engine/connect.js';
import type { Flavour, MyTarget } from '../engine/flavour.js';
import type { TprochSqlSet } from './sql.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

type Statement = TprochQueryText['statements'][number];

function split(q: TprochQueryText): { before: Statement[]; timed: Statement; after: Statement[] } {
  const i = q.statements.findIndex((s) => s.timed);
  if (i < 0) throw new Error(`query ${q.query} has no timed statement`);
  return { before: q.statements.slice(0, i), timed: q.statements[i]!, after: q.statements.slice(i + 1) };
}

/** EXPLAIN's rows as a text table: a header line and one line per row, columns padded. */
export function explainText(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '';
  const cols = Object.keys(rows[0]!);
  const cell = (v: unknown) => (v === null || v === undefined ? 'NULL' : String(v));
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(width[i]!)).join(' | ').trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join('\n');
}

/**
 * One TPROC-H stream on MySQL or MariaDB. The statement timeout is the
 * server's (MySQL max_execution_time in ms, for SELECTs: error 3024;
 * MariaDB max_statement_time in s: error 1969). cancel() sends KILL QUERY
 * for this connection's id from a second connection, opened on first use.
 * Neither engine has a per-session degree of parallelism: opts.dop is not
 * used. The session is named by its connection attribute sledge_role
 * (sledge-tproch-<n>).
 */
class MyStream implements TprochStream {
  private killer: Promise<Connection> | undefined;
  private busy = false;

  constructor(
    private readonly c: Connection,
    private readonly id: number,
    private readonly t: MyTarget,
    private readonly flavour: Flavour,
    private readonly sql: TprochSqlSet,
    private readonly opts: TprochStreamOptions,
  ) {}

  async query(q: TprochQueryText, o: { fetch?: boolean } = {}): Promise<TprochQueryRun> {
    const { before, timed, after } = split(q);
    this.busy = true;
    try {
      for (const s of before) await this.c.query(s.sql);
      const t0 = performance.now();
      let rows: unknown[][];
      try {
        const [r] = await this.c.query<RowDataPacket[][]>({ sql: timed.sql, rowsAsArray: true });
        rows = Array.isArray(r) ? (r as unknown[][]) : [];
      } catch (e) {
        await this.cleanup(after);
        throw e;
      }
      const ms = performance.now() - t0;
      for (const s of after) await this.c.query(s.sql);
      return { rows: rows.length, ms, ...(o.fetch ? { data: rows } : {}) };
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
      const [rows] = await this.c.query<RowDataPacket[]>(this.sql.statement('explain.sql', 'explain').replace('{{sql}}', () => timed.sql));
      return explainText(rows);
    } finally {
      await this.cleanup(after);
    }
  }

  async cancel(): Promise<void> {
    if (!this.busy) return;
    this.killer ??= connect(this.t, this.flavour, { useDatabase: false, role: `sledge-tproch-${this.opts.stream}-cancel` });
    await (await this.killer).query(this.sql.statement('admin.sql', 'kill_query'), [this.id]);
  }

  async newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void> {
    const order = this.sql.statement('refresh.sql', 'rf1_order');
    const line = this.sql.statement('refresh.sql', 'rf1_lineitem');
    await this.trickle(orders, o, async (x) => {
      await this.c.execute(order, x.order);
      for (const l of x.lineitems) await this.c.execute(line, l);
    });
  }

  async oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const lines = this.sql.statement('refresh.sql', 'rf2_lineitem');
    const order = this.sql.statement('refresh.sql', 'rf2_order');
    await this.trickle(orderKeys, o, async (k) => {
      await this.c.execute(lines, [k]);
      await this.c.execute(order, [k]);
    });
  }

  /** Per item: sleep trickleMs, apply it; commit every commitEvery items and at the end. */
  private async trickle<X>(items: readonly X[], o: TprochRefreshOptions, apply: (x: X) => Promise<void>): Promise<void> {
    const every = Math.max(1, o.commitEvery);
    let inTx = 0;
    try {
      for (const x of items) {
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (inTx === 0) await this.c.query(this.sql.statement('refresh.sql', 'begin'));
        await apply(x);
        if (++inTx >= every) {
          await this.c.query(this.sql.statement('refresh.sql', 'commit'));
          inTx = 0;
        }
      }
      if (inTx > 0) await this.c.query(this.sql.statement('refresh.sql', 'commit'));
    } catch (e) {
      if (inTx > 0) await this.c.query(this.sql.statement('refresh.sql', 'rollback')).catch(() => undefined);
      throw e;
    }
  }

  async close(): Promise<void> {
    const k = this.killer;
    this.killer = undefined;
    await Promise.all([this.c.end().catch(() => undefined), k?.then((c) => c.end()).catch(() => undefined)]);
  }
}

export async function openMyTprochStream(t: MyTarget, flavour: Flavour, sql: TprochSqlSet, opts: TprochStreamOptions): Promise<TprochStream> {
  const c = await connect(t, flavour, { useDatabase: true, role: `sledge-tproch-${opts.stream}` });
  try {
    const secs = Math.max(0, opts.queryTimeoutSec);
    // A new session has no limit: the setting is sent only when there is one.
    if (secs === 0) {
      // nothing to set
    } else if (flavour.engine === 'mariadb') await c.query(sql.statement('admin.sql', 'stream_timeout_mariadb'), [secs]);
    else await c.query(sql.statement('admin.sql', 'stream_timeout_mysql'), [secs * 1000]);
    const [rows] = await c.query<RowDataPacket[]>(sql.statement('admin.sql', 'connection_id'));
    return new MyStream(c, Number(rows[0]!.id), t, flavour, sql, opts);
  } catch (e) {
    await c.end().catch(() => undefined);
    throw e;
  }
}
