import type { AdminSession, BuildOptions, CheckFacts, Counters, DistrictFacts, Logger, SchemaState } from '@sledge/core';
import { TPROCC_TABLES, type DuckdbTarget, type TproccTable } from '@sledge/protocol';
import { FileAdmin, type FileSchema } from '../engine/file-admin.js';
import { tproccScript, tproccSql } from './sql.js';

/** TPROC-C's schema in a DuckDB file: the marker table, the staged tables, its SQL. */
const SCHEMA: FileSchema = {
  workload: 'tprocc',
  display: 'TPROC-C',
  marker: 'warehouse',
  tables: TPROCC_TABLES,
  delimiter: ',',
  sql: () => tproccSql('admin.sql'),
  script: tproccScript,
};

/**
 * TPROC-C's admin session on a DuckDB file or the thread's in-memory
 * database (the file's lifecycle, the staged COPY and the scripts are
 * engine/file-admin.ts's). It builds, checks and deletes the schema; DuckDB
 * runs no TPROC-C transactions (hooks.ts noTransactions), so readCounters
 * reads a NOPM counter no VU moves and afterRun has nothing to do.
 */
class Admin extends FileAdmin implements AdminSession {
  constructor(target: DuckdbTarget, log: Logger) {
    super(target, log, SCHEMA);
  }

  async schemaState(): Promise<SchemaState> {
    const h = await this.connection();
    if (!h || !(await this.hasSchema(h))) return { exists: false, warehouses: 0 };
    return { exists: true, warehouses: Number((await this.column(h, tproccSql('admin.sql').schema_max_warehouse))[0] ?? 0) };
  }

  async createSchema(o: BuildOptions): Promise<void> {
    await this.createTables(`${o.warehouses} warehouses`);
  }

  async finishSchema(_o: BuildOptions): Promise<void> {
    await this.finishStaged('primary keys and indexes');
  }

  async checkFacts(sample: number[]): Promise<CheckFacts> {
    // No routines: DuckDB runs no TPROC-C transactions (core's check says so).
    const facts: CheckFacts = { databaseExists: false, tables: {}, maxWarehouse: null, indexed: {}, rowCounts: {}, routines: {}, warehouses: [] };
    const h = await this.connection();
    if (!h) return facts;
    const sql = tproccSql('admin.sql');
    const present = await this.tables(h);
    facts.databaseExists = present.size > 0;
    if (!facts.databaseExists) return facts;
    for (const t of TPROCC_TABLES) facts.tables[t] = present.has(t);
    const indexed = new Set((await this.column(h, sql.check_indexed)).map(String));
    for (const t of TPROCC_TABLES) if (present.has(t)) facts.indexed[t] = indexed.has(t);
    if (present.has('warehouse')) facts.maxWarehouse = Number((await this.column(h, sql.schema_max_warehouse))[0] ?? 0);
    if (present.size < TPROCC_TABLES.length) return facts;
    for (const [t, n] of await this.rows(h, sql.check_row_counts)) facts.rowCounts[String(t) as TproccTable] = Number(n);
    for (const w of sample) {
      const row = (await this.rows(h, sql.check_warehouse, [w]))[0];
      if (!row) continue;
      const districts = (await this.rows(h, sql.check_districts, [w])).map(
        ([d, next_o_id, max_o_id, no_count, no_min, no_max, sum_ol_cnt, ol_count]): DistrictFacts => ({
          d: Number(d),
          next_o_id: Number(next_o_id),
          max_o_id: Number(max_o_id),
          no_count: Number(no_count),
          no_min: Number(no_min),
          no_max: Number(no_max),
          sum_ol_cnt: Number(sum_ol_cnt),
          ol_count: Number(ol_count),
        }),
      );
      facts.warehouses.push({ w, w_ytd: Number(row[0]), sum_d_ytd: Number(row[1]), districts });
    }
    return facts;
  }

  async readCounters(): Promise<Counters> {
    const h = await this.schemaConnection();
    return { nopm: Number((await this.column(h, tproccSql('admin.sql').counters_nopm))[0] ?? 0), tpm: null };
  }

  async afterRun(): Promise<void> {}
}

export function openTproccAdmin(target: DuckdbTarget, log: Logger): AdminSession {
  return new Admin(target, log);
}
