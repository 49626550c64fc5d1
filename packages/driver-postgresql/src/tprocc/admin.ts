import type { Client } from 'pg';
import { keySessions, type AdminSession, type BuildOptions, type CheckFacts, type Counters, type Logger, type SchemaState } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import type { PgTproccTarget } from './target.js';
import { gatherCheckFacts, missingDatabaseFacts } from './check.js';
import { APP_MONITOR, type Login } from '../engine/config.js';
import { closeQuietly, connect } from '../engine/connect.js';
import { dbError, errorCode } from '../engine/errors.js';
import { loadPg } from '../engine/lib.js';
import { indexSteps, routineSteps, tableSteps, type Step } from './schema.js';
import { renderVars, type Quoting } from '../engine/sql-text.js';
import { scriptStatements, statement } from './sqlfiles.js';

type Vars = Record<string, string | number>;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The monitor/admin session. It opens up to two connections, lazily:
 * - the superuser in target.defaultDatabase: role and database lifecycle;
 * - the TPC user in target.database: tables, routines, checks, counters.
 * Runs need only the TPC user; the superuser is used when the schema is
 * created or dropped, or to tell "not built yet" from a wrong password.
 *
 * When target.database is target.defaultDatabase the tables live there:
 * the database is neither created nor dropped, drop.sql removes the
 * TPROC-C objects and the role is kept.
 * When target.user is target.superuser no role is created or dropped.
 */
export class PgAdminSession implements AdminSession {
  private su: Promise<Client> | null = null;
  private tpc: Promise<Client> | null = null;
  /** What createSchema created in this session (a failed build drops exactly these: discardCreated). */
  private readonly created = { role: false, database: false };

  constructor(
    private readonly t: PgTproccTarget,
    private readonly log: Logger,
    private readonly q: Quoting,
  ) {}

  static async open(t: PgTproccTarget, log: Logger): Promise<PgAdminSession> {
    const pg = await loadPg();
    return new PgAdminSession(t, log, { escapeIdentifier: pg.escapeIdentifier, escapeLiteral: pg.escapeLiteral });
  }

  private get sharedDatabase(): boolean {
    return this.t.database === this.t.defaultDatabase;
  }

  private get ownRole(): boolean {
    return this.t.user !== this.t.superuser;
  }

  private session(login: Login): Promise<Client> {
    const slot = login === 'superuser' ? 'su' : 'tpc';
    let p = this[slot];
    if (!p) {
      p = connect(this.t, login, APP_MONITOR, this.log);
      this[slot] = p;
      // A failed connect is not cached: the next call tries again.
      p.catch(() => {
        if (this[slot] === p) this[slot] = null;
      });
    }
    return p;
  }

  private async closeSession(login: Login): Promise<void> {
    const slot = login === 'superuser' ? 'su' : 'tpc';
    const p = this[slot];
    this[slot] = null;
    if (p) await closeQuietly(await p.catch(() => null));
  }

  private sql(file: 'admin.sql' | 'counters.sql', name: string, vars: Vars = {}): string {
    return renderVars(statement(file, name), vars, this.q);
  }

  private async one<R>(c: Client, sql: string, col: string): Promise<R> {
    const r = await c.query<Record<string, R>>(sql);
    const row = r.rows[0];
    if (!row) throw new Error(`query returned no row: ${sql.split('\n')[0]}`);
    return row[col] as R;
  }

  /** Does the superuser see the TPC role (always true when the TPC user is the superuser)? */
  private async roleExists(): Promise<boolean> {
    if (!this.ownRole) return true;
    const su = await this.session('superuser');
    return this.one<boolean>(su, this.sql('admin.sql', 'role_exists', { role: this.t.user }), 'found');
  }

  /** Does the superuser see the TPC database and role? */
  private async databaseAndRoleExist(): Promise<boolean> {
    const su = await this.session('superuser');
    const db = this.sharedDatabase || (await this.one<boolean>(su, this.sql('admin.sql', 'database_exists', { database: this.t.database }), 'found'));
    return db && (await this.roleExists());
  }

  /**
   * The TPC user's session, or null when the schema is not built: the
   * database is missing, or the login fails and the superuser confirms that
   * the database or role does not exist yet. A wrong TPC password on a built
   * schema, or on a role that already exists, still throws SLEDGE_E_AUTH.
   */
  private async tpcIfBuilt(): Promise<Client | null> {
    try {
      return await this.session('user');
    } catch (e) {
      if (SledgeError.is(e) && e.code === 'SLEDGE_E_SCHEMA_MISSING') return null;
      if (SledgeError.is(e) && e.code === 'SLEDGE_E_AUTH') {
        let built: boolean;
        try {
          built = await this.databaseAndRoleExist();
        } catch (suError) {
          // The TPC role does not exist, so only the superuser could go on: its failure is the one to fix.
          // Otherwise (a refused password) report the TPC user's own failure.
          throw e.field === 'target.user' ? suError : e;
        }
        // Not built. A role that already exists keeps its password (a build does not change it),
        // so a refused password now would fail the build after it created the database: say so first.
        if (!built && !(this.ownRole && e.field === 'target.password' && (await this.roleExists()))) return null;
      }
      throw e;
    }
  }

