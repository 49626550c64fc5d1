import type { AshSampler, AshSamplerOptions, Logger } from '@sledge/core';
import { SledgeError, type AshSample, type MssqlTarget } from '@sledge/protocol';
import { TdsConnection, type Row } from '../connection.js';
import type { BoundParam } from '../params.js';
import { dbError, serverErrorNumber } from '../errors.js';
import { readRequestRow, requestsToSamples } from './rows.js';
import { ashStatement } from './sql.js';

/** program_name of the sampler's own session. */
export const APP_ASH = 'sledge-ash';

/** SQL Server errors of a missing VIEW SERVER STATE (300: permission denied on the server; 297: no permission). */
const PERMISSION_ERRORS = new Set([297, 300]);

/** The error that says what to grant; `login` is the server login the target connects as. */
export function viewServerStateError(login: string, cause?: unknown): SledgeError {
  const grant = `USE master; GRANT VIEW SERVER STATE TO [${login.replace(/]/g, ']]')}];`;
  return new SledgeError(
    'SLEDGE_E_DB',
    `SQL Server login "${login}" lacks VIEW SERVER STATE, which ASH sampling (sys.dm_exec_requests, sys.dm_os_waiting_tasks) needs: run ${grant}`,
    { field: 'target.user', ...(cause === undefined ? {} : { cause }) },
  );
}

/** The `requests` statement's scope parameters (AshSamplerOptions.scope: by default the target database and login only). */
export function scopeParams(t: MssqlTarget, opts: AshSamplerOptions): BoundParam[] {
  return [
    { name: 'database', type: 'varchar', value: t.database, length: 128 },
    { name: 'login', type: 'varchar', value: t.user, length: 128 },
    { name: 'server', type: 'int', value: (opts.scope ?? 'database') === 'server' ? 1 : 0 },
  ];
}

/**
 * Samples the requests of user sessions (sys.dm_exec_requests with
 * sys.dm_os_waiting_tasks and sys.dm_exec_sql_text) on its own connection
 * to master. Opening checks VIEW SERVER STATE first: without it the DMVs
 * would show only the sampler's own session. By default only the requests
 * of the target's login in the target database are read; with scope
 * 'server' every user request, those outside marked `outside`.
 */
export class MssqlAshSampler implements AshSampler {
  readonly source = 'dm_exec_requests';

  private constructor(
    private conn: TdsConnection,
    private readonly t: MssqlTarget,
    readonly login: string,
    private readonly params: BoundParam[],
    private readonly vuTag: string | undefined,
  ) {}

  static async open(t: MssqlTarget, log: Logger, opts: AshSamplerOptions = {}): Promise<MssqlAshSampler> {
    const conn = await TdsConnection.open(t, { database: 'master', appName: APP_ASH });
    let rows: Row[];
    try {
      rows = await conn.query(ashStatement('permission'));
    } catch (e) {
      await conn.close();
      throw dbError(e, 'checking VIEW SERVER STATE for ASH');
    }
    const login = String(rows[0]?.['login_name'] ?? t.user);
    if (Number(rows[0]?.['has_view_server_state']) !== 1) {
      await conn.close();
      throw viewServerStateError(login);
    }
    const server = opts.scope === 'server';
    log(`ASH: sampling sys.dm_exec_requests as "${login}" in ${server ? 'every database' : `database "${t.database}" (login "${t.user}")`}`);
    return new MssqlAshSampler(conn, t, login, scopeParams(t, opts), opts.vuTag);
  }

  async sample(at: number = Date.now()): Promise<AshSample[]> {
    // After a lost connection (server restart) log in again.
    if (this.conn.closed) this.conn = await TdsConnection.open(this.t, { database: 'master', appName: APP_ASH });
    const ts = at;
    let rows: Row[];
    try {
      rows = await this.conn.query(ashStatement('requests'), this.params);
    } catch (e) {
      const n = serverErrorNumber(e);
      if (n !== undefined && PERMISSION_ERRORS.has(n)) throw viewServerStateError(this.login, e);
      throw dbError(e, 'ASH sample from sys.dm_exec_requests');
    }
    return requestsToSamples(rows.map(readRequestRow), ts, this.vuTag);
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}
