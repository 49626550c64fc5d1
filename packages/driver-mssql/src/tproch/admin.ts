import type { Logger, TprochAdmin, TprochBuildOptions, TprochSchemaState } from '@sledge/core';
import { SledgeError, TPROCH_TABLES, type MssqlTarget, type TprochTable } from '@sledge/protocol';
import { TdsConnection } from '../engine/connection.js';
import { dbError } from '../engine/errors.js';
import { identifier } from '../engine/sql-text.js';
import { mssqlTprochSql, type MssqlTprochSql } from './sqlfiles.js';

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** The part of a tedious connection the admin session uses. */
export type AdminConn = Pick<TdsConnection, 'query' | 'exec' | 'close'>;
/** Opens a connection to a database (master or the TPROC-H one) under an application name. */
export type AdminOpener = (database: string, appName: string) => Promise<AdminConn>;

/**
 * The TPROC-H admin session on SQL Server: CREATE/DROP DATABASE and the
 * version on master, tables, keys, statistics and counts in the TPROC-H
 * database (target.database, tpch by default). Connections open on first use.
 */
export class MssqlTprochAdmin implements TprochAdmin {
  private master: Promise<AdminConn> | undefined;
  private db: Promise<AdminConn> | undefined;
  private readonly database: string;
  private readonly open: AdminOpener;

  constructor(
    t: MssqlTarget,
    private readonly log: Logger,
    open?: AdminOpener,
    private readonly sql: MssqlTprochSql = mssqlTprochSql,
  ) {
    this.database = identifier(t.database, 'target.database');
    this.open = open ?? ((database, appName) => TdsConnection.open(t, { database, appName }));
  }

  private masterConn(): Promise<AdminConn> {
    if (!this.master) {
      this.master = this.open('master', 'sledge-tproch-admin');
      this.master.catch(() => (this.master = undefined));
    }
    return this.master;
  }

  private dbConn(): Promise<AdminConn> {
    if (!this.db) {
      this.db = this.open(this.database, 'sledge-tproch-monitor');
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

  private async supplierExists(db: AdminConn): Promise<boolean> {
    const rows = await this.step('looking up the SUPPLIER table', () => db.query(this.sql.get('admin', 'supplier_exists')));
    return num(rows[0]?.['present']) === 1;
  }

  async schemaState(): Promise<TprochSchemaState> {
    if (!(await this.databaseExists())) return { exists: false, scaleFactor: 0 };
    const db = await this.dbConn();
    if (!(await this.supplierExists(db))) return { exists: false, scaleFactor: 0 };
    const rows = await this.step('counting SUPPLIER', () => db.query(this.sql.get('admin', 'supplier_count')));
    return { exists: true, scaleFactor: num(rows[0]?.['n']) / 10000 };
  }

  async assertBuildable(): Promise<void> {
    if (!(await this.databaseExists())) return;
    if (await this.supplierExists(await this.dbConn())) {
      throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `database ${this.database} already holds TPROC-H tables: delete the schema first`, { field: 'target.database' });
    }
  }

  async createSchema(o: TprochBuildOptions): Promise<void> {
    if (!(await this.databaseExists())) {
      this.log(`Creating database ${this.database}`);
      const m = await this.masterConn();
      await this.step(`CREATE DATABASE ${this.database}`, () => m.exec(this.sql.get('admin', 'create_database', { database: this.database })));
    }
    await this.assertBuildable();
    const db = await this.dbConn();
    this.log(`Creating TPROC-H tables for scale factor ${o.scaleFactor} in ${this.database}`);
    for (const s of this.sql.script('tables')) await this.step(`creating table ${s.name}`, () => db.exec(s.sql));
  }

  async finishSchema(o: TprochBuildOptions, step?: (what: string) => void): Promise<void> {
    const db = await this.dbConn();
    step?.('primary keys, foreign keys and their indexes');
    this.log(`Creating primary keys, foreign keys and indexes (scale factor ${o.scaleFactor})`);
    for (const s of this.sql.script('keys')) await this.step(`key step ${s.name}`, () => db.exec(s.sql));
    step?.('statistics');
    this.log('Updating statistics');
    for (const table of TPROCH_TABLES) {
      await this.step(`UPDATE STATISTICS ${table}`, () => db.exec(this.sql.get('statistics', 'update_statistics', { table })));
    }
  }

  async rowCounts(): Promise<Record<TprochTable, number>> {
    const db = await this.dbConn();
    const out = {} as Record<TprochTable, number>;
    for (const table of TPROCH_TABLES) {
      const rows = await this.step(`counting ${table}`, () => db.query(this.sql.get('admin', 'row_count', { table })));
      out[table] = num(rows[0]?.['n']);
    }
    return out;
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

  async close(): Promise<void> {
    const conns = [this.db, this.master];
    this.db = undefined;
    this.master = undefined;
    await Promise.all(conns.map((p) => p?.then((c) => c.close()).catch(() => undefined)));
  }
}


