import type { Connection } from 'mysql2/promise';
import type { ParamRow, ParamSession, ParamSessionOptions, ParamValue } from '@sledge/core';
import { connect } from './connect.js';
import type { Flavour, MyTarget } from './flavour.js';

/**
 * Driver.openParamSession on MySQL and MariaDB: one connection to the
 * target's database (program_name sledge-<name>); statements with `?`
 * placeholders run as server-side prepared statements (mysql2 execute, kept
 * in its per-connection cache); transaction control through the client's
 * own calls (MariaDB has no `END` statement: a script's END commits here).
 */
class MyParamSession implements ParamSession {
  constructor(private readonly c: Connection) {}

  placeholder(): string {
    return '?';
  }

  async run(sql: string, params: readonly ParamValue[]): Promise<ParamRow[]> {
    const [rows] = params.length ? await this.c.execute(sql, params as ParamValue[]) : await this.c.query(sql);
    return Array.isArray(rows) ? (rows as ParamRow[]) : [];
  }

  begin(): Promise<void> {
    return this.c.beginTransaction();
  }

  commit(): Promise<void> {
    return this.c.commit();
  }

  rollback(): Promise<void> {
    return this.c.rollback();
  }

  async close(): Promise<void> {
    await this.c.end().catch(() => undefined);
  }
}

export async function openMyParamSession(t: MyTarget, flavour: Flavour, opts: ParamSessionOptions): Promise<ParamSession> {
  return new MyParamSession(await connect(t, flavour, { useDatabase: true, programName: `sledge-${opts.name}` }));
}
