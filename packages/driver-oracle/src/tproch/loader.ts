import type { Logger, TprochGeneratedTable, TprochLoader, Value } from '@sledge/core';
import type { OracleTarget, TprochTable } from '@sledge/protocol';
import { OraSession } from '../engine/connection.js';
import { dbError } from '../engine/errors.js';
import type { OraBindDef } from '../engine/library.js';
import { ARRAY_DML_ROWS, arrayRows, oraKind, type OraColumn, type OraKind } from '../engine/rows.js';
import { bindDefs, insertSql, tprochColumns } from './columns.js';
import { oracleTprochSql, type OracleTprochSql } from './sqlfiles.js';

/** The part of an OraSession the loader uses. */
export type LoaderConn = Pick<OraSession, 'query' | 'executeMany' | 'commit' | 'rollback' | 'close'> & { lib: { NUMBER: unknown; STRING: unknown } };

interface TableMeta {
  sql: string;
  kinds: OraKind[];
  defs: OraBindDef[];
}

/**
 * A TPROC-H build worker's connection, as the TPROC-H user: array DML
 * (connection.executeMany with explicit bind definitions, up to 5000 rows a
 * round trip, as the TPROC-C loader), one commit per generated unit.
 */
export class OracleTprochLoader implements TprochLoader {
  private readonly meta = new Map<TprochTable, TableMeta>();

  constructor(
    private readonly conn: LoaderConn,
    private readonly log: Logger,
    private readonly sql: OracleTprochSql = oracleTprochSql,
    private readonly batch = ARRAY_DML_ROWS,
  ) {}

  static async open(t: OracleTarget, log: Logger): Promise<OracleTprochLoader> {
    return new OracleTprochLoader(await OraSession.open(t, 'user', 'sledge-tproch-loader'), log);
  }

  private async tableMeta(table: TprochTable): Promise<TableMeta> {
    const known = this.meta.get(table);
    if (known) return known;
    const rows = await this.conn.query(this.sql.get('admin', 'column_types'), { table_name: table });
    const infos: OraColumn[] = rows.map((r) => ({
      name: String(r['name']),
      typeName: String(r['type_name']),
      maxLength: Number(r['max_length']),
      nullable: r['nullable'] === 'Y',
    }));
    if (!infos.length) throw new Error(`table ${table} does not exist: create the schema first`);
    const columns = tprochColumns(table, infos);
    const m: TableMeta = { sql: insertSql(table, columns), kinds: columns.map(oraKind), defs: bindDefs(columns, this.conn.lib) };
    this.meta.set(table, m);
    return m;
  }

  async load(tables: readonly TprochGeneratedTable[]): Promise<void> {
    let current = '';
    try {
      for (const g of tables) {
        current = g.table;
        if (!Array.isArray(g.data)) throw new Error(`the Oracle loader takes 'tuples' rows, got ${typeof g.data} for ${g.table}`);
        if (g.rows === 0 || g.data.length === 0) continue;
        const m = await this.tableMeta(g.table);
        const rows = g.data as Value[][];
        for (let at = 0; at < rows.length; at += this.batch) {
          await this.conn.executeMany(m.sql, arrayRows(rows.slice(at, at + this.batch), m.kinds), m.defs);
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
