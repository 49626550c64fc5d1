import type { Db2Target } from '@sledge/protocol';
import { db2ConnectionString } from './config.js';
import { connectError } from './errors.js';
import { ibmDb, type IbmDatabase, type IbmParam } from './library.js';

export type Row = Record<string, unknown>;

/** One ibm_db connection (autocommit on unless inside begin/commit), rows keyed by lower-case column name. */
export class Db2Session {
  private constructor(private readonly db: IbmDatabase) {}

  /** Connect; failures become SledgeErrors naming the field. Throws SLEDGE_E_DRIVER_UNAVAILABLE when ibm_db does not load. */
  static async open(t: Db2Target): Promise<Db2Session> {
    const lib = ibmDb();
    try {
      return new Db2Session(await lib.open(db2ConnectionString(t)));
    } catch (e) {
      throw connectError(e, t);
    }
  }

  /** Run a statement; a query resolves with its rows, a CALL with its OUT values in order. */
  async query(sql: string, params: IbmParam[] = []): Promise<Row[]> {
    const r = await this.db.query(sql, params);
    if (!Array.isArray(r)) return [];
    return r.map((row: unknown) => {
      if (typeof row !== 'object' || row === null || Array.isArray(row)) return { value: row };
      const out: Row = {};
      for (const [k, v] of Object.entries(row as Record<string, unknown>)) out[k.toLowerCase()] = v;
      return out;
    });
  }

  /** CALL with OUT parameters: ibm_db resolves with [out1, out2, ...] (result sets follow). */
  async call(sql: string, params: IbmParam[]): Promise<unknown[]> {
    const r = await this.db.query(sql, params);
    return Array.isArray(r) ? r : [];
  }

  async exec(sql: string): Promise<void> {
    await this.db.query(sql);
  }

  begin(): Promise<unknown> {
    return this.db.beginTransaction();
  }

  commit(): Promise<unknown> {
    return this.db.commitTransaction();
  }

  rollback(): Promise<unknown> {
    return this.db.rollbackTransaction();
  }

  async close(): Promise<void> {
    if (this.db.connected) await this.db.close();
  }
}
