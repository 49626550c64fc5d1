import { existsSync, rmSync } from 'node:fs';
import type { AdminSession, BuildOptions, CheckFacts, Counters, DistrictFacts, Logger, SchemaState, WarehouseFacts } from '@sledge/core';
import { TPROCC_ROUTINES } from '@sledge/core';
import { SledgeError, TPROCC_TABLES, type SqliteTarget, type TproccTable } from '@sledge/protocol';
import { ADMIN_TUNING, CREATE_TUNING, companionFiles, isCorrupt, openExisting, openForCreate, resolveFile } from '../engine/connection.js';
import { dbConstructor, type Db } from '../engine/library.js';
import { schemaExistsError } from '../engine/schema-exists.js';
import { namedSql, sqlScript } from './sql.js';

/** Run one of the schema scripts as a single transaction: all of it or none. */
function execScript(db: Db, file: string): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(sqlScript(file));
    db.exec('COMMIT');
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

/**
 * The monitor/admin session: schema lifecycle, counters and checkschema
 * facts. It opens the file lazily and never creates it except in
 * createSchema, so looking at a target leaves no file behind.
 */
class Admin implements AdminSession {
  private db: Db | undefined;
  private readonly file: string;

  constructor(
    private readonly target: SqliteTarget,
    private readonly log: Logger,
  ) {
    this.file = resolveFile(target);
  }

  /** The open connection, or undefined when the file does not exist. */
  private connection(): Db | undefined {
    if (this.db?.open) return this.db;
    this.db = undefined;
    if (!existsSync(this.file)) return undefined;
    this.db = openExisting(this.target, ADMIN_TUNING);
    return this.db;
  }

  private sql() {
    return namedSql('admin.sql');
  }

  private checkSql() {
    return namedSql('check.sql');
  }

  private countersSql() {
    return namedSql('counters.sql');
  }

  private tprocTables(db: Db): Set<string> {
    return new Set(db.prepare<[], string>(this.sql().schema_tproc_tables).pluck().all());
  }

