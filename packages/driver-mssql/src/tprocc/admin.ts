import { TPROCC_ROUTINES, type AdminSession, type BuildOptions, type CheckFacts, type Counters, type DistrictFacts, type Logger, type SchemaState, type WarehouseFacts } from '@sledge/core';
import { SledgeError, TPROCC_TABLES, type MssqlTarget, type TproccTable } from '@sledge/protocol';
import { TdsConnection, type Row } from '../engine/connection.js';
import { dbError } from '../engine/errors.js';
import { identifier } from '../engine/sql-text.js';
import { mssqlSql, type MssqlSql } from './sqlfiles.js';

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const names = (rows: Row[]): Set<string> => new Set(rows.map((r) => String(r['name'])));

/**
 * The monitor/admin session. Server-level work (CREATE/DROP DATABASE,
 * version, does the database exist) runs on a connection to master; schema
 * work, counters and checks on a connection to the TPROC-C database. Both
 * open on first use.
 */
export class MssqlAdmin implements AdminSession {
  private master: Promise<TdsConnection> | undefined;
  private db: Promise<TdsConnection> | undefined;
  private readonly database: string;

  constructor(
    private readonly t: MssqlTarget,
    private readonly log: Logger,
    private readonly sql: MssqlSql = mssqlSql,
  ) {
    this.database = identifier(t.database, 'target.database');
  }

  private masterConn(): Promise<TdsConnection> {
    if (!this.master) {
      this.master = TdsConnection.open(this.t, { database: 'master', appName: 'sledge-admin' });
      this.master.catch(() => (this.master = undefined));
    }
    return this.master;
  }

  private dbConn(): Promise<TdsConnection> {
    if (!this.db) {
      this.db = TdsConnection.open(this.t, { database: this.database, appName: 'sledge-monitor' });
      this.db.catch(() => (this.db = undefined));
    }
    return this.db;
  }

