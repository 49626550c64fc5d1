import type { Connection, RowDataPacket } from 'mysql2/promise';
import { TPROCC_TABLES } from '@sledge/protocol';
import { keySessions, type AdminSession, type BuildOptions, type CheckFacts, type Counters, type Logger, type SchemaState } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { gatherCheckFacts } from './check.js';
import { connect } from '../engine/connect.js';
import { ER, connectError, errnoOf, messageOf } from '../engine/errors.js';
import type { Flavour, MyTproccTarget } from '../engine/flavour.js';
import { PURGE_BOUND_MS, historyLength, purgeHistory } from './purge.js';
import { dropStatements, indexStatements, procedureStatements, storageEngine, tableStatements } from './schema.js';
import { quoteIdent } from '../engine/sql-text.js';
import type { SqlFile, SqlSet } from './sqlfiles.js';

/**
 * The monitor's session. It connects lazily without a default database
 * (the database may not exist yet) and selects target.database with USE
 * when an operation needs it.
 */
export class MyAdmin implements AdminSession {
  private pending: Promise<Connection> | undefined;
  /** createSchema created target.database in this session (a failed build drops it: discardCreated). */
  private createdDatabase = false;

  constructor(
    private readonly t: MyTproccTarget,
    private readonly flavour: Flavour,
    private readonly sql: SqlSet,
    private readonly log: Logger,
    private readonly purgeBoundMs: number = PURGE_BOUND_MS,
  ) {}

  private conn(): Promise<Connection> {
    this.pending ??= connect(this.t, this.flavour, { useDatabase: false, role: 'admin' }).catch((e: unknown) => {
      this.pending = undefined;
      throw e;
    });
    return this.pending;
  }

  /** Wrap a database failure: user-fixable ones keep their code, the rest is SLEDGE_E_DB. */
  private fail(e: unknown, doing: string): SledgeError {
    const known = connectError(e, this.t, this.flavour.display);
    if (known) return known;
    return new SledgeError('SLEDGE_E_DB', `${this.flavour.display} failed while ${doing}: ${messageOf(e)}`, { cause: e });
  }

  private async guard<R>(doing: string, f: () => Promise<R>): Promise<R> {
    try {
      return await f();
    } catch (e) {
      throw this.fail(e, doing);
    }
  }

  private async run(sqlText: string, params?: unknown[]): Promise<void> {
    const c = await this.conn();
    await c.query(sqlText, params);
  }

  private async rowsOf(file: SqlFile, name: string, params?: unknown[]): Promise<RowDataPacket[]> {
    const c = await this.conn();
    const [rows] = await c.query<RowDataPacket[]>(this.sql.statement(file, name), params);
    return rows;
  }

  /** Rows of a named admin.sql statement. */
  private rows(name: string, params?: unknown[]): Promise<RowDataPacket[]> {
    return this.rowsOf('admin.sql', name, params);
  }

  private get dbValues(): Record<string, string> {
    return { database: quoteIdent(this.t.database) };
  }

  /**
   * USE target.database; false when it does not exist (ER_BAD_DB_ERROR).
   * Issued every time (admin calls are rare), so a database dropped by
   * someone else is noticed.
   */
  private async select(): Promise<boolean> {
    try {
      await this.run(this.sql.statement('admin.sql', 'use_database', this.dbValues));
      return true;
    } catch (e) {
      if (errnoOf(e) === ER.BAD_DB) return false;
      throw e;
    }
  }

