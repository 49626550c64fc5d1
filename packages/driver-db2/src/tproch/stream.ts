import type { TprochNewOrder, TprochQueryRun, TprochQueryText, TprochRefreshOptions, TprochStream, TprochStreamOptions } from '@sledge/core';
import type { Db2Target } from '@sledge/protocol';
import { db2ConnectionString } from '../engine/config.js';
import { connectError } from '../engine/errors.js';
import { ibmDb, type IbmDatabase, type IbmParam } from '../engine/library.js';
import { renderPlan } from './rows.js';
import { db2TprochSql, type Db2TprochSql } from './sqlfiles.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** ODBC statement attribute SQL_ATTR_QUERY_TIMEOUT (seconds), as ibm_db's climacros name it. */
export const SQL_ATTR_QUERY_TIMEOUT = 0;
/** ibm_db fetchMode for rows as arrays. */
export const FETCH_ARRAY = 3;

export interface IbmResult {
  fetchAll(option: { fetchMode: number }): Promise<unknown[]>;
  close(): Promise<unknown>;
}

export interface IbmStatement {
  setAttrSync(attr: number, value: number): unknown;
  execute(): Promise<IbmResult | [IbmResult, unknown]>;
  close(): Promise<unknown>;
}

/** The ibm_db Database calls a stream makes (a fake stands in for it in tests). */
export interface StreamDb extends IbmDatabase {
  prepare(sql: string): Promise<IbmStatement>;
}

/** Opens another connection to the same database (the side connection that cancels a stream's statement). */
export type SideOpener = () => Promise<IbmDatabase>;

/** A statement as sent: no trailing comment lines and no trailing ';' or '@' terminator. */
export function sendable(sql: string): string {
  const lines = sql.trim().split(/\r?\n/);
  while (lines.length && (lines[lines.length - 1]!.trim() === '' || lines[lines.length - 1]!.trim().startsWith('--'))) lines.pop();
  return lines.join('\n').trim().replace(/[;@]\s*$/, '').trim();
}

function split(q: TprochQueryText): { before: string[]; timed: string; after: string[] } {
  const at = q.statements.findIndex((s) => s.timed);
  if (at < 0 || q.statements.filter((s) => s.timed).length !== 1) throw new Error(`query ${q.query} must have exactly one timed statement`);
  return {
    before: q.statements.slice(0, at).map((s) => sendable(s.sql)),
    timed: sendable(q.statements[at]!.sql),
    after: q.statements.slice(at + 1).map((s) => sendable(s.sql)),
  };
}

const lower = (r: unknown): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  if (typeof r === 'object' && r !== null) for (const [k, v] of Object.entries(r)) out[k.toLowerCase()] = v;
  return out;
};

async function rowsOf(db: IbmDatabase, sql: string, params: IbmParam[] = []): Promise<Record<string, unknown>[]> {
  const r = await db.query(sql, params);
  return Array.isArray(r) ? r.map(lower) : [];
}

/**
 * One TPROC-H stream on Db2. DOP: SET CURRENT DEGREE 'n'. Timeout: the
 * statement attribute SQL_ATTR_QUERY_TIMEOUT on the prepared timed
 * statement (the CLI cancels it when it expires, SQL0952N). cancel(): ibm_db
 * has no SQLCancel, so a side connection looks up this application's
 * executing activity (MON_GET_ACTIVITY) and cancels it with
 * WLM_CANCEL_ACTIVITY (needs WLMADM or DBADM; the statement ends with
 * SQL4725N). EXPLAIN: EXPLAIN PLAN into the explain tables, read back and
 * printed as a tree (no db2exfmt).
 */
export class Db2TprochStream implements TprochStream {
  private side: Promise<IbmDatabase> | undefined;

  constructor(
    private readonly db: StreamDb,
    private readonly handle: number,
    private readonly o: { stream: number; queryTimeoutSec: number },
    private readonly openSide: SideOpener,
    private readonly sql: Db2TprochSql = db2TprochSql,
  ) {}

  /** Session setup on an open connection: degree of parallelism, then the application handle. */
  static async init(db: StreamDb, o: TprochStreamOptions, openSide: SideOpener, sql: Db2TprochSql = db2TprochSql): Promise<Db2TprochStream> {
    await db.query(sql.get('admin', 'stream_degree', { dop: Math.max(1, Math.trunc(o.dop)) }));
    const rows = await rowsOf(db, sql.get('admin', 'application_handle'));
    return new Db2TprochStream(db, Number(rows[0]?.['handle'] ?? 0), { stream: o.stream, queryTimeoutSec: o.queryTimeoutSec }, openSide, sql);
  }

  static async open(t: Db2Target, o: TprochStreamOptions): Promise<Db2TprochStream> {
    const lib = ibmDb();
    const connect = async () => {
      try {
        return await lib.open(db2ConnectionString(t));
      } catch (e) {
        throw connectError(e, t);
      }
    };
    const db = (await connect()) as StreamDb;
    try {
      return await Db2TprochStream.init(db, o, connect);
    } catch (e) {
      await db.close().catch(() => undefined);
      throw e;
    }
  }

