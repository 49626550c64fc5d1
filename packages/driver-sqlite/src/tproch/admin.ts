import { existsSync, rmSync } from 'node:fs';
import type { Logger, TprochAdmin, TprochBuildOptions, TprochSchemaState } from '@sledge/core';
import { SledgeError, TPROCH_TABLES, type SqliteTarget, type TprochTable } from '@sledge/protocol';
import { ADMIN_TUNING, CREATE_TUNING, companionFiles, isCorrupt, openExisting, openForCreate, resolveFile } from '../engine/connection.js';
import { dbConstructor, type Db } from '../engine/library.js';
import { schemaExistsError } from '../engine/schema-exists.js';
import { tprochScript, tprochSql, type TprochScript } from './sql.js';

/** Run a schema script as one transaction: all of it or none. */
function execScript(db: Db, file: TprochScript): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(tprochScript(file));
    db.exec('COMMIT');
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

/**
 * TPROC-H's admin session on a SQLite file (target.file is the database:
 * createSchema creates it, dropSchema deletes it when it holds nothing
 * else). The file is opened lazily and never created outside createSchema.
 */
class Admin implements TprochAdmin {
  private db: Db | undefined;
  private readonly file: string;

  constructor(
    private readonly target: SqliteTarget,
    private readonly log: Logger,
  ) {
    this.file = resolveFile(target);
  }

  private connection(): Db | undefined {
    if (this.db?.open) return this.db;
    this.db = undefined;
    if (!existsSync(this.file)) return undefined;
    this.db = openExisting(this.target, ADMIN_TUNING);
    return this.db;
  }

  private tables(db: Db): Set<string> {
    return new Set(db.prepare<[], string>(tprochSql('admin.sql').schema_tables).pluck().all());
  }

  private schemaConnection(): Db {
    const db = this.connection();
    if (!db || !this.tables(db).has('supplier')) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `${this.file} has no TPROC-H schema: build the schema first.`, { field: 'target.file' });
    }
    return db;
  }

  async serverVersion(): Promise<string> {
    const mem = new (dbConstructor())(':memory:');
    try {
      return mem.prepare<[], string>(tprochSql('admin.sql').server_version).pluck().get() ?? 'unknown';
    } finally {
      mem.close();
    }
  }

  async schemaState(): Promise<TprochSchemaState> {
    const db = this.connection();
    if (!db || !this.tables(db).has('supplier')) return { exists: false, scaleFactor: 0 };
    const n = db.prepare<[], number>(tprochSql('admin.sql').schema_suppliers).pluck().get() ?? 0;
    return { exists: true, scaleFactor: n / 10000 };
  }

  async assertBuildable(): Promise<void> {
    const db = this.connection();
    if (!db) return;
    const present = this.tables(db);
    if (present.size > 0) throw schemaExistsError(this.file, 'tproch', db.prepare<[], string>(tprochSql('admin.sql').file_tables).pluck().all());
  }

  async createSchema(o: TprochBuildOptions): Promise<void> {
    await this.assertBuildable();
    const db = this.connection() ?? (this.db = openForCreate(this.target, CREATE_TUNING));
    execScript(db, 'tables.sql');
    this.log(`SQLite ${await this.serverVersion()}: created the TPROC-H tables (SF ${o.scaleFactor}) in ${this.file}`);
  }

  async finishSchema(_o: TprochBuildOptions, step?: (what: string) => void): Promise<void> {
    const db = this.schemaConnection();
    step?.('primary keys and foreign key indexes');
    this.log('Creating primary keys and foreign key indexes');
    execScript(db, 'keys.sql');
    step?.('statistics');
    this.log('Gathering statistics (ANALYZE)');
    db.exec(tprochScript('statistics.sql'));
    this.log('Keys and statistics done');
  }

  async rowCounts(): Promise<Record<TprochTable, number>> {
    const db = this.schemaConnection();
    const out = Object.fromEntries(TPROCH_TABLES.map((t) => [t, 0])) as Record<TprochTable, number>;
    for (const r of db.prepare<[], { t: TprochTable; n: number }>(tprochSql('admin.sql').row_counts).all()) out[r.t] = r.n;
    return out;
  }

  async dropSchema(): Promise<void> {
    let db: Db | undefined;
    try {
      db = this.connection();
    } catch (e) {
      if (!isCorrupt(e)) throw e;
      this.removeFiles([this.file, ...companionFiles(this.file)]);
      this.log(`Deleted ${this.file}: the file was damaged`);
      return;
    }
    if (!db) {
      this.removeFiles(companionFiles(this.file));
      return;
    }
    const others = db.prepare<[], number>(tprochSql('admin.sql').schema_other_objects).pluck().get() ?? 0;
    if (others === 0) {
      db.close();
      this.db = undefined;
      this.removeFiles([this.file, ...companionFiles(this.file)]);
      this.log(`Deleted ${this.file}`);
      return;
    }
    execScript(db, 'drop.sql');
    db.pragma('wal_checkpoint(TRUNCATE)');
    this.log(`Dropped the TPROC-H tables from ${this.file} (it holds other objects, so the file stays)`);
  }

  private removeFiles(files: string[]): void {
    for (const f of files) {
      try {
        rmSync(f, { force: true });
      } catch (e) {
        throw new SledgeError('SLEDGE_E_CONNECT', `Cannot delete ${f} (${e instanceof Error ? e.message : String(e)}).`, { field: 'target.file', cause: e });
      }
    }
  }

  async close(): Promise<void> {
    if (this.db?.open) this.db.close();
    this.db = undefined;
  }
}

export function openTprochAdmin(target: SqliteTarget, log: Logger): TprochAdmin {
  return new Admin(target, log);
}
