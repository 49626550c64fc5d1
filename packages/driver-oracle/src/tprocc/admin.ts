import {
  TPROCC_ROUTINES,
  orderLinePartitions,
  type AdminSession,
  type BuildOptions,
  type CheckFacts,
  type Counters,
  type DistrictFacts,
  type Logger,
  type SchemaState,
} from '@sledge/core';
import type { TproccTarget } from '@sledge/core';
import { SledgeError, TPROCC_TABLES, type OracleTarget, type TproccTable } from '@sledge/protocol';

type OracleTproccTarget = TproccTarget<OracleTarget>;
import { OraSession, type Row } from '../engine/connection.js';
import { dbError, oracleCode } from '../engine/errors.js';
import { identifier, quotablePassword } from '../engine/sql-text.js';
import { ORACLE_SQL, oracleSql, type OracleSql, type SqlName, type SqlVars } from './sqlfiles.js';

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const names = (rows: Row[]): Set<string> => new Set(rows.map((r) => String(r['name'])));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Identifiers and the password spliced into Oracle DDL, validated. */
export function oracleVars(t: OracleTproccTarget): SqlVars {
  return {
    user: identifier(t.user, 'target.user'),
    password: quotablePassword(t.password, 'target.password'),
    default_tablespace: identifier(t.defaultTablespace, 'tprocc.schema.defaultTablespace'),
    order_line_tablespace: identifier(t.orderLineTablespace, 'tprocc.schema.orderLineTablespace'),
    temp_tablespace: identifier(t.tempTablespace, 'tprocc.schema.tempTablespace'),
  };
}

/** The CREATE TABLE statements for W warehouses: ORDER_LINE hash-partitioned only when asked and W >= 200. */
export function tableStatements(t: OracleTproccTarget, W: number): { names: SqlName<'tables'>[]; partitions: number } {
  const partitions = orderLinePartitions(W, t.partition);
  const all = ORACLE_SQL.tables.filter((n) => n !== 'order_line' && n !== 'order_line_partitioned');
  return { names: [...all, partitions > 0 ? 'order_line_partitioned' : 'order_line'], partitions };
}

/**
 * The monitor/admin session. The system user creates and drops the
 * TPROC-C user and reads server-wide counters; the TPROC-C user owns the
 * tables and procedures. Both connections open on first use.
 */
export class OracleAdmin implements AdminSession {
  private system: Promise<OraSession> | undefined;
  private owner: Promise<OraSession> | undefined;
  private rac: boolean | undefined;
  private readonly vars: SqlVars;

  constructor(
    private readonly t: OracleTproccTarget,
    private readonly log: Logger,
    private readonly sql: OracleSql = oracleSql,
  ) {
    this.vars = oracleVars(t);
  }

  private sys(): Promise<OraSession> {
    if (!this.system) {
      this.system = OraSession.open(this.t, 'system', 'sledge-admin');
      this.system.catch(() => (this.system = undefined));
    }
    return this.system;
  }

