import type { Client } from 'pg';
import type { ParamRow, ParamSession, ParamSessionOptions, ParamValue } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { closeQuietly, connect } from './connect.js';

/**
 * Driver.openParamSession on PostgreSQL: one connection as the target's
 * user, named sledge-<name>; statements with `$n` placeholders, sent through
 * the extended protocol (parameters are never pasted into the text).
 */
class PgParamSession implements ParamSession {
  constructor(private readonly c: Client) {}

  placeholder(n: number): string {
    return `$${n}`;
  }

  async run(sql: string, params: readonly ParamValue[]): Promise<ParamRow[]> {
    const r = await this.c.query<ParamRow>(params.length ? { text: sql, values: params as ParamValue[] } : sql);
    return r.rows ?? [];
  }

  async begin(): Promise<void> {
    await this.c.query('BEGIN');
  }

  async commit(): Promise<void> {
    await this.c.query('COMMIT');
  }

  async rollback(): Promise<void> {
    await this.c.query('ROLLBACK');
  }

  close(): Promise<void> {
    return closeQuietly(this.c);
  }
}

export async function openPgParamSession(t: PostgresqlTarget, opts: ParamSessionOptions): Promise<ParamSession> {
  return new PgParamSession(await connect(t, 'user', `sledge-${opts.name}`, opts.log));
}
