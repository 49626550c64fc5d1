import type { Client } from 'pg';
import type { Logger, TprochAdmin, TprochBuildOptions, TprochSchemaState } from '@sledge/core';
import { SledgeError, TPROCH_TABLES, type PostgresqlTarget, type TprochTable } from '@sledge/protocol';
import { APP_MONITOR, type Login } from '../engine/config.js';
import { closeQuietly, connect } from '../engine/connect.js';
import { dbError, errorCode } from '../engine/errors.js';
import { loadPg } from '../engine/lib.js';
import { renderVars, type Quoting } from '../engine/sql-text.js';
import { tprochScript, tprochStatement, type TprochSqlFile } from './sql.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * TPROC-H's admin session on PostgreSQL, with TPROC-C's rules: the superuser
 * (target.superuser in target.defaultDatabase) creates and drops the role
 * and the database (owned by the role); the TPC-H user creates the tables in
 * its database. When target.database is target.defaultDatabase the tables
 * live there and only they are dropped; when target.user is the superuser no
 * role is created or dropped.
 */
export class PgTprochAdmin implements TprochAdmin {
  private su: Promise<Client> | null = null;
  private tpc: Promise<Client> | null = null;
  /** What createSchema created in this session (a failed build drops exactly these: discardCreated). */
  private readonly created = { role: false, database: false };

  private constructor(
    private readonly t: PostgresqlTarget,
    private readonly log: Logger,
    private readonly q: Quoting,
  ) {}