  private async requireTpc(): Promise<Client> {
    const c = await this.tpcIfBuilt();
    if (!c) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `the TPROC-C schema is not built in database "${this.t.database}": build it first or check target.database`, {
        field: 'target.database',
      });
    }
    return c;
  }

  private async runSteps(c: Client, steps: Step[], field?: (e: unknown) => string | undefined): Promise<void> {
    for (const s of steps) {
      try {
        await c.query(s.sql);
      } catch (e) {
        throw dbError(s.what, e, field?.(e));
      }
    }
  }

  async serverVersion(): Promise<string> {
    const c = (await this.tpcIfBuilt()) ?? (await this.session('superuser'));
    return String(await this.one<string>(c, this.sql('admin.sql', 'server_version'), 'version'));
  }

  async schemaState(): Promise<SchemaState> {
    const c = await this.tpcIfBuilt();
    if (!c) return { exists: false, warehouses: 0 };
    if (!(await this.one<boolean>(c, this.sql('admin.sql', 'warehouse_table_exists'), 'found'))) return { exists: false, warehouses: 0 };
    return { exists: true, warehouses: Number(await this.one<number>(c, this.sql('admin.sql', 'max_warehouse'), 'w')) };
  }

  /** What createSchema refuses, checked as the superuser without changing anything: an existing database (or the tables, in a shared one). */
  async assertBuildable(): Promise<void> {
    const t = this.t;
    const su = await this.session('superuser');
    if (this.sharedDatabase) {
      if (await this.one<boolean>(su, this.sql('admin.sql', 'warehouse_table_exists'), 'found')) {
        throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `database "${t.database}" already holds the TPROC-C tables: drop the schema first`, { field: 'target.database' });
      }
    } else if (await this.one<boolean>(su, this.sql('admin.sql', 'database_exists', { database: t.database }), 'found')) {
      throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `database "${t.database}" already exists: drop the schema first or choose another target.database`, { field: 'target.database' });
    }
  }

  async createSchema(o: BuildOptions): Promise<void> {
    const t = this.t;
    const su = await this.session('superuser');
    const field42501 = (e: unknown) => (errorCode(e) === '42501' ? 'target.superuser' : undefined);

    await this.assertBuildable();

    if (this.ownRole && !(await this.one<boolean>(su, this.sql('admin.sql', 'role_exists', { role: t.user }), 'found'))) {
      this.log(`Creating user ${t.user}`);
      await this.runSteps(su, [{ what: `creating role "${t.user}"`, sql: this.sql('admin.sql', 'create_role', { role: t.user, password: t.password }) }], field42501);
      this.created.role = true;
    }
    if (!this.sharedDatabase) {
      this.log(`CREATING DATABASE ${t.database} under OWNER ${t.user}`);
      if (t.tablespace !== 'pg_default') this.log(`Database ${t.database} in tablespace ${t.tablespace}`);
      const sql = this.sql('admin.sql', 'create_database', { database: t.database, role: t.user, tablespace: t.tablespace });
      await this.runSteps(su, [{ what: `creating database "${t.database}"`, sql }], (e) =>
        errorCode(e) === '42704' ? 'tprocc.schema.tablespace' : field42501(e),
      );
      this.created.database = true;
    }

    // The TPC session may have failed before the database existed: connect afresh.
    await this.closeSession('user');
    const c = await this.session('user');
    const steps = tableSteps(t, o.warehouses, this.q);
    this.log('CREATING TPCC TABLES');
    if (steps.length > 9) this.log(`order_line in ${steps.length - 9} partitions`);
    await this.runSteps(c, steps);
  }

  /**
   * In HammerDB's order: keys and indexes, then the routines, then each
   * table's statistics; keys and statistics in up to two TPC sessions at once
   * (core keySessions: order_line in one, the other tables in the other).
   * A failure in one session lets the other finish its statement, then
   * reports the first failure.
   */
  async finishSchema(o: BuildOptions): Promise<void> {
    const c = await this.requireTpc();
    const lanes = keySessions(o.warehouses, o.buildVus, indexSteps(), (s) => s.sql);
    const analyze = lanes.map((l) => l.tables.map((table) => ({ what: `ANALYZE ${table}`, sql: this.sql('counters.sql', 'analyze_table', { table }) })));
    const second = lanes.length > 1 ? await connect(this.t, 'user', APP_MONITOR, this.log) : null;
    // Both sessions run their share of a phase; a failure in one lets the other finish its statement, then is reported.
    const inLanes = async (laneSteps: { what: string; sql: string }[][]) => {
      const done = await Promise.allSettled(laneSteps.map((steps, i) => this.runSteps(i === 0 ? c : second!, steps)));
      const failed = done.find((d): d is PromiseRejectedResult => d.status === 'rejected');
      if (failed) throw failed.reason;
    };
    try {
      // HammerDB's order and lines: indexes, then routines, then statistics.
      this.log('CREATING TPCC INDEXES');
      this.log(`Keys and indexes in ${lanes.length} session(s): ${lanes.map((l) => l.tables.join(', ')).join(' | ')}`);
      await inLanes(lanes.map((l) => l.keys));
      if (this.t.noStoredProcs) this.log('noStoredProcs: transactions run as client-side SQL (client.sql), no functions or procedures created');
      else {
        this.log(this.t.storedProcs ? 'CREATING TPCC STORED PROCEDURES' : 'CREATING TPCC FUNCTIONS');
        await this.runSteps(c, routineSteps(this.t));
      }
      this.log('GATHERING SCHEMA STATISTICS');
      await inLanes(analyze);
    } finally {
      await closeQuietly(second);
    }
  }

  async checkFacts(sample: number[]): Promise<CheckFacts> {
    const c = await this.tpcIfBuilt();
    if (!c) return missingDatabaseFacts();
    try {
      return await gatherCheckFacts(c, this.t, sample, this.q);
    } catch (e) {
      throw dbError('reading checkschema facts', e);
    }
  }

  async dropSchema(): Promise<void> {
    const t = this.t;
    if (this.sharedDatabase) {
      const c = await this.tpcIfBuilt();
      if (c) {
        this.log(`Dropping TPROC-C tables and routines from ${t.database}`);
        await this.runSteps(c, scriptStatements('drop.sql').map((sql) => ({ what: 'dropping TPROC-C objects', sql })));
        this.log(`${t.database} TPROC-C schema has been deleted successfully.`);
      }
      await this.closeSession('user');
      // The role stays: in a database Sledge did not create it may own the database or other objects.
      return;
    }
    await this.closeSession('user');
    // HammerDB's deleteschema lines, once the database (then the role) is gone.
    if (await this.dropDatabase()) this.log(`${t.database} TPROC-C schema has been deleted successfully.`);
    if (this.ownRole) {
      const su = await this.session('superuser');
      const existed = await this.one<boolean>(su, this.sql('admin.sql', 'role_exists', { role: t.user }), 'found');
      await this.runSteps(su, [{ what: `dropping role "${t.user}"`, sql: this.sql('admin.sql', 'drop_role', { role: t.user }) }]);
      if (existed) this.log(`${t.user} TPROC-C role has been deleted successfully.`);
    }
  }

  /** After a failed build: the database, then the role, that this session created (never one that existed before). */
  async discardCreated(): Promise<string[]> {
    const t = this.t;
    const dropped: string[] = [];
    await this.closeSession('user');
    if (this.created.database) {
      await this.dropDatabase();
      this.created.database = false;
      dropped.push(`database ${t.database}`);
    }
    if (this.created.role) {
      const su = await this.session('superuser');
      await this.runSteps(su, [{ what: `dropping role "${t.user}"`, sql: this.sql('admin.sql', 'drop_role', { role: t.user }) }]);
      this.created.role = false;
      dropped.push(`role ${t.user}`);
    }
    return dropped;
  }

  /** Terminate other sessions on the database, then drop it; a session that slips in between is terminated again. True when it dropped one. */
  private async dropDatabase(): Promise<boolean> {
    const t = this.t;
    const su = await this.session('superuser');
    if (!(await this.one<boolean>(su, this.sql('admin.sql', 'database_exists', { database: t.database }), 'found'))) return false;
    this.log(`Dropping database ${t.database}`);
    for (let attempt = 1; ; attempt++) {
      await su.query(this.sql('admin.sql', 'terminate_sessions', { database: t.database }));
      try {
        await su.query(this.sql('admin.sql', 'drop_database', { database: t.database }));
        return true;
      } catch (e) {
        // 55006: object_in_use ("database is being accessed by other users").
        if (errorCode(e) !== '55006' || attempt >= 5) throw dbError(`dropping database "${t.database}"`, e);
        await sleep(200 * attempt);
      }
    }
  }

  async readCounters(): Promise<Counters> {
    const c = await this.requireTpc();
    const nopm = Number(await this.one<string>(c, this.sql('counters.sql', 'nopm_counter'), 'nopm'));
    const r = (await c.query<{ tpm: string; epoch: string }>(this.sql('counters.sql', 'tpm_counter'))).rows[0];
    if (!r) throw new Error('the TPM counter query returned no row');
    return { nopm, tpm: Number(r.tpm), epoch: String(r.epoch) };
  }

  async afterRun(): Promise<void> {
    if (!this.t.vacuum) return;
    const c = await this.requireTpc();
    this.log('VACUUM of the TPROC-C tables');
    await this.runSteps(c, [{ what: 'VACUUM', sql: this.sql('counters.sql', 'vacuum') }]);
    this.log('VACUUM complete');
  }

  async close(): Promise<void> {
    await Promise.all([this.closeSession('user'), this.closeSession('superuser')]);
  }
}
