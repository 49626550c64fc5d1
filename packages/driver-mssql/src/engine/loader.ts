import type { GeneratedTable, LoaderSession, Logger, Value } from '@sledge/core';
import type { TproccTarget } from '@sledge/core';
import type { MssqlTarget, TproccTable } from '@sledge/protocol';
import { SqlCatalog } from '@sledge/sql';
import { TdsConnection, type BulkColumn } from './connection.js';
import { dbError } from './errors.js';
import { bulkRows, columnKind, generatedColumns, insertStatements, type ColumnInfo, type ColumnKind } from './rows.js';
import { cleanStatement, fillPlaceholders, identifier } from './sql-text.js';

/** The loader's statements, packages/sql/mssql/engine/loader.sql. */
export const MSSQL_LOADER_SQL = { loader: ['column_types'] } as const;
export type MssqlLoaderSql = SqlCatalog<typeof MSSQL_LOADER_SQL>;
export const mssqlLoaderSql: MssqlLoaderSql = new SqlCatalog('mssql', 'engine', MSSQL_LOADER_SQL, { clean: cleanStatement, fill: fillPlaceholders });

interface TableMeta {
  columns: ColumnInfo[];
  kinds: ColumnKind[];
  bulk: BulkColumn[];
}

/**
 * A build worker's connection. Each generated unit is loaded in one
 * transaction: TDS bulk copy (tedious BulkLoad) when tprocc.schema.useBulk, else
 * multi-row INSERTs of up to 1000 rows. Column types come from sys.columns,
 * so tables.sql stays the only definition of the schema.
 */
export class MssqlLoader implements LoaderSession {
  private readonly meta = new Map<TproccTable, TableMeta>();

  private constructor(
    private readonly t: TproccTarget<MssqlTarget>,
    private readonly conn: TdsConnection,
    private readonly log: Logger,
    private readonly sql: MssqlLoaderSql,
  ) {}

  static async open(t: TproccTarget<MssqlTarget>, log: Logger, sql: MssqlLoaderSql = mssqlLoaderSql): Promise<MssqlLoader> {
    const conn = await TdsConnection.open(t, { database: identifier(t.database, 'target.database'), appName: 'sledge-loader' });
    return new MssqlLoader(t, conn, log, sql);
  }

  private async tableMeta(table: TproccTable): Promise<TableMeta> {
    const known = this.meta.get(table);
    if (known) return known;
    const rows = await this.conn.query(this.sql.get('loader', 'column_types'), [{ name: 'table', type: 'varchar', value: `dbo.${table}`, length: 256 }]);
    const infos: ColumnInfo[] = rows.map((r) => ({
      name: String(r['name']),
      typeName: String(r['type_name']),
      maxLength: Number(r['max_length']),
      precision: Number(r['precision']),
      scale: Number(r['scale']),
      nullable: Boolean(r['is_nullable']),
    }));
    if (!infos.length) throw new Error(`table dbo.${table} does not exist: create the schema first`);
    const columns = generatedColumns(table, infos);
    const kinds = columns.map(columnKind);
    const T = this.conn.types;
    const bulk: BulkColumn[] = columns.map((c, i) => {
      const base = { name: c.name, nullable: c.nullable };
      switch (kinds[i]!) {
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
    const m = { columns, kinds, bulk };
    this.meta.set(table, m);
    return m;
  }

  async load(tables: readonly GeneratedTable[]): Promise<void> {
    let current = '';
    try {
      const work: Array<{ g: GeneratedTable; rows: Value[][]; m: TableMeta }> = [];
      for (const g of tables) {
        current = g.table;
        if (!Array.isArray(g.data)) throw new Error(`the SQL Server loader takes 'tuples' rows, got ${typeof g.data} for ${g.table}`);
        if (g.rows === 0) continue;
        work.push({ g, rows: g.data, m: await this.tableMeta(g.table) });
      }
      if (!work.length) return;
      await this.conn.begin();
      try {
        for (const { g, rows, m } of work) {
          current = g.table;
          if (this.t.useBulk) {
            await this.conn.bulkLoad(`dbo.${g.table}`, m.bulk, bulkRows(rows, m.kinds));
          } else {
            for (const stmt of insertStatements(g.table, m.columns, rows)) await this.conn.exec(stmt);
          }
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
