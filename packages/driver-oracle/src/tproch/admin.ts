import type { Logger, TprochAdmin, TprochBuildOptions, TprochSchemaState } from '@sledge/core';
import { SledgeError, TPROCH_TABLES, type OracleTarget, type TprochTable } from '@sledge/protocol';
import type { OracleRole } from '../engine/config.js';
import { OraSession } from '../engine/connection.js';
import { dbError, oracleCode } from '../engine/errors.js';
import type { SqlVars } from '@sledge/sql';
import { oracleTprochSql, tprochVars, type OracleTprochSql } from './sqlfiles.js';

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The part of an OraSession the admin session uses. */
export type AdminConn = Pick<OraSession, 'query' | 'execute' | 'close'>;
export type AdminOpener = (role: OracleRole, clientId: string) => Promise<AdminConn>;

/**
 * The TPROC-H admin session on Oracle. The system user creates and drops
 * the TPROC-H user (default tpch, tablespace USERS, temporary TEMP); the
 * TPROC-H user owns the tables, keys and statistics. Connections open on
 * first use.
 */
export class OracleTprochAdmin implements TprochAdmin {
  private system: Promise<AdminConn> | undefined;
  private owner: Promise<AdminConn> | undefined;
  private readonly vars: SqlVars;
  private readonly open: AdminOpener;

  constructor(
    private readonly t: OracleTarget,
    private readonly log: Logger,
    open?: AdminOpener,
    private readonly sql: OracleTprochSql = oracleTprochSql,
    private readonly retryMs = 1000,
  ) {
    this.vars = tprochVars(t);
    this.open = open ?? ((role, clientId) => OraSession.open(t, role, clientId));
  }

  private sys(): Promise<AdminConn> {
    if (!this.system) {
      this.system = this.open('system', 'sledge-tproch-admin');
      this.system.catch(() => (this.system = undefined));
    }
    return this.system;
  }

  private user(): Promise<AdminConn> {
    if (!this.owner) {
      this.owner = this.open('user', 'sledge-tproch-monitor');
      this.owner.catch(() => (this.owner = undefined));
    }
    return this.owner;
  }

  private async step<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw dbError(e, what);
    }
  }

  private get username(): string {
    return this.t.user.toUpperCase();
  }

  async serverVersion(): Promise<string> {
    const s = await this.sys();
    try {
      const rows = await s.query(this.sql.get('admin', 'server_version'));
      return String(rows[0]?.['version'] ?? '');
    } catch (e) {
      if (oracleCode(e) !== 'ORA-00904') throw dbError(e, 'reading the server version');
      const rows = await this.step('reading the server version', () => s.query(this.sql.get('admin', 'server_version_12c')));
      return String(rows[0]?.['version'] ?? '');
    }
  }

  private async userExists(s: AdminConn): Promise<boolean> {
    const rows = await this.step('looking up the TPROC-H user', () => s.query(this.sql.get('admin', 'user_exists'), { username: this.username }));
    return num(rows[0]?.['n']) > 0;
  }

  private async supplierExists(s: AdminConn): Promise<boolean> {
    const rows = await this.step('looking up the SUPPLIER table', () => s.query(this.sql.get('admin', 'supplier_exists'), { username: this.username }));
    return num(rows[0]?.['n']) > 0;
  }

  async schemaState(): Promise<TprochSchemaState> {
    const s = await this.sys();
    if (!(await this.userExists(s)) || !(await this.supplierExists(s))) return { exists: false, scaleFactor: 0 };
    const u = await this.user();
    const rows = await this.step('counting SUPPLIER', () => u.query(this.sql.get('admin', 'supplier_count')));
    return { exists: true, scaleFactor: num(rows[0]?.['n']) / 10000 };
  }

  async assertBuildable(): Promise<void> {
    const s = await this.sys();
    if ((await this.userExists(s)) && (await this.supplierExists(s))) {
      throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `user ${this.t.user} already owns TPROC-H tables: delete the schema first`, { field: 'target.user' });
    }
  }

  async createSchema(o: TprochBuildOptions): Promise<void> {
    const s = await this.sys();
    if (!(await this.userExists(s))) {
      this.log(`Creating user ${this.t.user} (default tablespace ${String(this.vars['tablespace'])}, temporary ${String(this.vars['temp_tablespace'])})`);
      for (const name of ['create_user', 'grant_roles', 'quota'] as const) {
        // The password is in create_user's text: name the step, never the statement.
        await this.step(`user setup step ${name}`, () => s.execute(this.sql.get('admin', name, this.vars)));
      }
    } else {
      await this.assertBuildable();
    }
    const u = await this.user();
    this.log(`Creating TPROC-H tables for scale factor ${o.scaleFactor}`);
    for (const st of this.sql.script('tables')) await this.step(`creating table ${st.name}`, () => u.execute(st.sql));
  }

  async finishSchema(o: TprochBuildOptions, step?: (what: string) => void): Promise<void> {
    const u = await this.user();
    step?.('primary keys, foreign keys and their indexes');
    this.log(`Creating primary keys, foreign keys and indexes (scale factor ${o.scaleFactor})`);
    for (const st of this.sql.script('keys')) await this.step(`key step ${st.name}`, () => u.execute(st.sql));
    step?.('statistics');
    this.log('Gathering schema statistics (DBMS_STATS.GATHER_SCHEMA_STATS)');
    await this.step('DBMS_STATS.GATHER_SCHEMA_STATS', () => u.execute(this.sql.get('statistics', 'gather_schema_stats')));
  }

  async rowCounts(): Promise<Record<TprochTable, number>> {
    const u = await this.user();
    const out = {} as Record<TprochTable, number>;
    for (const table of TPROCH_TABLES) {
      const rows = await this.step(`counting ${table}`, () => u.query(this.sql.get('admin', 'row_count', { table })));
      out[table] = num(rows[0]?.['n']);
    }
    return out;
  }

  async dropSchema(): Promise<void> {
    if (this.owner) {
      const u = this.owner;
      this.owner = undefined;
      await u.then((c) => c.close()).catch(() => undefined);
    }
    const s = await this.sys();
    if (!(await this.userExists(s))) return;
    this.log(`Dropping user ${this.t.user} and its schema`);
    for (let attempt = 1; ; attempt++) {
      await this.step('ending the sessions of the TPROC-H user', () => s.execute(this.sql.get('drop', 'kill_sessions', this.vars)));
      try {
        await s.execute(this.sql.get('drop', 'drop_user', this.vars));
        return;
      } catch (e) {
        // ORA-01940: a killed session has not gone yet.
        if (oracleCode(e) !== 'ORA-01940' || attempt >= 10) throw dbError(e, `DROP USER ${this.t.user}`);
        await sleep(this.retryMs);
      }
    }
  }

  async close(): Promise<void> {
    const conns = [this.owner, this.system];
    this.owner = undefined;
    this.system = undefined;
    await Promise.all(conns.map((p) => p?.then((c) => c.close()).catch(() => undefined)));
  }
}