  static async open(t: PostgresqlTarget, log: Logger): Promise<PgTprochAdmin> {
    const pg = await loadPg();
    return new PgTprochAdmin(t, log, { escapeIdentifier: pg.escapeIdentifier, escapeLiteral: pg.escapeLiteral });
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

  private sql(name: string, vars: Record<string, string | number> = {}, file: TprochSqlFile = 'admin.sql'): string {
    return renderVars(tprochStatement(file, name), vars, this.q);
  }

  private async one<R>(c: Client, sql: string, col: string): Promise<R> {
    const row = (await c.query<Record<string, R>>(sql)).rows[0];
    if (!row) throw new Error(`query returned no row: ${sql.split('\n')[0]}`);
    return row[col] as R;
  }

  private async run(c: Client, what: string, statements: string[]): Promise<void> {
    for (const sql of statements) {
      try {
        await c.query(sql);
      } catch (e) {
        throw dbError(what, e, errorCode(e) === '42501' ? 'target.superuser' : undefined);
      }
    }
  }

  /** The TPC-H user's session, or null when the database (or role) is not there yet. */
  private async tpcIfBuilt(): Promise<Client | null> {
    try {
      return await this.session('user');
    } catch (e) {
      if (SledgeError.is(e) && e.code === 'SLEDGE_E_SCHEMA_MISSING') return null;
      if (SledgeError.is(e) && e.code === 'SLEDGE_E_AUTH' && this.ownRole) {
        const su = await this.session('superuser');
        const role = await this.one<boolean>(su, this.sql('role_exists', { role: this.t.user }), 'found');
        if (!role) return null;
      }
      throw e;
    }
  }

  private async requireTpc(): Promise<Client> {
    const c = await this.tpcIfBuilt();
    if (!c || !(await this.one<boolean>(c, this.sql('supplier_table_exists'), 'found'))) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `the TPROC-H schema is not built in database "${this.t.database}": build it first or check target.database`, {
        field: 'target.database',
      });
    }
    return c;
  }

  async serverVersion(): Promise<string> {
    const c = (await this.tpcIfBuilt()) ?? (await this.session('superuser'));
    return String(await this.one<string>(c, this.sql('server_version'), 'version'));
  }

  async schemaState(): Promise<TprochSchemaState> {
    const c = await this.tpcIfBuilt();
    if (!c || !(await this.one<boolean>(c, this.sql('supplier_table_exists'), 'found'))) return { exists: false, scaleFactor: 0 };
    return { exists: true, scaleFactor: Number(await this.one<string>(c, this.sql('suppliers'), 'n')) / 10000 };
  }

  async assertBuildable(): Promise<void> {
    const t = this.t;
    const su = await this.session('superuser');
    if (this.sharedDatabase) {
      if (await this.one<boolean>(su, this.sql('any_table_exists'), 'found')) {
        throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `database "${t.database}" already holds TPROC-H tables: drop the schema first`, { field: 'target.database' });
      }
    } else if (await this.one<boolean>(su, this.sql('database_exists', { database: t.database }), 'found')) {
      throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `database "${t.database}" already exists: drop the schema first or choose another target.database`, {
        field: 'target.database',
      });
    }
  }

  async createSchema(o: TprochBuildOptions): Promise<void> {
    const t = this.t;
    await this.assertBuildable();
    const su = await this.session('superuser');
    if (this.ownRole && !(await this.one<boolean>(su, this.sql('role_exists', { role: t.user }), 'found'))) {
      this.log(`Creating user ${t.user}`);
      await this.run(su, `creating role "${t.user}"`, [this.sql('create_role', { role: t.user, password: t.password })]);
      this.created.role = true;
    }
    if (!this.sharedDatabase) {
      this.log(`Creating database ${t.database}`);
      await this.run(su, `creating database "${t.database}"`, [this.sql('create_database', { database: t.database, role: t.user })]);
      this.created.database = true;
    }
    await this.closeSession('user');
    const c = await this.session('user');
    this.log(`Creating the TPROC-H tables (SF ${o.scaleFactor})`);
    await this.run(c, 'creating the TPROC-H tables', tprochScript('tables.sql'));
  }

  async finishSchema(_o: TprochBuildOptions, step?: (what: string) => void): Promise<void> {
    const c = await this.requireTpc();
    step?.('primary keys, foreign keys and their indexes');
    this.log('Adding primary keys, foreign keys and their indexes');
    await this.run(c, 'adding keys', tprochScript('keys.sql'));
    step?.('statistics');
    this.log('Gathering statistics (ANALYZE)');
    await this.run(c, 'ANALYZE', tprochScript('statistics.sql'));
  }

  async rowCounts(): Promise<Record<TprochTable, number>> {
    const c = await this.requireTpc();
    const out = Object.fromEntries(TPROCH_TABLES.map((t) => [t, 0])) as Record<TprochTable, number>;
    for (const r of (await c.query<{ t: TprochTable; n: string }>(this.sql('row_counts'))).rows) out[r.t] = Number(r.n);
    return out;
  }

  async dropSchema(): Promise<void> {
    const t = this.t;
    if (this.sharedDatabase) {
      const c = await this.tpcIfBuilt();
      if (c) {
        this.log(`Dropping the TPROC-H tables from ${t.database}`);
        await this.run(c, 'dropping the TPROC-H tables', tprochScript('drop.sql'));
      }
      await this.closeSession('user');
      return;
    }
    await this.closeSession('user');
    await this.dropDatabase();
    if (this.ownRole) {
      const su = await this.session('superuser');
      await this.run(su, `dropping role "${t.user}"`, [this.sql('drop_role', { role: t.user })]);
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
      await this.run(su, `dropping role "${t.user}"`, [this.sql('drop_role', { role: t.user })]);
      this.created.role = false;
      dropped.push(`role ${t.user}`);
    }
    return dropped;
  }

  private async dropDatabase(): Promise<void> {
    const t = this.t;
    const su = await this.session('superuser');
    if (!(await this.one<boolean>(su, this.sql('database_exists', { database: t.database }), 'found'))) return;
    this.log(`Dropping database ${t.database}`);
    for (let attempt = 1; ; attempt++) {
      await su.query(this.sql('terminate_sessions', { database: t.database }));
      try {
        await su.query(this.sql('drop_database', { database: t.database }));
        return;
      } catch (e) {
        if (errorCode(e) !== '55006' || attempt >= 5) throw dbError(`dropping database "${t.database}"`, e);
        await sleep(200 * attempt);
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.closeSession('user'), this.closeSession('superuser')]);
  }
}