  private async step<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw dbError(e, what);
    }
  }

  async serverVersion(): Promise<string> {
    const m = await this.masterConn();
    const rows = await this.step('reading the server version', () => m.query(this.sql.get('admin', 'server_version')));
    return String(rows[0]?.['version'] ?? '');
  }

  private async databaseExists(): Promise<boolean> {
    const m = await this.masterConn();
    const rows = await this.step('looking up the database', () =>
      m.query(this.sql.get('admin', 'database_exists'), [{ name: 'database', type: 'varchar', value: this.database, length: 128 }]),
    );
    return num(rows[0]?.['present']) === 1;
  }

  private async warehouseTableExists(db: TdsConnection): Promise<boolean> {
    const rows = await this.step('looking up the WAREHOUSE table', () => db.query(this.sql.get('admin', 'warehouse_table_exists')));
    return num(rows[0]?.['present']) === 1;
  }

  private async maxWarehouse(db: TdsConnection): Promise<number> {
    const rows = await this.step('reading max(w_id)', () => db.query(this.sql.get('admin', 'max_warehouse')));
    return num(rows[0]?.['w']);
  }

  async schemaState(): Promise<SchemaState> {
    if (!(await this.databaseExists())) return { exists: false, warehouses: 0 };
    const db = await this.dbConn();
    if (!(await this.warehouseTableExists(db))) return { exists: false, warehouses: 0 };
    return { exists: true, warehouses: await this.maxWarehouse(db) };
  }

  async createSchema(o: BuildOptions): Promise<void> {
    if (!(await this.databaseExists())) {
      this.log(`Creating database ${this.database}`);
      const m = await this.masterConn();
      await this.step(`CREATE DATABASE ${this.database}`, () => m.exec(this.sql.get('admin', 'create_database', { database: this.database })));
    }
    const db = await this.dbConn();
    if (await this.warehouseTableExists(db)) {
      throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `database ${this.database} already holds TPROC-C tables: delete the schema first`, { field: 'target.database' });
    }
    this.log(`Creating TPROC-C tables for ${o.warehouses} warehouse(s) in ${this.database}`);
    for (const s of this.sql.script('tables')) await this.step(`creating table ${s.name}`, () => db.exec(s.sql));
  }

  async finishSchema(o: BuildOptions): Promise<void> {
    const db = await this.dbConn();
    this.log(`Creating secondary indexes and statistics (${o.warehouses} warehouse(s))`);
    for (const s of this.sql.script('indexes')) await this.step(`index step ${s.name}`, () => db.exec(s.sql));
    this.log('Creating stored procedures');
    for (const s of this.sql.script('procedures')) await this.step(`creating ${s.name}`, () => db.exec(s.sql));
  }

  async checkFacts(sample: number[]): Promise<CheckFacts> {
    const facts: CheckFacts = { databaseExists: false, tables: {}, maxWarehouse: null, indexed: {}, rowCounts: {}, routines: {}, warehouses: [] };
    if (!(await this.databaseExists())) return facts;
    const db = await this.dbConn();
    const q = (what: string, sql: string, params: Parameters<TdsConnection['query']>[1] = []) => this.step(what, () => db.query(sql, params));
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
    for (const t of present) {
      const rows = await q(`counting ${t}`, this.sql.get('check', 'row_count', { table: t }));
      facts.rowCounts[t] = num(rows[0]?.['n']);
    }
    if (tables.has('warehouse')) facts.maxWarehouse = await this.maxWarehouse(db);
    const needed: TproccTable[] = ['warehouse', 'district', 'orders', 'new_order', 'order_line'];
    if (needed.every((t) => tables.has(t))) {
      for (const w of sample) {
        const wp = [{ name: 'w', type: 'int' as const, value: w }];
        const wy = await q(`reading warehouse ${w}`, this.sql.get('check', 'warehouse_ytd'), wp);
        if (!wy[0]) continue;
        const ds = await q(`reading districts of warehouse ${w}`, this.sql.get('check', 'district_facts'), wp);
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
        const wf: WarehouseFacts = { w, w_ytd: num(wy[0]['w_ytd']), sum_d_ytd: num(wy[0]['sum_d_ytd']), districts };
        facts.warehouses.push(wf);
      }
    }
    return facts;
  }

  async dropSchema(): Promise<void> {
    if (this.db) {
      const db = this.db;
      this.db = undefined;
      await db.then((c) => c.close()).catch(() => undefined);
    }
    if (!(await this.databaseExists())) return;
    this.log(`Dropping database ${this.database}`);
    const m = await this.masterConn();
    await this.step(`DROP DATABASE ${this.database}`, () => m.exec(this.sql.get('drop', 'drop_database', { database: this.database })));
  }

  async readCounters(): Promise<Counters> {
    const db = await this.dbConn();
    const n = await this.step('reading NOPM (sum of d_next_o_id)', () => db.query(this.sql.get('counters', 'nopm')));
    const t = await this.step("reading 'Batch Requests/sec' (needs VIEW SERVER STATE)", () => db.query(this.sql.get('counters', 'tpm')));
    const raw = t[0]?.['tpm'];
    const tpm = raw === undefined || raw === null ? null : Number(raw);
    return { nopm: num(n[0]?.['nopm']), tpm: tpm === null || Number.isFinite(tpm) ? tpm : null };
  }

  async afterRun(): Promise<void> {
    if (!this.t.checkpoint) return;
    const db = await this.dbConn();
    this.log(`CHECKPOINT ${this.database}`);
    await this.step('CHECKPOINT', () => db.exec(this.sql.get('counters', 'checkpoint')));
  }

  async close(): Promise<void> {
    const conns = [this.db, this.master];
    this.db = undefined;
    this.master = undefined;
    await Promise.all(conns.map((p) => p?.then((c) => c.close()).catch(() => undefined)));
  }
}
