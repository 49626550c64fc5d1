import { existsSync, rmSync } from 'node:fs';
import { splitSqlScript, type Logger, type TprochAdmin, type TprochBuildOptions, type TprochSchemaState } from '@sledge/core';
import { SledgeError, TPROCH_TABLES, type DuckdbTarget, type TprochTable } from '@sledge/protocol';
import { companionFiles, connect, isOpenHere, MEMORY, resolveFile, type Handle } from '../engine/connection.js';
import { api } from '../engine/library.js';
import { copyStatement, removeStaging, stagedFiles, stagingDir } from '../engine/loader.js';
import { schemaExistsError } from '../engine/schema-exists.js';
import { jsValue } from '../engine/values.js';
import { tprochScript, tprochSql, type TprochScript } from './sql.js';

/**
 * TPROC-H's admin session on a DuckDB file (target.file is the database:
 * createSchema creates it, dropSchema deletes it when it holds nothing
 * else), or on the thread's in-memory database (':memory:'). The file is
 * opened lazily and never created outside createSchema.
 */
class Admin implements TprochAdmin {
  private handle: Handle | undefined;
  private readonly file: string;

  constructor(
    private readonly target: DuckdbTarget,
    private readonly log: Logger,
  ) {
    this.file = resolveFile(target);
  }

  private async connection(mode: 'create' | 'existing' = 'existing'): Promise<Handle | undefined> {
    if (this.handle) return this.handle;
    if (mode === 'existing' && this.file !== MEMORY && !existsSync(this.file)) return undefined;
    this.handle = await connect(this.target, mode);
    return this.handle;
  }

  private async column(h: Handle, text: string): Promise<unknown[]> {
    const reader = await h.conn.runAndReadAll(text);
    return reader.getRows().map((r) => jsValue(r[0]));
  }

  private async tables(h: Handle): Promise<Set<string>> {
    return new Set((await this.column(h, tprochSql('admin.sql').schema_tables)).map(String));
  }

  private async schemaConnection(): Promise<Handle> {
    const h = await this.connection();
    if (!h || !(await this.tables(h)).has('supplier')) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `${this.file} has no TPROC-H schema: build the schema first.`, { field: 'target.file' });
    }
    return h;
  }

  /** A script's statements, one by one, in one transaction (all or none) unless it checkpoints. */
  private async runScript(h: Handle, file: TprochScript): Promise<void> {
    const statements = splitSqlScript(tprochScript(file));
    const atomic = !statements.some((s) => /^\s*CHECKPOINT\b/i.test(s));
    if (atomic) await h.conn.run('BEGIN TRANSACTION');
    try {
      for (const s of statements) await h.conn.run(s);
      if (atomic) await h.conn.run('COMMIT');
    } catch (e) {
      if (atomic) await h.conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  async serverVersion(): Promise<string> {
    const h = await this.connection();
    const v = h ? String((await this.column(h, tprochSql('admin.sql').server_version))[0]) : api().version();
    return v.replace(/^v/, '');
  }

  async schemaState(): Promise<TprochSchemaState> {
    const h = await this.connection();
    if (!h || !(await this.tables(h)).has('supplier')) return { exists: false, scaleFactor: 0 };
    const n = Number((await this.column(h, tprochSql('admin.sql').schema_suppliers))[0] ?? 0);
    return { exists: true, scaleFactor: n / 10000 };
  }

  async assertBuildable(): Promise<void> {
    const h = await this.connection();
    if (!h) return;
    if ((await this.tables(h)).size > 0) {
      throw schemaExistsError(this.file, 'tproch', (await this.column(h, tprochSql('admin.sql').file_tables)).map(String));
    }
  }

  async createSchema(o: TprochBuildOptions): Promise<void> {
    await this.assertBuildable();
    const h = (await this.connection('create'))!;
    // Rows a stopped build staged are not this build's.
    removeStaging(stagingDir(this.target));
    await this.runScript(h, 'tables.sql');
    this.log(`DuckDB ${await this.serverVersion()}: created the TPROC-H tables (SF ${o.scaleFactor}) in ${this.file}`);
  }

  async finishSchema(_o: TprochBuildOptions, step?: (what: string) => void): Promise<void> {
    const h = await this.schemaConnection();
    const dir = stagingDir(this.target);
    step?.('bulk load of the staged rows (COPY)');
    this.log(`Loading the staged rows from ${dir} (COPY)`);
    await h.conn.run('BEGIN TRANSACTION');
    try {
      for (const t of TPROCH_TABLES) if (stagedFiles(dir, t).length > 0) await h.conn.run(copyStatement(dir, t));
      await h.conn.run('COMMIT');
    } catch (e) {
      await h.conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
    removeStaging(dir);
    step?.('primary keys and foreign key indexes');
    this.log('Creating primary keys and foreign key indexes');
    await this.runScript(h, 'keys.sql');
    step?.('statistics');
    this.log('Gathering statistics (ANALYZE) and checkpointing');
    await this.runScript(h, 'statistics.sql');
    this.log('Keys and statistics done');
  }

  async rowCounts(): Promise<Record<TprochTable, number>> {
    const h = await this.schemaConnection();
    const out = Object.fromEntries(TPROCH_TABLES.map((t) => [t, 0])) as Record<TprochTable, number>;
    const reader = await h.conn.runAndReadAll(tprochSql('admin.sql').row_counts);
    for (const r of reader.getRows()) out[String(r[0]) as TprochTable] = Number(jsValue(r[1]));
    return out;
  }

  async dropSchema(): Promise<void> {
    removeStaging(stagingDir(this.target));
    const h = await this.connection();
    if (!h) {
      this.removeFiles(companionFiles(this.file));
      return;
    }
    const others = Number((await this.column(h, tprochSql('admin.sql').schema_other_objects))[0] ?? 0);
    this.handle = undefined;
    h.release();
    // Another session of this thread (a stream) still has the database open: drop the tables, keep the file.
    if (others === 0 && this.file !== MEMORY && !isOpenHere(this.file)) {
      this.removeFiles([this.file, ...companionFiles(this.file)]);
      this.log(`Deleted ${this.file}`);
      return;
    }
    const again = (await this.connection())!;
    await this.runScript(again, 'drop.sql');
    this.log(`Dropped the TPROC-H tables from ${this.file}${others > 0 ? ' (it holds other objects, so the file stays)' : ''}`);
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
    this.handle?.release();
    this.handle = undefined;
  }
}

export function openTprochAdmin(target: DuckdbTarget, log: Logger): TprochAdmin {
  return new Admin(target, log);
}
