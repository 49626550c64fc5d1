import { finished } from 'node:stream/promises';
import type { Client } from 'pg';
import { TPROCH_COLUMNS, type Logger, type TprochGeneratedTable, type TprochLoader } from '@sledge/core';
import { SledgeError, type PostgresqlTarget, type TprochTable } from '@sledge/protocol';
import { APP_LOADER } from '../engine/config.js';
import { closeQuietly, connect } from '../engine/connect.js';
import { dbError } from '../engine/errors.js';
import { loadPgCopy, type PgCopyLib } from '../engine/lib.js';

/** COPY ... FROM STDIN (text format: tab separated, \N null) naming the generator's column order. */
export function tprochCopyStatement(table: TprochTable): string {
  return `COPY ${table} (${TPROCH_COLUMNS[table].join(', ')}) FROM STDIN`;
}

/**
 * A TPROC-H build worker's session: each table of a generated unit (pg-text)
 * is one COPY, committed on its own, as the TPROC-C loader does.
 */
export class PgTprochLoader implements TprochLoader {
  private constructor(
    private readonly c: Client,
    private readonly copy: PgCopyLib,
  ) {}

  static async open(t: PostgresqlTarget, log: Logger): Promise<PgTprochLoader> {
    let copy: PgCopyLib;
    try {
      copy = await loadPgCopy();
    } catch (e) {
      throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', 'the PostgreSQL COPY library "pg-copy-streams" does not load: run pnpm install', { cause: e });
    }
    return new PgTprochLoader(await connect(t, 'user', APP_LOADER, log), copy);
  }

  async load(tables: readonly TprochGeneratedTable[]): Promise<void> {
    for (const t of tables) {
      const data = t.data;
      if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
        throw new SledgeError('SLEDGE_E_INTERNAL', `loader got ${t.table} rows as tuples; the PostgreSQL driver loads pg-text`);
      }
      try {
        const stream = this.c.query(this.copy.from(tprochCopyStatement(t.table)));
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
