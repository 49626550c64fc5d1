import { Readable } from 'node:stream';
import type { Connection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { TPROCC_COLUMNS, type GeneratedTable, type LoaderSession, type Logger } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { sqlSet, type SqlSet } from '@sledge/sql';
import { loadMyVuLoop, type NativeLoader } from '@sledge/worker-native';
import { connect, loadMysql2 } from './connect.js';
import { ER, connectError, errnoOf, isLocalInfileRefused, messageOf } from './errors.js';
import type { Flavour, MyTarget } from './flavour.js';
import { csvBatches, isPlainCsv, slices, sqlValueBatches } from './csv.js';
import { dropCommentLines, fillPlaceholders } from './sql-text.js';

export type LoadPath = 'load-data' | 'insert';

type LoadFile = 'load.sql';
const sets = new Map<string, SqlSet<LoadFile>>();

/** packages/sql/<engine>/engine/load.sql (MariaDB: MySQL's): named statements without comment lines, {{placeholders}} filled. */
export function loaderSql(flavour: Flavour): SqlSet<LoadFile> {
  let set = sets.get(flavour.engine);
  if (!set) {
    set = sqlSet<LoadFile>(flavour.engine, 'engine', { clean: dropCommentLines, fill: (sql, values) => fillPlaceholders(sql, values) });
    sets.set(flavour.engine, set);
  }
  return set;
}

/** Characters of CSV per INSERT batch (well under the 16 MiB default max_allowed_packet). */
export const INSERT_BATCH_CHARS = 1 << 20;
/** Bytes per LOAD DATA LOCAL packet. */
const INFILE_PACKET = 256 * 1024;
/** Loads of a unit retried after InnoDB's error 1206 (lock table full) before the build fails. */
export const LOCK_TABLE_FULL_RETRIES = 3;

/** The first path to try, from @@GLOBAL.local_infile (1/ON: LOAD DATA LOCAL; 0/OFF: INSERT). */
export function initialLoadPath(localInfile: unknown): LoadPath {
  const v = String(localInfile ?? '').trim().toUpperCase();
  return v === '1' || v === 'ON' ? 'load-data' : 'insert';
}

export type LoaderClient = 'auto' | 'mysql2';

export interface LoaderOptions {
  /** Announce the LOCAL_FILES capability (default true). Tests turn it off to make the server refuse. */
  localFiles?: boolean;
  /**
   * Who sends LOAD DATA LOCAL: 'auto' (default) the MariaDB C connector session of
   * @sledge/worker-native when it is built, else mysql2; 'mysql2' always mysql2.
   * Unset, SLEDGE_MYLOADER (auto|mysql2) decides, for A/B benches.
   */
  client?: LoaderClient;
}

/** The client asked for: the option, else SLEDGE_MYLOADER, else 'auto'. */
export function loaderClient(o: LoaderOptions, env: string | undefined = process.env.SLEDGE_MYLOADER): LoaderClient {
  const v = o.client ?? (env === undefined || env === '' ? 'auto' : env);
  if (v !== 'auto' && v !== 'mysql2') throw new SledgeError('SLEDGE_E_VALIDATION', `SLEDGE_MYLOADER must be auto or mysql2, not ${JSON.stringify(v)}`, { field: 'SLEDGE_MYLOADER' });
  return v;
}

/** Why a session cannot load through the native connector (settings it does not implement), or undefined. */
export function nativeLoaderUnsupported(t: MyTarget, o: LoaderOptions, client: LoaderClient): string | undefined {
  if (client === 'mysql2') return 'mysql2 chosen';
  if (o.localFiles === false) return 'LOCAL_FILES not announced';
  if (t.ssl) return 'target.ssl is on (the connector session connects without TLS)';
  return undefined;
}

/** The only names the session's LOAD DATA statements carry, safe to inline as a SQL string. */
const INFILE_NAME = /^[a-z_]+\/[a-z_]+\/\d+$/;

/**
 * One build worker's session: one transaction per generated unit, each
 * table through LOAD DATA LOCAL INFILE fed from memory, or through
 * multi-row INSERT batches when the server refuses LOCAL INFILE. The path
 * is chosen once per session (from @@local_infile, then from the first
 * refusal) and logged.
 *
 * LOAD DATA goes through the MariaDB C connector (worker-native's loader
 * session, on libuv's thread pool) when it is built: the rows go from the
 * generator's buffer to the socket with no copy through JavaScript. Through
 * mysql2 every 256 KB packet is copied into a new Buffer, and the worker's
 * garbage collector runs a full collection every few tens of MB of them
 * (README, "Builds against the engine's bulk load"). INSERT batches and
 * TLS targets use mysql2.
 */
export class MyLoader implements LoaderSession {
  private conn: Connection | undefined;
  private native: NativeLoader | undefined;
  /** Who sends the rows, for the log line: 'MariaDB C connector' or 'mysql2' (and why). */
  private via = 'mysql2';
  private path: LoadPath = 'load-data';
  private reason = '';
  private announced = false;
  private readonly files = new Map<string, Buffer>();
  private seq = 0;

  private constructor(
    private readonly t: MyTarget,
    private readonly flavour: Flavour,
    private readonly sql: SqlSet<LoadFile>,
    private readonly log: Logger,
  ) {}

  static async open(t: MyTarget, flavour: Flavour, log: Logger, o: LoaderOptions = {}): Promise<MyLoader> {
    const l = new MyLoader(t, flavour, loaderSql(flavour), log);
    const client = loaderClient(o);
    const skipped = nativeLoaderUnsupported(t, o, client);
    if (skipped === undefined) {
      const why = await l.openNative();
      if (why === undefined) return l;
      l.via = `mysql2: ${why}`;
    } else {
      l.via = client === 'mysql2' ? 'mysql2, chosen' : `mysql2: ${skipped}`;
    }
    await l.openMysql2(o);
    return l;
  }

  /** Connects the native session; why not (then nothing is left open), or undefined. */
  private async openNative(): Promise<string | undefined> {
    const loop = loadMyVuLoop();
    if (!loop.available) return 'the native connector is not built';
    const t = this.t;
    let n: NativeLoader;
    try {
      n = await loop.openLoader({ host: t.host, port: t.port, socket: t.socket ?? '', user: t.user, password: t.password, database: t.database, role: 'loader' });
    } catch (e) {
      // mysql2 connects next and turns a real fault (auth, refused, no database) into its typed error.
      return `the connector did not connect (${messageOf(e)})`;
    }
    const r = await n.query(this.sql.statement('load.sql', 'local_infile')).catch(() => undefined);
    if (initialLoadPath(r?.rows?.[0]?.enabled) === 'insert') {
      await n.close().catch(() => undefined);
      return r === undefined ? 'reading @@local_infile failed' : 'local_infile is OFF on the server';
    }
    this.native = n;
    this.via = 'MariaDB C connector';
    return undefined;
  }

  private async openMysql2(o: LoaderOptions): Promise<void> {
    this.conn = await connect(this.t, this.flavour, {
      useDatabase: true,
      role: 'loader',
      localFiles: o.localFiles ?? true,
      infileStreamFactory: (p) => this.stream(p),
    });
    const [rows] = await this.conn.query<RowDataPacket[]>(this.sql.statement('load.sql', 'local_infile'));
    this.path = initialLoadPath(rows[0]?.enabled);
    if (this.path === 'insert') this.reason = 'local_infile is OFF on the server';
  }

  /** The path in use: 'load-data' until the server refuses it. */
  get loadPath(): LoadPath {
    return this.path;
  }

  /** Answers the server's LOCAL INFILE request with the buffer registered under that name, nothing else. */
  private stream(name: string): Readable {
    const buf = this.files.get(name);
    this.files.delete(name);
    if (!buf)
      return new Readable({
        read() {
          this.destroy(new Error(`refusing LOCAL INFILE request for "${name}": not a file this session sent`));
        },
      });
    return Readable.from(slices(buf, INFILE_PACKET));
  }

  private c(): Connection {
    if (!this.conn) throw new Error('loader session is closed');
    return this.conn;
  }

  private announce(): void {
    if (this.announced) return;
    this.announced = true;
    this.log(
      this.path === 'load-data'
        ? `${this.flavour.display} loader: LOAD DATA LOCAL INFILE (${this.via})`
        : `${this.flavour.display} loader: multi-row INSERT batches (${this.reason})`,
    );
  }

  /** One statement of load.sql on whichever session is open. */
  private async exec(name: string): Promise<void> {
    if (this.native) await this.native.query(this.sql.statement('load.sql', name));
    else await this.c().query(this.sql.statement('load.sql', name));
  }

  async load(tables: readonly GeneratedTable[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.loadOnce(tables);
        return;
      } catch (e) {
        if (this.native && isLocalInfileRefused(e)) {
          // The unit was rolled back whole: load it again through mysql2, whose path falls back to INSERT.
          await this.native.close().catch(() => undefined);
          this.native = undefined;
          this.via = `mysql2: the server refused the connector's LOCAL INFILE (error ${errnoOf(e) ?? '?'})`;
          await this.openMysql2({});
          attempt--;
          continue;
        }
        // InnoDB keeps lock structures in the buffer pool: concurrent loads into a small pool (128 MB by
        // default) can run out for a moment. The unit was rolled back whole, so loading it again is safe.
        if (errnoOf(e) !== ER.LOCK_TABLE_FULL || attempt > LOCK_TABLE_FULL_RETRIES) throw this.loadError(e, tables, attempt > 1);
        this.log(`${this.flavour.display} loader: ${tables.map((t) => t.table).join(', ')} ran out of lock memory (error 1206), loading it again (${attempt} of ${LOCK_TABLE_FULL_RETRIES})`);
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  }

  private async loadOnce(tables: readonly GeneratedTable[]): Promise<void> {
    try {
      await this.exec('begin');
      for (const t of tables) await this.loadTable(t);
      await this.exec('commit');
    } catch (e) {
      await this.exec('rollback').catch(() => undefined);
      throw e;
    }
  }

  private loadError(e: unknown, tables: readonly GeneratedTable[], retried: boolean): SledgeError {
    if (e instanceof SledgeError) return e;
    const what = tables.map((t) => t.table).join(', ');
    if (errnoOf(e) === ER.LOCK_TABLE_FULL)
      return new SledgeError(
        'SLEDGE_E_DB',
        `${this.flavour.display} ran out of lock memory loading ${what}${retried ? ` (also after ${LOCK_TABLE_FULL_RETRIES} retries)` : ''}: raise innodb_buffer_pool_size on the server (SET GLOBAL innodb_buffer_pool_size = 1073741824) or build with fewer build VUs`,
        { cause: e },
      );
    return connectError(e, this.t, this.flavour.display) ?? new SledgeError('SLEDGE_E_DB', `${this.flavour.display} failed loading ${what}: ${messageOf(e)}`, { cause: e });
  }

  private values(t: GeneratedTable): Record<string, string> {
    return { table: t.table, columns: TPROCC_COLUMNS[t.table].join(', ') };
  }

  private async loadTable(t: GeneratedTable): Promise<void> {
    if (t.rows === 0) return;
    if (Array.isArray(t.data)) throw new Error(`${t.table}: the MySQL loader takes 'csv' data, got tuples`);
    const data = typeof t.data === 'string' ? Buffer.from(t.data, 'latin1') : Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    if (this.native) {
      await this.loadDataNative(this.native, t, data);
      this.announce();
      return;
    }
    if (this.path === 'load-data') {
      try {
        await this.loadData(t, data);
        this.announce();
        return;
      } catch (e) {
        if (!isLocalInfileRefused(e)) throw e;
        this.path = 'insert';
        this.reason = `the server refused LOCAL INFILE: error ${errnoOf(e) ?? '?'}`;
      }
    }
    this.announce();
    await this.insert(t, data.toString('latin1'));
  }

  private async loadData(t: GeneratedTable, data: Buffer): Promise<void> {
    const name = `sledge/${t.table}/${++this.seq}`;
    this.files.set(name, data);
    try {
      const [r] = await this.c().query<ResultSetHeader>(this.sql.statement('load.sql', 'load_data', this.values(t)), [name]);
      // With LOCAL, bad rows become warnings and are skipped: insist on every row.
      if (r.affectedRows !== t.rows || r.warningStatus > 0) {
        const [w] = await this.c().query<RowDataPacket[]>(this.sql.statement('load.sql', 'warnings'));
        throw new Error(`${t.table}: LOAD DATA took ${r.affectedRows} of ${t.rows} rows (${w.map((x) => String(x.Message)).join('; ') || 'no warnings'})`);
      }
    } finally {
      this.files.delete(name);
    }
  }

  private async loadDataNative(n: NativeLoader, t: GeneratedTable, data: Buffer): Promise<void> {
    const name = `sledge/${t.table}/${++this.seq}`;
    if (!INFILE_NAME.test(name)) throw new SledgeError('SLEDGE_E_INTERNAL', `not a loader file name: ${name}`);
    // mysql2 binds the name to the statement's `INFILE ?`; here it is inlined, as INFILE_NAME allows.
    const stmt = this.sql.statement('load.sql', 'load_data', this.values(t));
    const text = stmt.replace(/\bINFILE\s+\?/, `INFILE '${name}'`);
    if (text === stmt) throw new SledgeError('SLEDGE_E_INTERNAL', "load.sql load_data has no 'INFILE ?' for the file name");
    const r = await n.loadData(text, name, data);
    if (r.affectedRows !== t.rows || r.warnings > 0) {
      const w = await n.query(this.sql.statement('load.sql', 'warnings')).catch(() => undefined);
      throw new Error(`${t.table}: LOAD DATA took ${r.affectedRows} of ${t.rows} rows (${w?.rows?.map((x) => String(x.Message)).join('; ') || 'no warnings'})`);
    }
  }

  /**
   * INSERT fallback. Generated text needs no escaping (isPlainCsv), so the
   * row constructors are built straight from the CSV lines; anything else
   * goes through mysql2's escaping.
   */
  private async insert(t: GeneratedTable, text: string): Promise<void> {
    const sqlText = this.sql.statement('load.sql', 'insert_rows', this.values(t));
    let n = 0;
    if (isPlainCsv(text)) {
      const { raw } = await loadMysql2();
      for (const b of sqlValueBatches(text, INSERT_BATCH_CHARS)) {
        const [r] = await this.c().query<ResultSetHeader>(sqlText, [raw(b.sql)]);
        n += r.affectedRows;
      }
    } else {
      for (const batch of csvBatches(text, INSERT_BATCH_CHARS)) {
        const [r] = await this.c().query<ResultSetHeader>(sqlText, [batch]);
        n += r.affectedRows;
      }
    }
    if (n !== t.rows) throw new Error(`${t.table}: INSERT stored ${n} of ${t.rows} rows`);
  }

  async close(): Promise<void> {
    const c = this.conn;
    const n = this.native;
    this.conn = undefined;
    this.native = undefined;
    this.files.clear();
    if (n) await n.close().catch(() => undefined);
    if (c) await c.end().catch(() => c.destroy());
  }
}
