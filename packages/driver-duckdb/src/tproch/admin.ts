import type { Logger, TprochAdmin, TprochBuildOptions, TprochSchemaState } from '@sledge/core';
import { TPROCH_TABLES, type DuckdbTarget, type TprochTable } from '@sledge/protocol';
import { FileAdmin, type FileSchema } from '../engine/file-admin.js';
import { tprochScript, tprochSql } from './sql.js';

/** TPROC-H's schema in a DuckDB file: the marker table, the staged tables ('|'-separated, dbgen's form), its SQL. */
const SCHEMA: FileSchema = {
  workload: 'tproch',
  display: 'TPROC-H',
  marker: 'supplier',
  tables: TPROCH_TABLES,
  delimiter: '|',
  sql: () => tprochSql('admin.sql'),
  script: tprochScript,
};

/**
 * TPROC-H's admin session on a DuckDB file or the thread's in-memory
 * database (the file's lifecycle, the staged COPY and the scripts are
 * engine/file-admin.ts's): the scale factor and the row counts.
 */
class Admin extends FileAdmin implements TprochAdmin {
  constructor(target: DuckdbTarget, log: Logger) {
    super(target, log, SCHEMA);
  }

  async schemaState(): Promise<TprochSchemaState> {
    const h = await this.connection();
    if (!h || !(await this.hasSchema(h))) return { exists: false, scaleFactor: 0 };
    const n = Number((await this.column(h, tprochSql('admin.sql').schema_suppliers))[0] ?? 0);
    return { exists: true, scaleFactor: n / 10000 };
  }

  async createSchema(o: TprochBuildOptions): Promise<void> {
    await this.createTables(`SF ${o.scaleFactor}`);
  }

  async finishSchema(_o: TprochBuildOptions, step?: (what: string) => void): Promise<void> {
    await this.finishStaged('primary keys and foreign key indexes', step);
  }

  async rowCounts(): Promise<Record<TprochTable, number>> {
    const h = await this.schemaConnection();
    const out = Object.fromEntries(TPROCH_TABLES.map((t) => [t, 0])) as Record<TprochTable, number>;
    for (const [t, n] of await this.rows(h, tprochSql('admin.sql').row_counts)) out[String(t) as TprochTable] = Number(n);
    return out;
  }
}

export function openTprochAdmin(target: DuckdbTarget, log: Logger): TprochAdmin {
  return new Admin(target, log);
}
