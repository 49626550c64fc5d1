import type { Logger, TprochGeneratedTable, TprochLoader, Value } from '@sledge/core';
import type { Db2Target, TprochTable } from '@sledge/protocol';
import { Db2Session } from '../engine/connection.js';
import { dbError } from '../engine/errors.js';
import type { Db2Column } from '../engine/rows.js';
import { tprochSchema } from './admin.js';
import { insertStatements, tprochColumns, ROWS_PER_INSERT } from './rows.js';
import { db2TprochSql, type Db2TprochSql } from './sqlfiles.js';

/** The part of a Db2Session the loader uses. */
export type LoaderConn = Pick<Db2Session, 'query' | 'exec' | 'begin' | 'commit' | 'rollback' | 'close'>;

/**
 * A TPROC-H build worker's connection: multi-row INSERTs (500 rows a
 * statement, as the TPROC-C loader), each generated unit in one
 * transaction. Column types come from syscat.columns.
 */
export class Db2TprochLoader implements TprochLoader {
  private readonly meta = new Map<TprochTable, Db2Column[]>();

  constructor(
    private readonly conn: LoaderConn,
    private readonly schema: string,
    private readonly log: Logger,
    private readonly sql: Db2TprochSql = db2TprochSql,
    private readonly perStatement = ROWS_PER_INSERT,
  ) {}

  static async open(t: Db2Target, log: Logger): Promise<Db2TprochLoader> {
    const schema = tprochSchema(t);
    const conn = await Db2Session.open(t);
    try {
      await conn.exec(db2TprochSql.get('admin', 'set_schema', { schema }));
    } catch (e) {
      await conn.close().catch(() => undefined);
      throw dbError(e, `SET SCHEMA ${schema}`);
    }
    return new Db2TprochLoader(conn, schema, log);
  }

  private async columns(table: TprochTable): Promise<Db2Column[]> {
    const known = this.meta.get(table);
    if (known) return known;
    const rows = await this.conn.query(this.sql.get('admin', 'column_types'), [this.schema, table]);
    const infos: Db2Column[] = rows.map((r) => ({ name: String(r['name']), typeName: String(r['type_name']) }));
    if (!infos.length) throw new Error(`table ${this.schema}.${table} does not exist: create the schema first`);
    const cols = tprochColumns(table, infos);
    this.meta.set(table, cols);
    return cols;
  }

  async load(tables: readonly TprochGeneratedTable[]): Promise<void> {
    let current = '';
    try {
      const work: Array<{ table: TprochTable; rows: Value[][]; cols: Db2Column[] }> = [];
      for (const g of tables) {
        current = g.table;
        if (!Array.isArray(g.data)) throw new Error(`the Db2 loader takes 'tuples' rows, got ${typeof g.data} for ${g.table}`);
        if (g.rows > 0 && g.data.length > 0) work.push({ table: g.table, rows: g.data, cols: await this.columns(g.table) });
      }
      if (!work.length) return;
      await this.conn.begin();
      try {
        for (const w of work) {
          current = w.table;
          for (const stmt of insertStatements(w.table, w.cols, w.rows, this.perStatement)) await this.conn.exec(stmt);
        }
        await this.conn.commit();
      } catch (e) {
        await this.conn.rollback().catch(() => undefined);
        throw e;
      }
    } catch (e) {
      this.log(`load into ${current || 'tables'} failed`);
      throw dbError(e, `loading ${current || 'rows'}`);
    }
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}
