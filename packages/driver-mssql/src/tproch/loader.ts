import type { Logger, TprochGeneratedTable, TprochLoader, Value } from '@sledge/core';
import type { MssqlTarget, TprochTable } from '@sledge/protocol';
import { TdsConnection, type BulkColumn } from '../engine/connection.js';
import { dbError } from '../engine/errors.js';
import { bulkRows, columnKind, type ColumnInfo, type ColumnKind } from '../engine/rows.js';
import { identifier } from '../engine/sql-text.js';
import { tprochColumns } from './columns.js';
import { mssqlTprochSql, type MssqlTprochSql } from './sqlfiles.js';

/** The part of a tedious connection the loader uses. */
export type LoaderConn = Pick<TdsConnection, 'query' | 'bulkLoad' | 'begin' | 'commit' | 'rollback' | 'close' | 'types'>;

interface TableMeta {
  kinds: ColumnKind[];
  bulk: BulkColumn[];
}

/** TDS bulk-copy column definitions for columns as sys.columns describes them. */
export function bulkColumns(columns: readonly ColumnInfo[], T: TdsConnection['types']): BulkColumn[] {
  return columns.map((c) => {
    const base = { name: c.name, nullable: c.nullable };
    switch (columnKind(c)) {
      case 'tinyint':
        return { ...base, type: T.TinyInt };
      case 'smallint':
        return { ...base, type: T.SmallInt };
      case 'int':
        return { ...base, type: T.Int };
      case 'bigint':
        return { ...base, type: T.BigInt };
      case 'decimal':
        return { ...base, type: T.Decimal, precision: c.precision, scale: c.scale };
      case 'char':
        return { ...base, type: T.Char, length: c.maxLength };
      case 'varchar':
        return { ...base, type: T.VarChar, length: c.maxLength };
      case 'datetime':
        return { ...base, type: T.DateTime };
      case 'datetime2':
        return { ...base, type: T.DateTime2, scale: c.scale };
      case 'date':
        return { ...base, type: T.Date };
    }
  });
}

/**
 * A TPROC-H build worker's connection: each generated unit goes in with TDS
 * bulk copy (tedious BulkLoad, as the TPROC-C loader), all its tables in one
 * transaction. Column types come from sys.columns (tables.sql is the only
 * schema definition).
 */
export class MssqlTprochLoader implements TprochLoader {
  private readonly meta = new Map<TprochTable, TableMeta>();

  constructor(
    private readonly conn: LoaderConn,
    private readonly log: Logger,
    private readonly sql: MssqlTprochSql = mssqlTprochSql,
  ) {}

  static async open(t: MssqlTarget, log: Logger): Promise<MssqlTprochLoader> {
    const conn = await TdsConnection.open(t, { database: identifier(t.database, 'target.database'), appName: 'sledge-tproch-loader' });
    return new MssqlTprochLoader(conn, log);
  }

  private async tableMeta(table: TprochTable): Promise<TableMeta> {
    const known = this.meta.get(table);
    if (known) return known;
    const rows = await this.conn.query(this.sql.get('admin', 'column_types'), [{ name: 'table', type: 'varchar', value: `dbo.${table}`, length: 256 }]);
    const infos: ColumnInfo[] = rows.map((r) => ({
      name: String(r['name']),
      typeName: String(r['type_name']),
      maxLength: Number(r['max_length']),
      precision: Number(r['precision']),
      scale: Number(r['scale']),
      nullable: Boolean(r['is_nullable']),
    }));
    if (!infos.length) throw new Error(`table dbo.${table} does not exist: create the schema first`);
    const columns = tprochColumns(table, infos);
    const m = { kinds: columns.map(columnKind), bulk: bulkColumns(columns, this.conn.types) };
    this.meta.set(table, m);
    return m;
  }

  async load(tables: readonly TprochGeneratedTable[]): Promise<void> {
    let current = '';
    try {
      const work: Array<{ table: TprochTable; rows: Value[][]; m: TableMeta }> = [];
      for (const g of tables) {
        current = g.table;
        if (!Array.isArray(g.data)) throw new Error(`the SQL Server loader takes 'tuples' rows, got ${typeof g.data} for ${g.table}`);
        if (g.rows === 0 || g.data.length === 0) continue;
        work.push({ table: g.table, rows: g.data, m: await this.tableMeta(g.table) });
      }
      if (!work.length) return;
      await this.conn.begin();
      try {
        for (const w of work) {
          current = w.table;
          await this.conn.bulkLoad(`dbo.${w.table}`, w.m.bulk, bulkRows(w.rows, w.m.kinds));
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
