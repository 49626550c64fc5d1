import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { Logger, TprochAdmin, TprochBuildOptions, TprochSchemaState } from '@sledge/core';
import { SledgeError, TPROCH_TABLES, type TprochTable } from '@sledge/protocol';
import { connect } from '../engine/connect.js';
import { ER, connectError, errnoOf, messageOf } from '../engine/errors.js';
import type { Flavour, MyTarget } from '../engine/flavour.js';
import { quoteIdent } from '../engine/sql-text.js';
import type { TprochSqlSet } from './sql.js';

/**
 * TPROC-H's admin session on MySQL/MariaDB: it connects without a default
 * database (the database may not exist yet), creates target.database
 * (HammerDB's tpch) and the tables in it, and drops the database whole;
 * after a failed build, only the database this session created.
 */
export class MyTprochAdmin implements TprochAdmin {
  private pending: Promise<Connection> | undefined;
  /** createSchema created target.database in this session (a failed build drops it: discardCreated). */
  private createdDatabase = false;

  constructor(
    private readonly t: MyTarget,
    private readonly flavour: Flavour,
    private readonly sql: TprochSqlSet,
    private readonly log: Logger,
  ) {}

  private conn(): Promise<Connection> {
    this.pending ??= connect(this.t, this.flavour, { useDatabase: false, role: 'admin' }).catch((e: unknown) => {
      this.pending = undefined;
      throw e;
    });
    return this.pending;
  }

  private async guard<R>(doing: string, f: () => Promise<R>): Promise<R> {
    try {
      return await f();
    } catch (e) {
      throw connectError(e, this.t, this.flavour.display) ?? new SledgeError('SLEDGE_E_DB', `${this.flavour.display} failed while ${doing}: ${messageOf(e)}`, { cause: e });
    }
  }

  private async rows(name: string, params?: unknown[]): Promise<RowDataPacket[]> {
    const [rows] = await (await this.conn()).query<RowDataPacket[]>(this.sql.statement('admin.sql', name, { database: quoteIdent(this.t.database) }), params);
    return rows;
  }

  private async script(file: 'tables.sql' | 'keys.sql' | 'statistics.sql' | 'drop.sql'): Promise<void> {
    const c = await this.conn();
    for (const s of this.sql.script(file)) await c.query(s);
  }

  /** USE target.database; false when it does not exist. */
  private async select(): Promise<boolean> {
    try {
      await (await this.conn()).query(`USE ${quoteIdent(this.t.database)}`);
      return true;
    } catch (e) {
      if (errnoOf(e) === ER.BAD_DB) return false;
      throw e;
    }
  }

  private async tables(): Promise<string[]> {
    return (await this.rows('tables', [this.t.database])).map((r) => String(r.name));
  }

  private async requireSchema(): Promise<void> {
    if (!(await this.select()) || !(await this.tables()).includes('supplier')) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `${this.flavour.display} database '${this.t.database}' has no TPROC-H schema: build the schema first.`, {
        field: 'target.database',
      });
    }
  }

  serverVersion(): Promise<string> {
    return this.guard('reading the server version', async () => String((await this.rows('version'))[0]?.version ?? '').split('-')[0]!);
  }

  schemaState(): Promise<TprochSchemaState> {
    return this.guard('reading the schema state', async () => {
      if (!(await this.select()) || !(await this.tables()).includes('supplier')) return { exists: false, scaleFactor: 0 };
      return { exists: true, scaleFactor: Number((await this.rows('suppliers'))[0]?.n ?? 0) / 10000 };
    });
  }

  assertBuildable(): Promise<void> {
    return this.guard('checking the target before a build', async () => {
      if (Number((await this.rows('database_exists', [this.t.database]))[0]?.n ?? 0) > 0) {
        throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `${this.flavour.display} database '${this.t.database}' already exists: drop the schema first or choose another target.database.`, {
          field: 'target.database',
        });
      }
    });
  }

  async createSchema(o: TprochBuildOptions): Promise<void> {
    await this.assertBuildable();
    await this.guard('creating the schema', async () => {
      this.log(`Creating database ${this.t.database}`);
      await this.rows('create_database');
      this.createdDatabase = true;
      await this.select();
      this.log(`Creating the TPROC-H tables (SF ${o.scaleFactor})`);
      await this.script('tables.sql');
    });
  }

  async finishSchema(_o: TprochBuildOptions, step?: (what: string) => void): Promise<void> {
    await this.guard('finishing the schema', async () => {
      await this.requireSchema();
      step?.('primary keys, foreign key indexes and foreign keys');
      this.log('Adding primary keys, foreign key indexes and foreign keys');
      await this.script('keys.sql');
      step?.('statistics');
      this.log('Gathering statistics (ANALYZE TABLE)');
      await this.script('statistics.sql');
    });
  }

  rowCounts(): Promise<Record<TprochTable, number>> {
    return this.guard('counting rows', async () => {
      await this.requireSchema();
      const out = Object.fromEntries(TPROCH_TABLES.map((t) => [t, 0])) as Record<TprochTable, number>;
      for (const r of await this.rows('row_counts')) out[String(r.t) as TprochTable] = Number(r.n);
      return out;
    });
  }

  dropSchema(): Promise<void> {
    return this.guard('dropping the schema', async () => {
      if (Number((await this.rows('database_exists', [this.t.database]))[0]?.n ?? 0) === 0) return;
      this.log(`Dropping database ${this.t.database}`);
      await this.rows('drop_database');
    });
  }

  /**
   * After a failed build: the database this session created (a database that
   * existed before stays, as does target.user: builds never create users).
   */
  discardCreated(): Promise<string[]> {
    return this.guard('dropping what the failed build created', async () => {
      if (!this.createdDatabase) return [];
      this.log(`Dropping database ${this.t.database}`);
      await this.rows('drop_database');
      this.createdDatabase = false;
      return [`database ${this.t.database}`];
    });
  }

  async close(): Promise<void> {
    const p = this.pending;
    this.pending = undefined;
    if (p) await (await p.catch(() => undefined))?.end().catch(() => undefined);
  }
}
