import type { GeneratedTable, LoaderSession, Logger, Value } from '@sledge/core';
import type { OracleTarget, TproccTable } from '@sledge/protocol';
import { OraSession } from './connection.js';
import { dbError } from './errors.js';
import type { OraBindDef } from './library.js';
import { ARRAY_DML_ROWS, arrayRows, bindDefs, generatedColumns, insertSql, oraKind, type OraColumn, type OraKind } from './rows.js';
import { oracleSessionSql, type OracleSessionSql } from './query-session.js';

interface TableMeta {
  sql: string;
  kinds: OraKind[];
  defs: OraBindDef[];
}

/**
 * A build worker's connection, as the TPROC-C user. Each generated unit is
 * inserted with array DML (connection.executeMany, explicit bind
 * definitions, up to 5000 rows a round trip) and committed once.
 */
export class OracleLoader implements LoaderSession {
  private readonly meta = new Map<TproccTable, TableMeta>();

  private constructor(
    private readonly conn: OraSession,
    private readonly log: Logger,
    private readonly sql: OracleSessionSql,
  ) {}

  static async open(t: OracleTarget, log: Logger, sql: OracleSessionSql = oracleSessionSql): Promise<OracleLoader> {
    return new OracleLoader(await OraSession.open(t, 'user', 'sledge-loader'), log, sql);
  }

  private async tableMeta(table: TproccTable): Promise<TableMeta> {
    const known = this.meta.get(table);
    if (known) return known;
    const rows = await this.conn.query(this.sql.get('session', 'column_types'), { table_name: table });
    const infos: OraColumn[] = rows.map((r) => ({
      name: String(r['name']),
      typeName: String(r['type_name']),
      maxLength: Number(r['max_length']),
      nullable: r['nullable'] === 'Y',
    }));
    if (!infos.length) throw new Error(`table ${table} does not exist: create the schema first`);
    const columns = generatedColumns(table, infos);
    const m: TableMeta = { sql: insertSql(table, columns), kinds: columns.map(oraKind), defs: bindDefs(columns, this.conn.lib) };
    this.meta.set(table, m);
    return m;
  }

  async load(tables: readonly GeneratedTable[]): Promise<void> {
    let current = '';
    try {
      for (const g of tables) {
        current = g.table;
        if (!Array.isArray(g.data)) throw new Error(`the Oracle loader takes 'tuples' rows, got ${typeof g.data} for ${g.table}`);
        if (g.rows === 0) continue;
        const m = await this.tableMeta(g.table);
        const rows = g.data as Value[][];
        for (let at = 0; at < rows.length; at += ARRAY_DML_ROWS) {
          await this.conn.executeMany(m.sql, arrayRows(rows.slice(at, at + ARRAY_DML_ROWS), m.kinds), m.defs);
        }
      }
      await this.conn.commit();
    } catch (e) {
      await this.conn.rollback().catch(() => undefined);
      this.log(`load into ${current || 'tables'} failed`);
      throw dbError(e, `loading ${current || 'rows'}`);
    }
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}
