import type { GeneratedTable, LoaderSession, Logger, Value } from '@sledge/core';
import type { Db2Target, TproccTable } from '@sledge/protocol';
import { SqlCatalog } from '@sledge/sql';
import { Db2Session } from './connection.js';
import { dbError } from './errors.js';
import { generatedColumns, insertStatements, type Db2Column } from './rows.js';
import { cleanStatement, fillPlaceholders } from './sql-text.js';

/** The loader's statements, packages/sql/db2/engine/loader.sql. */
export const DB2_LOADER_SQL = { loader: ['column_types'] } as const;
export type Db2LoaderSql = SqlCatalog<typeof DB2_LOADER_SQL>;
export const db2LoaderSql: Db2LoaderSql = new SqlCatalog('db2', 'engine', DB2_LOADER_SQL, { clean: cleanStatement, fill: fillPlaceholders });

/**
 * A build worker's connection. Each generated unit is inserted with
 * multi-row INSERTs (500 rows a statement) in one transaction. Column types
 * come from syscat.columns, so tables.sql stays the only schema definition.
 */
export class Db2Loader implements LoaderSession {
  private readonly meta = new Map<TproccTable, Db2Column[]>();

  private constructor(
    private readonly conn: Db2Session,
    private readonly log: Logger,
    private readonly sql: Db2LoaderSql,
  ) {}

  static async open(t: Db2Target, log: Logger, sql: Db2LoaderSql = db2LoaderSql): Promise<Db2Loader> {
    return new Db2Loader(await Db2Session.open(t), log, sql);
  }

  private async columns(table: TproccTable): Promise<Db2Column[]> {
    const known = this.meta.get(table);
    if (known) return known;
    const rows = await this.conn.query(this.sql.get('loader', 'column_types'), [table]);
    const infos: Db2Column[] = rows.map((r) => ({ name: String(r['name']), typeName: String(r['type_name']) }));
    if (!infos.length) throw new Error(`table ${table} does not exist: create the schema first`);
    const cols = generatedColumns(table, infos);
    this.meta.set(table, cols);
    return cols;
  }

  async load(tables: readonly GeneratedTable[]): Promise<void> {
    let current = '';
    try {
      const work: Array<{ table: TproccTable; rows: Value[][]; cols: Db2Column[] }> = [];
      for (const g of tables) {
        current = g.table;
        if (!Array.isArray(g.data)) throw new Error(`the Db2 loader takes 'tuples' rows, got ${typeof g.data} for ${g.table}`);
        if (g.rows > 0) work.push({ table: g.table, rows: g.data, cols: await this.columns(g.table) });
      }
      if (!work.length) return;
      await this.conn.begin();
      try {
        for (const w of work) {
          current = w.table;
          for (const stmt of insertStatements(w.table, w.cols, w.rows)) await this.conn.exec(stmt);
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
