import { finished } from 'node:stream/promises';
import type { Client } from 'pg';
import { TPROCC_COLUMNS, type GeneratedTable, type LoaderSession, type Logger } from '@sledge/core';
import { SledgeError, type PostgresqlTarget } from '@sledge/protocol';
import { APP_LOADER } from './config.js';
import { closeQuietly, connect } from './connect.js';
import { dbError } from './errors.js';
import { loadPgCopy, type PgCopyLib } from './lib.js';
import { statement } from '../tprocc/sqlfiles.js';

/** COPY ... FROM STDIN for one table, naming the generator's column order. */
export function copyStatement(table: GeneratedTable['table']): string {
  return `COPY ${table} (${TPROCC_COLUMNS[table].join(', ')}) FROM STDIN`;
}

/**
 * A build worker's session: each table of a unit of generated rows (pg-text
 * format) is one COPY in its own transaction. No explicit BEGIN: the build
 * worker generates the next unit while this one loads, on the same thread,
 * and a BEGIN sent before that generation would hold a transaction open
 * ("idle in transaction" after BEGIN) for as long as it takes. With the
 * COPY sent first, the server waits inside the COPY (ClientRead) while the
 * client generates, which is what the active session history should show.
 * A failed build leaves an incomplete schema either way (delete it first).
 */
export class PgLoaderSession implements LoaderSession {
  private constructor(
    private readonly c: Client,
    private readonly copy: PgCopyLib,
  ) {}

  static async open(t: PostgresqlTarget, log: Logger): Promise<PgLoaderSession> {
    let copy: PgCopyLib;
    try {
      copy = await loadPgCopy();
    } catch (e) {
      throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', 'the PostgreSQL COPY library "pg-copy-streams" does not load: run pnpm install', { cause: e });
    }
    const c = await connect(t, 'user', APP_LOADER, log);
    try {
      await c.query(statement('admin.sql', 'loader_session'));
    } catch (e) {
      await closeQuietly(c);
      throw dbError('setting up the loader session', e);
    }
    return new PgLoaderSession(c, copy);
  }

  async load(tables: readonly GeneratedTable[]): Promise<void> {
    const c = this.c;
    for (const t of tables) {
      const data = t.data;
      if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
        throw new SledgeError('SLEDGE_E_INTERNAL', `loader got ${t.table} rows as tuples; the PostgreSQL driver loads pg-text`);
      }
      try {
        const stream = c.query(this.copy.from(copyStatement(t.table)));
        stream.end(data);
        await finished(stream);
      } catch (e) {
        throw dbError(`loading ${t.rows} rows into ${t.table}`, e);
      }
    }
  }

  async close(): Promise<void> {
    await closeQuietly(this.c);
  }
}
