import { existsSync, rmSync } from 'node:fs';
import { splitSqlScript, type Logger } from '@sledge/core';
import { SledgeError, type DuckdbTarget } from '@sledge/protocol';
import { companionFiles, connect, isOpenHere, MEMORY, resolveFile, type Handle } from './connection.js';
import { api } from './library.js';
import { copyStatement, removeStaging, stagedFiles, stagingDir, type StagedDelimiter } from './loader.js';
import { schemaExistsError } from './schema-exists.js';
import { jsValue } from './values.js';

type Param = string | number;

/** The scripts a workload's schema runs statement by statement (packages/sql/duckdb/<workload>/). */
export type SchemaScript = 'tables.sql' | 'keys.sql' | 'statistics.sql' | 'drop.sql';

/** The statements of a workload's admin.sql that every schema in a file reads. */
export interface FileSchemaSql {
  server_version: string;
  /** The workload's tables present in the main schema. */
  schema_tables: string;
  /** Every table of the main schema (what a build would clash with). */
  file_tables: string;
  /** Tables and views of the main schema that are not the workload's (none: dropSchema deletes the file). */
  schema_other_objects: string;
}

/** What a workload's schema in a DuckDB file is, for the engine-level admin. */
export interface FileSchema {
  /** The workload's id (protocol's), as schemaExistsMessage names it: 'tprocc'. */
  readonly workload: string;
  /** Its name in messages: 'TPROC-C'. */
  readonly display: string;
  /** The table whose presence means the schema is there ('warehouse', 'supplier'). */
  readonly marker: string;
  /** Its tables, in the order the staged rows are copied in. */
  readonly tables: readonly string[];
  /** How its loaders separate the staged values (engine/loader.ts). */
  readonly delimiter: StagedDelimiter;
  /** Its admin.sql's statements (read when first used). */
  readonly sql: () => FileSchemaSql;
  /** The text of one of its scripts. */
  readonly script: (file: SchemaScript) => string;
}

/**
 * A workload's admin session on a DuckDB file (target.file is the database:
 * createTables creates it, dropSchema deletes it when it holds nothing
 * else), or on the thread's in-memory database (':memory:'): what TPROC-C's
 * and TPROC-H's admins share. The file is opened lazily and never created
 * outside createTables. The workload's admin extends it with its own facts
 * (schema state, checks, counters).
 */
export class FileAdmin {
  private handle: Handle | undefined;
  protected readonly file: string;

  constructor(
    protected readonly target: DuckdbTarget,
    protected readonly log: Logger,
    protected readonly schema: FileSchema,
  ) {
    this.file = resolveFile(target);
  }

  /** The open database; undefined when the file does not exist and `mode` is 'existing'. */
  protected async connection(mode: 'create' | 'existing' = 'existing'): Promise<Handle | undefined> {
    if (this.handle) return this.handle;
    if (mode === 'existing' && this.file !== MEMORY && !existsSync(this.file)) return undefined;
    this.handle = await connect(this.target, mode);
    return this.handle;
  }

  /** A query's rows as JavaScript values. */
  protected async rows(h: Handle, text: string, params: Param[] = []): Promise<unknown[][]> {
    const reader = params.length ? await h.conn.runAndReadAll(text, params) : await h.conn.runAndReadAll(text);
    return reader.getRows().map((r) => r.map(jsValue));
  }

  /** A query's first column. */
  protected async column(h: Handle, text: string): Promise<unknown[]> {
    return (await this.rows(h, text)).map((r) => r[0]);
  }

  /** The workload's tables present in the file. */
  protected async tables(h: Handle): Promise<Set<string>> {
    return new Set((await this.column(h, this.schema.sql().schema_tables)).map(String));
  }

  /** Whether the open database holds the workload's schema (its marker table). */
  protected async hasSchema(h: Handle | undefined): Promise<boolean> {
    return h !== undefined && (await this.tables(h)).has(this.schema.marker);
  }

  /** The open database, which must hold the workload's schema. */
  protected async schemaConnection(): Promise<Handle> {
    const h = await this.connection();
    if (!h || !(await this.hasSchema(h))) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `${this.file} has no ${this.schema.display} schema: build the schema first.`, { field: 'target.file' });
    }
    return h;
  }

  /** A script's statements, one by one, in one transaction (all or none) unless it checkpoints. */
  protected async runScript(h: Handle, file: SchemaScript): Promise<void> {
    const statements = splitSqlScript(this.schema.script(file));
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
    const v = h ? String((await this.column(h, this.schema.sql().server_version))[0]) : api().version();
    return v.replace(/^v/, '');
  }

  async assertBuildable(): Promise<void> {
    const h = await this.connection();
    if (!h) return;
    if ((await this.tables(h)).size > 0) {
      throw schemaExistsError(this.file, this.schema.workload, (await this.column(h, this.schema.sql().file_tables)).map(String));
    }
  }

  /** Create the file (when it is new) and the workload's tables; `what` follows "created the <display> tables" in the log. */
  protected async createTables(what: string): Promise<void> {
    await this.assertBuildable();
    const h = (await this.connection('create'))!;
    // Rows a stopped build staged are not this build's.
    removeStaging(stagingDir(this.target));
    await this.runScript(h, 'tables.sql');
    this.log(`DuckDB ${await this.serverVersion()}: created the ${this.schema.display} tables (${what}) in ${this.file}`);
  }

  /**
   * The end of a build: every table's staged rows read in with one COPY each
   * (all or none), the staging directory removed, then keys.sql and
   * statistics.sql. `keys` names what keys.sql creates in the log; `step`
   * hears each phase.
   */
  protected async finishStaged(keys: string, step?: (what: string) => void): Promise<void> {
    const h = await this.schemaConnection();
    const dir = stagingDir(this.target);
    step?.('bulk load of the staged rows (COPY)');
    this.log(`Loading the staged rows from ${dir} (COPY)`);
    await h.conn.run('BEGIN TRANSACTION');
    try {
      for (const t of this.schema.tables) if (stagedFiles(dir, t).length > 0) await h.conn.run(copyStatement(dir, t, this.schema.delimiter));
      await h.conn.run('COMMIT');
    } catch (e) {
      await h.conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
    removeStaging(dir);
    step?.(keys);
    this.log(`Creating ${keys}`);
    await this.runScript(h, 'keys.sql');
    step?.('statistics');
    this.log('Gathering statistics (ANALYZE) and checkpointing');
    await this.runScript(h, 'statistics.sql');
    this.log('Keys and statistics done');
  }

  /**
   * Delete the schema: the file with its WAL when it holds nothing else and
   * no other session of this thread has it open; else the workload's tables
   * (drop.sql), keeping the file.
   */
  async dropSchema(): Promise<void> {
    removeStaging(stagingDir(this.target));
    const h = await this.connection();
    if (!h) {
      this.removeFiles(companionFiles(this.file));
      return;
    }
    const others = Number((await this.column(h, this.schema.sql().schema_other_objects))[0] ?? 0);
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
    this.log(`Dropped the ${this.schema.display} tables from ${this.file}${others > 0 ? ' (it holds other objects, so the file stays)' : ''}`);
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
