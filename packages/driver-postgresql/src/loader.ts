import { finished } from 'node:stream/promises';
import type { Client } from 'pg';
import { TPROCC_COLUMNS, type GeneratedTable, type LoaderSession, type Logger } from '@sledge/core';
import { SledgeError, type PostgresqlTarget } from '@sledge/protocol';
import { APP_LOADER } from './config.js';
import { closeQuietly, connect } from './connect.js';
import { dbError } from './errors.js';
import { loadPgCopy, type PgCopyLib } from './lib.js';

/** COPY ... FROM STDIN for one table, naming the generator's column order. */
export function copyStatement(table: GeneratedTable['table']): string {
  return `COPY ${table} (${TPROCC_COLUMNS[table].join(', ')}) FROM STDIN`;
}

/**
 * A build worker's session: each unit of generated rows (pg-text format) is
 * loaded in one transaction with one COPY per table.
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
    return new PgLoaderSession(await connect(t, 'user', APP_LOADER, log), copy);
  }

  async load(tables: readonly GeneratedTable[]): Promise<void> {
    const c = this.c;
    let current = 'BEGIN';
    try {
      await c.query('BEGIN');
      for (const t of tables) {
        const data = t.data;
        if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
          throw new SledgeError('SLEDGE_E_INTERNAL', `loader got ${t.table} rows as tuples; the PostgreSQL driver loads pg-text`);
        }
        current = `loading ${t.rows} rows into ${t.table}`;
        const stream = c.query(this.copy.from(copyStatement(t.table)));
        stream.end(data);
        await finished(stream);
      }
      current = 'COMMIT';
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw dbError(current, e);
    }
  }

  async close(): Promise<void> {
    await closeQuietly(this.c);
  }
}
