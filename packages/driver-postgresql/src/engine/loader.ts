import { finished } from 'node:stream/promises';
import type { Client } from 'pg';
import { TPROCC_COLUMNS, type GeneratedTable, type LoaderSession, type Logger } from '@sledge/core';
import { SledgeError, type PostgresqlTarget } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { loadPgVuLoop, type NativeLoader } from '@sledge/worker-native';
import { APP_LOADER, libpqConninfo } from './config.js';
import { closeQuietly, connect } from './connect.js';
import { dbError } from './errors.js';
import { loadPgCopy, type PgCopyLib } from './lib.js';

/** The loader's statements, packages/sql/postgresql/engine/loader.sql. */
const sql = sqlSet<'loader.sql'>('postgresql', 'engine');

/** COPY ... FROM STDIN for one table, naming the generator's column order. */
export function copyStatement(table: GeneratedTable['table']): string {
  return `COPY ${table} (${TPROCC_COLUMNS[table].join(', ')}) FROM STDIN`;
}

export type LoaderClient = 'node-postgres' | 'libpq';

/** The client asked for: SLEDGE_PGLOADER (node-postgres|libpq, for A/B benches), else 'node-postgres'. */
export function pgLoaderClient(env: string | undefined = process.env.SLEDGE_PGLOADER): LoaderClient {
  const v = env === undefined || env === '' ? 'node-postgres' : env;
  if (v !== 'libpq' && v !== 'node-postgres') throw new SledgeError('SLEDGE_E_VALIDATION', `SLEDGE_PGLOADER must be node-postgres or libpq, not ${JSON.stringify(v)}`, { field: 'SLEDGE_PGLOADER' });
  return v;
}

/**
 * A build worker's session: each table of a unit of generated rows (pg-text
 * format) is one COPY in its own transaction, through node-postgres and
 * pg-copy-streams. With SLEDGE_PGLOADER=libpq the COPY goes through libpq
 * instead (worker-native's loader session, on libuv's thread pool, when the
 * native loop is built): the rows go from the generator's buffer to the
 * socket with no copy through JavaScript. That is not the default because
 * it did not show in the bench: 6% less client CPU at 16 warehouses, none at
 * 100, and no shorter builds (README, "Builds against the engine's bulk load").
 *
 * No explicit BEGIN: the build worker generates the next unit while this one
 * loads, and a BEGIN sent before that generation would hold a transaction
 * open ("idle in transaction" after BEGIN) for as long as it takes. Through
 * node-postgres the rows go out from the thread that generates, so the
 * server waits inside the COPY (ClientRead) while the client generates, and
 * the active session history shows that; through libpq they go out from the
 * thread pool while the next unit is generated. A failed build leaves an
 * incomplete schema either way (delete it first).
 */
export class PgLoaderSession implements LoaderSession {
  private constructor(
    private readonly c: Client | null,
    private readonly copy: PgCopyLib | null,
    private readonly native: NativeLoader | null = null,
  ) {}

  static async open(t: PostgresqlTarget, log: Logger): Promise<PgLoaderSession> {
    if (pgLoaderClient() === 'libpq') {
      const native = await openNative(t);
      if ('session' in native) {
        log('PostgreSQL loader: COPY through libpq');
        return new PgLoaderSession(null, null, native.session);
      }
      log(`PostgreSQL loader: COPY through node-postgres (${native.why})`);
    }
    let copy: PgCopyLib;
    try {
      copy = await loadPgCopy();
    } catch (e) {
      throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', 'the PostgreSQL COPY library "pg-copy-streams" does not load: run pnpm install', { cause: e });
    }
    const c = await connect(t, 'user', APP_LOADER, log);
    try {
      await c.query(sql.statement('loader.sql', 'loader_session'));
    } catch (e) {
      await closeQuietly(c);
      throw dbError('setting up the loader session', e);
    }
    return new PgLoaderSession(c, copy);
  }

  async load(tables: readonly GeneratedTable[]): Promise<void> {
    for (const t of tables) {
      const data = t.data;
      if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
        throw new SledgeError('SLEDGE_E_INTERNAL', `loader got ${t.table} rows as tuples; the PostgreSQL driver loads pg-text`);
      }
      let copied: number | undefined;
      try {
        if (this.native) {
          copied = (await this.native.loadData(copyStatement(t.table), t.table, typeof data === 'string' ? Buffer.from(data, 'utf8') : data)).affectedRows;
        } else {
          const stream = this.c!.query(this.copy!.from(copyStatement(t.table)));
          stream.end(data);
          await finished(stream);
        }
      } catch (e) {
        throw dbError(`loading ${t.rows} rows into ${t.table}`, e);
      }
      if (copied !== undefined && copied !== t.rows) throw new SledgeError('SLEDGE_E_DB', `loading ${t.rows} rows into ${t.table}: COPY took ${copied}`);
    }
  }

  async close(): Promise<void> {
    if (this.native) await this.native.close().catch(() => undefined);
    await closeQuietly(this.c);
  }
}

/** A libpq loader session set up as the node-postgres one is, or why not (nothing is left open). */
async function openNative(t: PostgresqlTarget): Promise<{ session: NativeLoader } | { why: string }> {
  const loop = loadPgVuLoop();
  if (!loop.available) return { why: 'the native libpq loop is not built' };
  let n: NativeLoader;
  try {
    n = await loop.openLoader({ conninfo: libpqConninfo(t, 'user'), applicationName: APP_LOADER });
  } catch (e) {
    // node-postgres connects next and turns a real fault (auth, refused, no database) into its typed error.
    return { why: `libpq did not connect: ${(e as Error).message}` };
  }
  try {
    await n.query(sql.statement('loader.sql', 'loader_session'));
  } catch (e) {
    await n.close().catch(() => undefined);
    return { why: `setting up the libpq session failed: ${(e as Error).message}` };
  }
  return { session: n };
}