  /** Run the timed statement prepared, with the query timeout, fetching rows as arrays. */
  private async timed(sql: string): Promise<unknown[][]> {
    const stmt = await this.db.prepare(sql);
    try {
      if (this.o.queryTimeoutSec > 0) stmt.setAttrSync(SQL_ATTR_QUERY_TIMEOUT, this.o.queryTimeoutSec);
      const executed = await stmt.execute();
      const result = Array.isArray(executed) ? executed[0] : executed;
      try {
        return (await result.fetchAll({ fetchMode: FETCH_ARRAY })) as unknown[][];
      } finally {
        await result.close().catch(() => undefined);
      }
    } finally {
      await stmt.close().catch(() => undefined);
    }
  }

  async query(q: TprochQueryText, o: { fetch?: boolean } = {}): Promise<TprochQueryRun> {
    const { before, timed, after } = split(q);
    for (const s of before) await this.db.query(s);
    try {
      const t0 = performance.now();
      const rows = await this.timed(timed);
      const ms = performance.now() - t0;
      return { rows: rows.length, ms, ...(o.fetch ? { data: rows } : {}) };
    } finally {
      for (const s of after) await this.db.query(s);
    }
  }

  async explain(q: TprochQueryText): Promise<string> {
    const { before, timed, after } = split(q);
    const queryno = this.o.stream * 100 + q.query;
    const exists = await rowsOf(this.db, this.sql.get('explain', 'explain_tables_exist'));
    if (Number(exists[0]?.['n'] ?? 0) === 0) await this.db.query(this.sql.get('explain', 'create_explain_tables'));
    for (const s of before) await this.db.query(s);
    try {
      const text = this.sql.get('explain', 'explain').replace('{{queryno}}', String(queryno)).replace('{{sql}}', () => timed);
      await this.db.query(text);
      const inst = await rowsOf(this.db, this.sql.get('explain', 'latest_instance'), [queryno]);
      const when = inst[0]?.['explain_time'];
      if (when === undefined || when === null) return '';
      const ops = await rowsOf(this.db, this.sql.get('explain', 'operators'), [when as string]);
      const streams = await rowsOf(this.db, this.sql.get('explain', 'streams'), [when as string]);
      await this.db.query(this.sql.get('explain', 'clear'), [when as string]);
      return renderPlan(
        ops.map((r) => ({ id: Number(r['id']), type: String(r['type']), cost: Number(r['cost']) })),
        streams.map((r) => ({
          sourceType: String(r['source_type']).trim(),
          sourceId: Number(r['source_id']),
          targetId: Number(r['target_id']),
          rows: Number(r['row_count']),
          objectName: r['object_name'] === null || r['object_name'] === undefined ? null : String(r['object_name']),
        })),
      );
    } finally {
      for (const s of after) await this.db.query(s);
    }
  }

  async cancel(): Promise<void> {
    if (!this.side) {
      this.side = this.openSide();
      this.side.catch(() => (this.side = undefined));
    }
    const side = await this.side;
    const act = await rowsOf(side, this.sql.get('admin', 'executing_activity'), [this.handle]);
    if (!act[0]) return;
    await side.query(this.sql.get('admin', 'cancel_activity'), [this.handle, Number(act[0]['uow_id']), Number(act[0]['activity_id'])]);
  }

  private async refresh<T>(items: readonly T[], o: TprochRefreshOptions, apply: (item: T) => Promise<void>): Promise<void> {
    let open = 0;
    try {
      for (const item of items) {
        // stopped() is asked once per order, before its trickle sleep.
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (open === 0) await this.db.beginTransaction();
        open++;
        await apply(item);
        if (open >= Math.max(1, o.commitEvery)) {
          await this.db.commitTransaction();
          open = 0;
        }
      }
      if (open > 0) await this.db.commitTransaction();
    } catch (e) {
      if (open > 0) await this.db.rollbackTransaction().catch(() => undefined);
      throw e;
    }
  }

  newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void> {
    const insertOrder = this.sql.get('refresh', 'insert_order');
    const insertLine = this.sql.get('refresh', 'insert_lineitem');
    return this.refresh(orders, o, async (ord) => {
      await this.db.query(insertOrder, ord.order.slice() as IbmParam[]);
      for (const li of ord.lineitems) await this.db.query(insertLine, li.slice() as IbmParam[]);
    });
  }

  oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const delLines = this.sql.get('refresh', 'delete_lineitem');
    const delOrder = this.sql.get('refresh', 'delete_order');
    return this.refresh(orderKeys, o, async (key) => {
      await this.db.query(delLines, [key]);
      await this.db.query(delOrder, [key]);
    });
  }

  async close(): Promise<void> {
    const side = this.side;
    this.side = undefined;
    await side?.then((s) => (s.connected ? s.close() : undefined)).catch(() => undefined);
    if (this.db.connected) await this.db.close();
  }
}
