import type { Logger, TprochAdmin, TprochBuildOptions, TprochSchemaState } from '@sledge/core';
import { SledgeError, TPROCH_TABLES, type Db2Target, type TprochTable } from '@sledge/protocol';
import { Db2Session } from '../engine/connection.js';
import { dbError, sqlState } from '../engine/errors.js';
import { identifier } from '../engine/sql-text.js';
import { versionFromServiceLevel } from '../engine/version.js';
import { DB2_TPROCH_SQL, db2TprochSql, type Db2TprochSql } from './sqlfiles.js';

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** The part of a Db2Session the admin session uses. */
export type AdminConn = Pick<Db2Session, 'query' | 'exec' | 'close'>;
export type AdminOpener = () => Promise<AdminConn>;

/** The TPROC-H schema on Db2: the connecting user's name, upper case (Db2 folds ordinary identifiers). */
export function tprochSchema(t: Db2Target): string {
  return identifier(t.user, 'target.user').toUpperCase();
}

/**
 * The TPROC-H admin session on Db2: one connection to target.database
 * (which must exist: Db2 creates databases with the CLP, not SQL). The
 * tables live in the schema named after the user, created when missing.
 */
export class Db2TprochAdmin implements TprochAdmin {
  private session: Promise<AdminConn> | undefined;
  private readonly schema: string;
  private readonly open: AdminOpener;

  constructor(
    t: Db2Target,
    private readonly log: Logger,
    open?: AdminOpener,
    private readonly sql: Db2TprochSql = db2TprochSql,
  ) {
    this.schema = tprochSchema(t);
    this.open = open ?? (() => Db2Session.open(t));
  }

  private conn(): Promise<AdminConn> {
    if (!this.session) {
      this.session = this.open().then(async (c) => {
        await c.exec(this.sql.get('admin', 'set_schema', { schema: this.schema }));
        return c;
      });
      this.session.catch(() => (this.session = undefined));
    }
    return this.session;
  }

  /** The connection, or null when target.database does not exist. */
  private async connIfDatabase(): Promise<AdminConn | null> {
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

  private async supplierExists(c: AdminConn): Promise<boolean> {
    const rows = await this.step('looking up the SUPPLIER table', () => c.query(this.sql.get('admin', 'supplier_exists'), [this.schema]));
    return num(rows[0]?.['n']) > 0;
  }

  async schemaState(): Promise<TprochSchemaState> {
    const c = await this.connIfDatabase();
    if (!c || !(await this.supplierExists(c))) return { exists: false, scaleFactor: 0 };
    const rows = await this.step('counting SUPPLIER', () => c.query(this.sql.get('admin', 'supplier_count')));
    return { exists: true, scaleFactor: num(rows[0]?.['n']) / 10000 };
  }

  async assertBuildable(): Promise<void> {
    const c = await this.conn();
    if (await this.supplierExists(c)) {
      throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `schema ${this.schema} already holds TPROC-H tables: delete the schema first`, { field: 'target.user' });
    }
  }

  async createSchema(o: TprochBuildOptions): Promise<void> {
    await this.assertBuildable();
    const c = await this.conn();
    const s = await this.step('looking up the schema', () => c.query(this.sql.get('admin', 'schema_exists'), [this.schema]));
    if (num(s[0]?.['n']) === 0) {
      this.log(`Creating schema ${this.schema}`);
      await this.step(`CREATE SCHEMA ${this.schema}`, () => c.exec(this.sql.get('admin', 'create_schema', { schema: this.schema })));
    }
    this.log(`Creating TPROC-H tables for scale factor ${o.scaleFactor} in schema ${this.schema}`);
    for (const st of this.sql.script('tables')) await this.step(`creating table ${st.name}`, () => c.exec(st.sql));
  }

  async finishSchema(o: TprochBuildOptions, step?: (what: string) => void): Promise<void> {
    const c = await this.conn();
    step?.('primary keys, foreign keys and their indexes');
    this.log(`Creating primary keys, foreign keys and indexes (scale factor ${o.scaleFactor})`);
    for (const st of this.sql.script('keys')) await this.step(`key step ${st.name}`, () => c.exec(st.sql));
    step?.('statistics');
    this.log('RUNSTATS on the TPROC-H tables');
    for (const table of TPROCH_TABLES) {
      await this.step(`RUNSTATS ${table}`, () => c.exec(this.sql.get('statistics', 'runstats', { schema: this.schema, table: table.toUpperCase() })));
    }
  }

  async rowCounts(): Promise<Record<TprochTable, number>> {
    const c = await this.conn();
    const out = {} as Record<TprochTable, number>;
    for (const table of TPROCH_TABLES) {
      const rows = await this.step(`counting ${table}`, () => c.query(this.sql.get('admin', 'row_count', { table })));
      out[table] = num(rows[0]?.['n']);
    }
    return out;
  }

  /** Drop the eight tables; tables already gone (SQLSTATE 42704) are skipped. The database and the schema stay. */
  async dropSchema(): Promise<void> {
    const c = await this.connIfDatabase();
    if (!c) return;
    this.log(`Dropping the TPROC-H tables of schema ${this.schema}`);
    for (const name of DB2_TPROCH_SQL.drop) {
      try {
        await c.exec(this.sql.get('drop', name));
      } catch (e) {
        if (sqlState(e) !== '42704') throw dbError(e, name.replace(/_/g, ' '));
      }
    }
  }

  async close(): Promise<void> {
    const s = this.session;
    this.session = undefined;
    await s?.then((c) => c.close()).catch(() => undefined);
  }
}
