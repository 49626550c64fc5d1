import { existsSync, rmSync } from 'node:fs';
import { splitSqlScript, type AdminSession, type BuildOptions, type CheckFacts, type Counters, type DistrictFacts, type Logger, type SchemaState } from '@sledge/core';
import { SledgeError, TPROCC_TABLES, type DuckdbTarget, type TproccTable } from '@sledge/protocol';
import { companionFiles, connect, isOpenHere, MEMORY, resolveFile, type Handle } from '../engine/connection.js';
import { api } from '../engine/library.js';
import { copyStatement, removeStaging, stagedFiles, stagingDir } from '../engine/loader.js';
import { schemaExistsError } from '../engine/schema-exists.js';
import { jsValue } from '../engine/values.js';
import { tproccScript, tproccSql, type TproccScript } from './sql.js';

type Param = string | number;

/**
 * TPROC-C's admin session on a DuckDB file (target.file is the database:
 * createSchema creates it, dropSchema deletes it when it holds nothing
 * else), or on the thread's in-memory database (':memory:'). It builds,
 * checks and deletes the schema; DuckDB runs no TPROC-C transactions
 * (hooks.ts noTransactions), so readCounters reads a NOPM counter no VU
 * moves and afterRun has nothing to do. The file is opened lazily and never
 * created outside createSchema.
 */
class Admin implements AdminSession {
  private handle: Handle | undefined;
  private readonly file: string;

  constructor(
    private readonly target: DuckdbTarget,
    private readonly log: Logger,
  ) {
    this.file = resolveFile(target);
  }

  private async connection(mode: 'create' | 'existing' = 'existing'): Promise<Handle | undefined> {
    if (this.handle) return this.handle;
    if (mode === 'existing' && this.file !== MEMORY && !existsSync(this.file)) return undefined;
    this.handle = await connect(this.target, mode);
    return this.handle;
  }

  private async rows(h: Handle, text: string, params: Param[] = []): Promise<unknown[][]> {
    const reader = params.length ? await h.conn.runAndReadAll(text, params) : await h.conn.runAndReadAll(text);
    return reader.getRows().map((r) => r.map(jsValue));
  }

  private async column(h: Handle, text: string): Promise<unknown[]> {
    return (await this.rows(h, text)).map((r) => r[0]);
  }

  private async tables(h: Handle): Promise<Set<string>> {
    return new Set((await this.column(h, tproccSql('admin.sql').schema_tables)).map(String));
  }

  private async schemaConnection(): Promise<Handle> {
    const h = await this.connection();
    if (!h || !(await this.tables(h)).has('warehouse')) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `${this.file} has no TPROC-C schema: build the schema first.`, { field: 'target.file' });
    }
    return h;
  }

  /** A script's statements, one by one, in one transaction (all or none) unless it checkpoints. */
  private async runScript(h: Handle, file: TproccScript): Promise<void> {
    const statements = splitSqlScript(tproccScript(file));
    const atomic = !statements.some((s) => /^\s*CHECKPOINT\b/i.test(s));
    if (atomic) await h.conn.run('BEGIN TRANSACTION');
    try {
      for (const s of statements) await h.conn.run(s);
      if (atomic) await h.conn.run('COMMIT');
    } catch (e) {
      if (atomic) await h.conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  async serverVersion(): Promise<string> {
    const h = await this.connection();
    const v = h ? String((await this.column(h, tproccSql('admin.sql').server_version))[0]) : api().version();
    return v.replace(/^v/, '');
  }

  async schemaState(): Promise<SchemaState> {
    const h = await this.connection();
    if (!h || !(await this.tables(h)).has('warehouse')) return { exists: false, warehouses: 0 };
    return { exists: true, warehouses: Number((await this.column(h, tproccSql('admin.sql').schema_max_warehouse))[0] ?? 0) };
  }

  async assertBuildable(): Promise<void> {
    const h = await this.connection();
    if (!h) return;
    if ((await this.tables(h)).size > 0) {
      throw schemaExistsError(this.file, 'tprocc', (await this.column(h, tproccSql('admin.sql').file_tables)).map(String));
    }
  }

  async createSchema(o: BuildOptions): Promise<void> {
    await this.assertBuildable();
    const h = (await this.connection('create'))!;
    // Rows a stopped build staged are not this build's.
    removeStaging(stagingDir(this.target));
    await this.runScript(h, 'tables.sql');
    this.log(`DuckDB ${await this.serverVersion()}: created the TPROC-C tables (${o.warehouses} warehouses) in ${this.file}`);
  }

  async finishSchema(_o: BuildOptions): Promise<void> {
    const h = await this.schemaConnection();
    const dir = stagingDir(this.target);
    this.log(`Loading the staged rows from ${dir} (COPY)`);
    await h.conn.run('BEGIN TRANSACTION');
    try {
      for (const t of TPROCC_TABLES) if (stagedFiles(dir, t).length > 0) await h.conn.run(copyStatement(dir, t, ','));
      await h.conn.run('COMMIT');
    } catch (e) {
      await h.conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
    removeStaging(dir);
    this.log('Creating primary keys and indexes');
    await this.runScript(h, 'keys.sql');
    this.log('Gathering statistics (ANALYZE) and checkpointing');
    await this.runScript(h, 'statistics.sql');
    this.log('Keys and statistics done');
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

  async dropSchema(): Promise<void> {
    removeStaging(stagingDir(this.target));
    const h = await this.connection();
    if (!h) {
      this.removeFiles(companionFiles(this.file));
      return;
    }
    const others = Number((await this.column(h, tproccSql('admin.sql').schema_other_objects))[0] ?? 0);
    this.handle = undefined;
    h.release();
    // Another session of this thread still has the database open: drop the tables, keep the file.
    if (others === 0 && this.file !== MEMORY && !isOpenHere(this.file)) {
      this.removeFiles([this.file, ...companionFiles(this.file)]);
      this.log(`Deleted ${this.file}`);
      return;
    }
    const again = (await this.connection())!;
    await this.runScript(again, 'drop.sql');
    this.log(`Dropped the TPROC-C tables from ${this.file}${others > 0 ? ' (it holds other objects, so the file stays)' : ''}`);
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

  async close(): Promise<void> {
    this.handle?.release();
    this.handle = undefined;
  }
}

export function openTproccAdmin(target: DuckdbTarget, log: Logger): AdminSession {
  return new Admin(target, log);
}