  private user(): Promise<OraSession> {
    if (!this.owner) {
      this.owner = OraSession.open(this.t, 'user', 'sledge-monitor');
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

  private async userExists(s: OraSession): Promise<boolean> {
    const rows = await this.step('looking up the TPROC-C user', () => s.query(this.sql.get('admin', 'user_exists'), { username: this.username }));
    return num(rows[0]?.['n']) > 0;
  }

  private async warehouseExists(s: OraSession): Promise<boolean> {
    const rows = await this.step('looking up the WAREHOUSE table', () => s.query(this.sql.get('admin', 'warehouse_table_exists'), { username: this.username }));
    return num(rows[0]?.['n']) > 0;
  }

  private async maxWarehouse(u: OraSession): Promise<number> {
    const rows = await this.step('reading max(w_id)', () => u.query(this.sql.get('admin', 'max_warehouse')));
    return num(rows[0]?.['w']);
  }

  async schemaState(): Promise<SchemaState> {
    const s = await this.sys();
    if (!(await this.userExists(s)) || !(await this.warehouseExists(s))) return { exists: false, warehouses: 0 };
    return { exists: true, warehouses: await this.maxWarehouse(await this.user()) };
  }

  async createSchema(o: BuildOptions): Promise<void> {
    const s = await this.sys();
    if (!(await this.userExists(s))) {
      this.log(`Creating user ${this.t.user} (default tablespace ${this.t.defaultTablespace}, temporary ${this.t.tempTablespace})`);
      for (const name of ['create_user', 'grant_roles', 'quota_default', 'quota_order_line'] as const) {
        // The password is in create_user's text: name the step, never the statement.
        await this.step(`user setup step ${name}`, () => s.execute(this.sql.get('admin', name, this.vars)));
      }
    } else if (await this.warehouseExists(s)) {
      throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `user ${this.t.user} already owns TPROC-C tables: delete the schema first`, { field: 'target.user' });
    }
    const u = await this.user();
    const { names: tables, partitions } = tableStatements(this.t, o.warehouses);
    this.log(`Creating TPROC-C tables for ${o.warehouses} warehouse(s)${partitions ? `, ORDER_LINE in ${partitions} hash partitions` : ''}`);
    for (const s2 of this.sql.script('tables', tables, { ...this.vars, partitions })) await this.step(`creating table ${s2.name}`, () => u.execute(s2.sql));
  }

  async finishSchema(o: BuildOptions): Promise<void> {
    const u = await this.user();
    this.log(`Creating keys, indexes and statistics (${o.warehouses} warehouse(s))`);
    for (const s of this.sql.script('indexes', ORACLE_SQL.indexes, this.vars)) await this.step(`index step ${s.name}`, () => u.execute(s.sql));
    this.log('Creating PL/SQL procedures');
    for (const s of this.sql.script('procedures', ORACLE_SQL.procedures)) {
      const r = await this.step(`creating ${s.name}`, () => u.execute(s.sql));
      if (r.warning) {
        const errs = await this.step(`reading compile errors of ${s.name}`, () => u.query(this.sql.get('admin', 'compile_errors'), { name: s.name }));
        const detail = errs.slice(0, 5).map((e) => `line ${String(e['line'])}: ${String(e['text']).trim()}`).join('; ');
        throw new SledgeError('SLEDGE_E_DB', `${s.name} compiled with errors: ${detail || r.warning.message || 'see USER_ERRORS'}`);
      }
    }
  }

  async checkFacts(sample: number[]): Promise<CheckFacts> {
    const facts: CheckFacts = { databaseExists: false, tables: {}, maxWarehouse: null, indexed: {}, rowCounts: {}, routines: {}, warehouses: [] };
    if (!(await this.userExists(await this.sys()))) return facts;
    const u = await this.user();
    const q = (what: string, sql: string, binds: Record<string, number | string> = {}) => this.step(what, () => u.query(sql, binds));
    const tables = names(await q('listing tables', this.sql.get('check', 'tables')));
    const indexed = names(await q('listing indexes', this.sql.get('check', 'indexed_tables')));
    const routines = names(await q('listing procedures', this.sql.get('check', 'routines')));
    const present = TPROCC_TABLES.filter((t) => tables.has(t));
    facts.databaseExists = present.length > 0;
    for (const t of TPROCC_TABLES) {
      facts.tables[t] = tables.has(t);
      facts.indexed[t] = indexed.has(t);
    }
    for (const r of TPROCC_ROUTINES) facts.routines[r] = routines.has(r);
    for (const t of present) facts.rowCounts[t] = num((await q(`counting ${t}`, this.sql.get('check', 'row_count', { table: t })))[0]?.['n']);
    if (tables.has('warehouse')) facts.maxWarehouse = await this.maxWarehouse(u);
    const needed: TproccTable[] = ['warehouse', 'district', 'orders', 'new_order', 'order_line'];
    if (needed.every((t) => tables.has(t))) {
      for (const w of sample) {
        const wy = await q(`reading warehouse ${w}`, this.sql.get('check', 'warehouse_ytd'), { w });
        if (!wy[0]) continue;
        const ds = await q(`reading districts of warehouse ${w}`, this.sql.get('check', 'district_facts'), { w });
        const districts: DistrictFacts[] = ds.map((r) => ({
          d: num(r['d']),
          next_o_id: num(r['next_o_id']),
          max_o_id: num(r['max_o_id']),
          no_count: num(r['no_count']),
          no_min: num(r['no_min']),
          no_max: num(r['no_max']),
          sum_ol_cnt: num(r['sum_ol_cnt']),
          ol_count: num(r['ol_count']),
        }));
        facts.warehouses.push({ w, w_ytd: num(wy[0]['w_ytd']), sum_d_ytd: num(wy[0]['sum_d_ytd']), districts });
      }
    }
    return facts;
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
      await this.step('ending the sessions of the TPROC-C user', () => s.execute(this.sql.get('drop', 'kill_sessions', this.vars)));
      try {
        await s.execute(this.sql.get('drop', 'drop_user', this.vars));
        return;
      } catch (e) {
        // ORA-01940: a killed session has not gone yet.
        if (oracleCode(e) !== 'ORA-01940' || attempt >= 10) throw dbError(e, `DROP USER ${this.t.user}`);
        await sleep(1000);
      }
    }
  }

