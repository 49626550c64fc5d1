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
import { SledgeError, TPROCC_TABLES, type Db2Target, type TproccTable } from '@sledge/protocol';

type Db2TproccTarget = TproccTarget<Db2Target>;
import { Db2Session, type Row } from '../engine/connection.js';
import { dbError, sqlState } from '../engine/errors.js';
import { identifier } from '../engine/sql-text.js';
import { versionFromServiceLevel } from '../engine/version.js';
import { DB2_SQL, db2Sql, type Db2Sql, type SqlName, type SqlVars } from './sqlfiles.js';

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const names = (rows: Row[]): Set<string> => new Set(rows.map((r) => String(r['name'])));

/** The CREATE TABLE statements and their variables for W warehouses: ORDER_LINE range-partitioned only when asked and W >= 200. */
export function tableStatements(t: Db2TproccTarget, W: number): { names: SqlName<'tables'>[]; vars: SqlVars } {
  const partitions = orderLinePartitions(W, t.partition);
  const base = DB2_SQL.tables.filter((n) => n !== 'order_line' && n !== 'order_line_partitioned');
  const size = partitions > 0 ? Math.ceil(W / partitions) : W;
  const vars: SqlVars = {
    tablespace: identifier(t.tablespace, 'tprocc.schema.tablespace'),
    partition_size: size,
    partition_end: partitions > 0 ? partitions * size : W,
  };
  return { names: [...base, partitions > 0 ? 'order_line_partitioned' : 'order_line'], vars };
}

/**
 * The monitor/admin session: one connection as the TPROC-C user to
 * target.database (which must exist: Db2 creates databases with the CLP,
 * not SQL). It opens on first use.
 */
export class Db2Admin implements AdminSession {
  private session: Promise<Db2Session> | undefined;

  constructor(
    private readonly t: Db2TproccTarget,
    private readonly log: Logger,
    private readonly sql: Db2Sql = db2Sql,
  ) {
    identifier(t.tablespace, 'tprocc.schema.tablespace');
  }

  private conn(): Promise<Db2Session> {
    if (!this.session) {
      this.session = Db2Session.open(this.t);
      this.session.catch(() => (this.session = undefined));
    }
    return this.session;
  }

  /** The connection, or null when target.database does not exist. */
  private async connIfDatabase(): Promise<Db2Session | null> {
    try {
      return await this.conn();
    } catch (e) {
      if (SledgeError.is(e) && e.code === 'SLEDGE_E_CONNECT' && e.field === 'target.database') return null;
      throw e;
    }
  }

  private async step<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw dbError(e, what);
    }
  }

  async serverVersion(): Promise<string> {
    const c = await this.conn();
    const rows = await this.step('reading the server version', () => c.query(this.sql.get('admin', 'server_version')));
    return versionFromServiceLevel(String(rows[0]?.['version'] ?? ''));
  }

  private async warehouseExists(c: Db2Session): Promise<boolean> {
    const rows = await this.step('looking up the WAREHOUSE table', () => c.query(this.sql.get('admin', 'warehouse_table_exists')));
    return num(rows[0]?.['n']) > 0;
  }

  private async maxWarehouse(c: Db2Session): Promise<number> {
    const rows = await this.step('reading max(w_id)', () => c.query(this.sql.get('admin', 'max_warehouse')));
    return num(rows[0]?.['w']);
  }

  async schemaState(): Promise<SchemaState> {
    const c = await this.connIfDatabase();
    if (!c || !(await this.warehouseExists(c))) return { exists: false, warehouses: 0 };
    return { exists: true, warehouses: await this.maxWarehouse(c) };
  }

  async createSchema(o: BuildOptions): Promise<void> {
    const c = await this.conn();
    if (await this.warehouseExists(c)) {
      throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `the schema of ${this.t.user} in ${this.t.database} already holds TPROC-C tables: delete the schema first`, { field: 'target.database' });
    }
    const { names: tables, vars } = tableStatements(this.t, o.warehouses);
    this.log(`Creating TPROC-C tables for ${o.warehouses} warehouse(s) in tablespace ${this.t.tablespace}`);
    for (const s of this.sql.script('tables', tables, vars)) await this.step(`creating table ${s.name}`, () => c.exec(s.sql));
  }

  async finishSchema(o: BuildOptions): Promise<void> {
    const c = await this.conn();
    this.log(`Creating keys and indexes (${o.warehouses} warehouse(s))`);
    for (const s of this.sql.script('indexes', DB2_SQL.indexes)) await this.step(`index step ${s.name}`, () => c.exec(s.sql));
    const schemaRows = await this.step('reading CURRENT SCHEMA', () => c.query(this.sql.get('admin', 'current_schema')));
    const schema = String(schemaRows[0]?.['schema_name'] ?? this.t.user.toUpperCase()).trim();
    this.log('Collecting statistics (RUNSTATS)');
    for (const table of TPROCC_TABLES) {
      await this.step(`RUNSTATS on ${table}`, () => c.exec(this.sql.get('counters', 'runstats', { schema, table: table.toUpperCase() })));
    }
    this.log('Creating SQL PL procedures');
    for (const s of this.sql.script('procedures', DB2_SQL.procedures)) await this.step(`creating ${s.name}`, () => c.exec(s.sql));
  }

  async checkFacts(sample: number[]): Promise<CheckFacts> {
    const facts: CheckFacts = { databaseExists: false, tables: {}, maxWarehouse: null, indexed: {}, rowCounts: {}, routines: {}, warehouses: [] };
    const c = await this.connIfDatabase();
    if (!c) return facts;
    const q = (what: string, sql: string, params: number[] = []) => this.step(what, () => c.query(sql, params));
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
    if (tables.has('warehouse')) facts.maxWarehouse = await this.maxWarehouse(c);
    const needed: TproccTable[] = ['warehouse', 'district', 'orders', 'new_order', 'order_line'];
    if (needed.every((t) => tables.has(t))) {
      for (const w of sample) {
        const wy = await q(`reading warehouse ${w}`, this.sql.get('check', 'warehouse_ytd'), [w]);
        if (!wy[0]) continue;
        const ds = await q(`reading districts of warehouse ${w}`, this.sql.get('check', 'district_facts'), [w]);
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

  /** Drop procedures and tables; objects already gone (SQLSTATE 42704) are skipped. The database stays. */
  async dropSchema(): Promise<void> {
    const c = await this.connIfDatabase();
    if (!c) return;
    this.log(`Dropping the TPROC-C procedures and tables of ${this.t.user} in ${this.t.database}`);
    for (const s of this.sql.script('drop', DB2_SQL.drop)) {
      try {
        await c.exec(s.sql);
      } catch (e) {
        if (sqlState(e) !== '42704') throw dbError(e, s.name.replace(/_/g, ' '));
      }
    }
  }

  async readCounters(): Promise<Counters> {
    const c = await this.conn();
    const n = await this.step('reading NOPM (sum of d_next_o_id)', () => c.query(this.sql.get('counters', 'nopm')));
    const t = await this.step('reading sysibmadm.mon_db_summary', () => c.query(this.sql.get('counters', 'tpm')));
    return { nopm: num(n[0]?.['nopm']), tpm: num(t[0]?.['tpm']) };
  }

  /** Db2 targets ask for no post-run maintenance. */
  async afterRun(): Promise<void> {}

  async close(): Promise<void> {
    const s = this.session;
    this.session = undefined;
    await s?.then((c) => c.close()).catch(() => undefined);
  }
}