  /** A connection to a file that holds the schema, or SLEDGE_E_SCHEMA_MISSING. */
  private schemaConnection(): Db {
    const db = this.connection();
    if (!db || !this.tprocTables(db).has('warehouse')) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `${this.file} has no TPROC-C schema: build the schema first.`, { field: 'target.file' });
    }
    return db;
  }

  async serverVersion(): Promise<string> {
    // The engine is the linked library: ask an in-memory database, so no file is needed.
    const Database = dbConstructor();
    const mem = new Database(':memory:');
    try {
      return mem.prepare<[], string>(this.sql().server_version).pluck().get() ?? 'unknown';
    } finally {
      mem.close();
    }
  }

  async schemaState(): Promise<SchemaState> {
    const db = this.connection();
    if (!db || !this.tprocTables(db).has('warehouse')) return { exists: false, warehouses: 0 };
    const w = db.prepare<[], number>(this.sql().schema_max_warehouse).pluck().get() ?? 0;
    return { exists: true, warehouses: w };
  }

  /** What createSchema refuses, without creating anything: a file that already holds any TPROC-C table. */
  async assertBuildable(): Promise<void> {
    const existing = this.connection();
    if (!existing) return;
    const present = this.tprocTables(existing);
    if (present.size > 0) throw schemaExistsError(this.file, 'tprocc', existing.prepare<[], string>(this.sql().file_tables).pluck().all());
  }

  async createSchema(_o: BuildOptions): Promise<void> {
    await this.assertBuildable();
    const existing = this.connection();
    const db = existing ?? (this.db = openForCreate(this.target, CREATE_TUNING));
    execScript(db, 'tables.sql');
    this.log(`SQLite ${await this.serverVersion()}: created the TPROC-C tables in ${this.file}`);
  }

  async finishSchema(_o: BuildOptions): Promise<void> {
    const db = this.schemaConnection();
    this.log('Creating indexes');
    execScript(db, 'indexes.sql');
    this.log('Gathering statistics (ANALYZE)');
    db.exec(this.countersSql().analyze);
    db.prepare(this.countersSql().after_run_checkpoint).get();
    this.log('Indexes and statistics done');
  }

  async checkFacts(sample: number[]): Promise<CheckFacts> {
    const facts: CheckFacts = {
      databaseExists: false,
      tables: {},
      maxWarehouse: null,
      indexed: {},
      rowCounts: {},
      routines: {},
      warehouses: [],
    };
    const db = this.connection();
    if (!db) return facts;
    const sql = this.checkSql();
    const present = this.tprocTables(db);
    facts.databaseExists = present.size > 0;
    if (!facts.databaseExists) return facts;
    for (const t of TPROCC_TABLES) facts.tables[t] = present.has(t);
    // The five transactions are prepared statements run by the driver: always present.
    for (const r of TPROCC_ROUTINES) facts.routines[r] = true;
    const indexCount = db.prepare<{ table: string }, number>(sql.check_indexed).pluck();
    for (const t of TPROCC_TABLES) if (present.has(t)) facts.indexed[t] = (indexCount.get({ table: t }) ?? 0) > 0;
    if (present.has('warehouse')) facts.maxWarehouse = db.prepare<[], number>(this.sql().schema_max_warehouse).pluck().get() ?? 0;
    if (present.size < TPROCC_TABLES.length) return facts;

    for (const r of db.prepare<[], { t: TproccTable; n: number }>(sql.check_row_counts).all()) facts.rowCounts[r.t] = r.n;
    const warehouse = db.prepare<{ w_id: number }, { w_ytd: number; sum_d_ytd: number }>(sql.check_warehouse);
    const districts = db.prepare<{ w_id: number }, DistrictFacts>(sql.check_districts);
    for (const w of sample) {
      const row = warehouse.get({ w_id: w });
      if (!row) continue;
      const wf: WarehouseFacts = { w, w_ytd: row.w_ytd, sum_d_ytd: row.sum_d_ytd, districts: districts.all({ w_id: w }) };
      facts.warehouses.push(wf);
    }
    return facts;
  }

  async dropSchema(): Promise<void> {
    let db: Db | undefined;
    try {
      db = this.connection();
    } catch (e) {
      if (!isCorrupt(e)) throw e;
      // A damaged file (disk fault, or power lost under synchronous=OFF
      // during a build) cannot be read table by table: it goes whole.
      this.removeFiles([this.file, ...companionFiles(this.file)]);
      const reason = e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e);
      this.log(`Deleted ${this.file}: the file was damaged (${reason})`);
      return;
    }
    if (!db) {
      this.removeFiles(companionFiles(this.file));
      return;
    }
    const others = db.prepare<[], number>(this.sql().schema_other_objects).pluck().get() ?? 0;
    if (others === 0) {
      // The file holds nothing but the schema: remove it whole (faster than
      // dropping a large schema table by table, and leaves no -wal/-shm).
      db.close();
      this.db = undefined;
      this.removeFiles([this.file, ...companionFiles(this.file)]);
      this.log(`Deleted ${this.file}`);
      return;
    }
    execScript(db, 'drop.sql');
    db.prepare(this.countersSql().after_run_checkpoint).get();
    this.log(`Dropped the TPROC-C tables from ${this.file} (it holds other objects, so the file stays)`);
  }

  private removeFiles(files: string[]): void {
    for (const f of files) {
      try {
        rmSync(f, { force: true });
      } catch (e) {
        throw new SledgeError('SLEDGE_E_CONNECT', `Cannot delete ${f} (${e instanceof Error ? e.message : String(e)}).`, { field: 'target.file', cause: e });
      }
    }
  }

  async readCounters(): Promise<Counters> {
    const db = this.schemaConnection();
    const nopm = db.prepare<[], number>(this.countersSql().counters_nopm).pluck().get() ?? 0;
    return { nopm, tpm: null };
  }

  async afterRun(): Promise<void> {
    const db = this.connection();
    if (!db) return;
    const r = db.prepare<[], { busy: number; log: number; checkpointed: number }>(this.countersSql().after_run_checkpoint).get();
    if (r) this.log(`WAL checkpoint (TRUNCATE): ${r.checkpointed} of ${r.log} pages${r.busy ? ', blocked by another connection' : ''}`);
  }

  async close(): Promise<void> {
    if (this.db?.open) this.db.close();
    this.db = undefined;
  }
}

export function openAdminSession(target: SqliteTarget, log: Logger): AdminSession {
  return new Admin(target, log);
}