  private async requireDb(): Promise<void> {
    if (!(await this.select()))
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `${this.flavour.display} database '${this.t.database}' does not exist: build the schema first.`, {
        field: 'target.database',
      });
  }

  private async tableNames(): Promise<string[]> {
    return (await this.rows('tables', [this.t.database])).map((r) => String(r.name));
  }

  serverVersion(): Promise<string> {
    return this.guard('reading the server version', async () => {
      const v = String((await this.rows('version'))[0]?.version ?? '');
      return v.split('-')[0] ?? v;
    });
  }

  schemaState(): Promise<SchemaState> {
    return this.guard('reading the schema state', async () => {
      if (!(await this.select())) return { exists: false, warehouses: 0 };
      if (!(await this.tableNames()).includes('warehouse')) return { exists: false, warehouses: 0 };
      return { exists: true, warehouses: Number((await this.rows('max_warehouse'))[0]?.w ?? 0) };
    });
  }

  /** What createSchema refuses, checked without changing anything: any TPROC-C table in the database (a partial schema too). */
  assertBuildable(): Promise<void> {
    return this.guard('checking the target before a build', async () => {
      if (Number((await this.rows('database_exists', [this.t.database]))[0]?.n ?? 0) === 0) return;
      const present = (await this.tableNames()).filter((n) => (TPROCC_TABLES as readonly string[]).includes(n));
      if (present.length > 0)
        throw new SledgeError(
          'SLEDGE_E_SCHEMA_EXISTS',
          `${this.flavour.display} database '${this.t.database}' already holds TPROC-C tables (${present.join(', ')}): delete the schema first or choose another target.database.`,
          { field: 'target.database' },
        );
    });
  }

  async createSchema(o: BuildOptions): Promise<void> {
    const engine = storageEngine(this.t);
    await this.assertBuildable();
    return this.guard('creating the schema', async () => {
      const exists = Number((await this.rows('database_exists', [this.t.database]))[0]?.n ?? 0) > 0;
      if (!exists) {
        await this.run(this.sql.statement('admin.sql', 'create_database', this.dbValues));
        this.createdDatabase = true;
        this.log(`created database ${this.t.database}`);
      }
      await this.requireDb();
      for (const s of tableStatements(this.sql, this.t, o.warehouses)) await this.run(s);
      this.log(`created ${TPROCC_TABLES.length} tables (ENGINE=${engine}${this.t.historyPk ? ', HISTORY primary key' : ''})`);
    });
  }

  /**
   * Secondary keys, then each table's statistics, in up to two sessions at
   * once (core keySessions: the CUSTOMER and ORDERS keys one in each), since
   * InnoDB sorts an ALTER TABLE ... ADD INDEX on one core;
   * then the procedures. A failure in one session lets the other finish its
   * statement, then reports the first failure.
   */
  finishSchema(o: BuildOptions): Promise<void> {
    return this.guard('finishing the schema', async () => {
      await this.requireDb();
      const t0 = Date.now();
      const lanes = keySessions(o.warehouses, o.buildVus, indexStatements(this.sql), (s) => s);
      const laneSql = lanes.map((l) => [...l.keys, ...l.tables.map((table) => this.sql.statement('counters.sql', 'analyze_table', { table: quoteIdent(table) }))]);
      const first = await this.conn();
      const second = lanes.length > 1 ? await connect(this.t, this.flavour, { useDatabase: true, role: 'admin' }) : null;
      try {
        const done = await Promise.allSettled(
          laneSql.map(async (stmts, i) => {
            const c = i === 0 ? first : second!;
            for (const s of stmts) await c.query(s);
          }),
        );
        const failed = done.find((d): d is PromiseRejectedResult => d.status === 'rejected');
        if (failed) throw failed.reason;
      } finally {
        await second?.end().catch(() => undefined);
      }
      this.log(`created secondary indexes and analyzed tables in ${((Date.now() - t0) / 1000).toFixed(1)} s (${lanes.length} session(s): ${lanes.map((l) => l.tables.join(', ')).join(' | ')})`);
      if (!this.t.noStoredProcs) {
        for (const s of procedureStatements(this.sql)) await this.run(s);
        this.log('created stored procedures neword, payment, delivery, slev, ostat');
      } else this.log('noStoredProcs: transactions run as client-side SQL, no procedures created');
    });
  }

  checkFacts(sample: number[]): Promise<CheckFacts> {
    return this.guard('checking the schema', async () => {
      if (!(await this.select()))
        return { databaseExists: false, tables: {}, maxWarehouse: null, indexed: {}, rowCounts: {}, routines: {}, warehouses: [] };
      return gatherCheckFacts((name, params) => this.rowsOf('check.sql', name, params), this.t.database, sample, this.t.noStoredProcs);
    });
  }

  dropSchema(): Promise<void> {
    return this.guard('dropping the schema', async () => {
      const existed = await this.select();
      for (const s of dropStatements(this.sql, this.t)) await this.run(s);
      // HammerDB's deleteschema line, when there was a database to delete.
      if (existed) this.log(`${this.t.database} TPROC-C Schema has been deleted successfully.`);
    });
  }

  /**
   * After a failed build: the database this session created (a database that
   * existed before stays, as does target.user: builds never create users).
   */
  discardCreated(): Promise<string[]> {
    return this.guard('dropping what the failed build created', async () => {
      if (!this.createdDatabase) return [];
      for (const s of dropStatements(this.sql, this.t)) await this.run(s);
      this.createdDatabase = false;
      return [`database ${this.t.database}`];
    });
  }

  readCounters(): Promise<Counters> {
    return this.guard('reading the NOPM and TPM counters', async () => {
      await this.requireDb();
      const [nopm, status] = await Promise.all([this.rowsOf('counters.sql', 'nopm'), this.rowsOf('counters.sql', 'engine_counters')]);
      const tpm = status.reduce((s, r) => s + Number(r.Value ?? r.VALUE ?? 0), 0);
      return { nopm: Number(nopm[0]?.nopm ?? 0), tpm };
    });
  }

  afterRun(): Promise<void> {
    return this.guard('running post-run maintenance', async () => {
      const c = await this.conn();
      if ('purge' in this.t && this.t.purge) {
        await purgeHistory(c, () => connect(this.t, this.flavour, { useDatabase: false, role: 'purge' }), this.sql, this.log, this.purgeBoundMs);
      } else {
        const n = await historyLength(c, this.sql);
        if (n !== null) this.log(`InnoDB history list length ${n}`);
      }
    });
  }

  async close(): Promise<void> {
    const p = this.pending;
    this.pending = undefined;
    if (!p) return;
    const c = await p.catch(() => undefined);
    if (c) await c.end().catch(() => c.destroy());
  }
}