  private async isRac(s: OraSession): Promise<boolean> {
    if (this.rac === undefined) {
      const rows = await this.step('reading cluster_database', () => s.query(this.sql.get('counters', 'cluster_database')));
      this.rac = String(rows[0]?.['value'] ?? '').toUpperCase() === 'TRUE';
      if (this.rac) this.log('RAC detected (cluster_database = TRUE): TPM sums gv$sysstat over the instances');
    }
    return this.rac;
  }

  /** 'user commits' + 'user rollbacks': v$sysstat (gv$sysstat on RAC), or an AWR snapshot when target.useAwr. */
  private async tpm(): Promise<number> {
    const s = await this.sys();
    if (this.t.useAwr) {
      const snap = await this.step('taking an AWR snapshot (Diagnostics Pack)', () =>
        s.execute(this.sql.get('counters', 'awr_snapshot'), { snap_id: { dir: s.lib.BIND_OUT, type: s.lib.NUMBER } }),
      );
      const snapId = num(snap.outBinds?.['snap_id']);
      const rows = await this.step('reading dba_hist_sysstat', () => s.query(this.sql.get('counters', 'tpm_awr'), { snap_id: snapId }));
      return num(rows[0]?.['tpm']);
    }
    const stmt = (await this.isRac(s)) ? 'tpm_gv_sysstat' : 'tpm_sysstat';
    const rows = await this.step(`reading ${stmt === 'tpm_gv_sysstat' ? 'gv$sysstat' : 'v$sysstat'}`, () => s.query(this.sql.get('counters', stmt)));
    return num(rows[0]?.['tpm']);
  }

  async readCounters(): Promise<Counters> {
    const u = await this.user();
    const rows = await this.step('reading NOPM (sum of d_next_o_id)', () => u.query(this.sql.get('counters', 'nopm')));
    return { nopm: num(rows[0]?.['nopm']), tpm: await this.tpm() };
  }

  async afterRun(): Promise<void> {
    if (!this.t.checkpoint) return;
    const s = await this.sys();
    this.log('ALTER SYSTEM CHECKPOINT');
    await this.step('ALTER SYSTEM CHECKPOINT', () => s.execute(this.sql.get('counters', 'checkpoint')));
  }

  async close(): Promise<void> {
    const conns = [this.owner, this.system];
    this.owner = undefined;
    this.system = undefined;
    await Promise.all(conns.map((p) => p?.then((c) => c.close()).catch(() => undefined)));
  }
}
