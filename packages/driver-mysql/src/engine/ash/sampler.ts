import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { AshSampler, AshSamplerOptions, Logger } from '@sledge/core';
import { SledgeError, type AshSample } from '@sledge/protocol';
import { connect } from '../connect.js';
import { errnoOf, isConnectionError, messageOf } from '../errors.js';
import type { Flavour, MyTarget } from '../flavour.js';
import { psToSamples, processlistToSamples, readProcesslistRow, readPsRow, readRowLockWaits } from './rows.js';
import { AshSql } from './sql.js';

export type MyAshSource = 'performance_schema' | 'processlist';

/** Access denied to a table (1142), to a privilege such as PROCESS (1227), or to a database (1044). */
const DENIED = new Set([1142, 1227, 1044]);
const isDenied = (e: unknown) => {
  const n = errnoOf(e);
  return n !== undefined && DENIED.has(n);
};

/** The sampler's own connection attributes: program_name=sledge, sledge_role=ash. */
export const ASH_ROLE = 'ash';

const account = (t: MyTarget) => `'${t.user}'@'%'`;

/**
 * Samples MySQL / MariaDB sessions every call, on its own connection (no
 * default database, so it works before a build creates one).
 *
 * - performance_schema ON: threads (FOREGROUND, command not Sleep) joined
 *   with the waits in progress (END_EVENT_ID IS NULL) and the current
 *   statement (SQL_TEXT, DIGEST). On open it switches on the
 *   events_waits_current and events_statements_current consumers and the
 *   wait/% and statement/% instruments for the server's run time, as
 *   HammerDB does (a restart undoes it).
 * - performance_schema OFF (MariaDB's default), or not readable:
 *   information_schema.PROCESSLIST with state-text heuristics; `notice`
 *   says how to get wait events.
 * In both, InnoDB row lock waits come from INNODB_TRX (PROCESS privilege):
 * such a session is Lock with its blocker.
 *
 * Scope (AshSamplerOptions.scope): by default only the threads of the
 * target's user in the target database are read (the statement filters
 * them: other schemas' SQL text never leaves the server); with 'server'
 * every thread, those outside marked `outside`. A thread is one of the
 * job's VUs only when its sledge_role attribute carries the job's tag.
 */
export class MyAshSampler implements AshSampler {
  private constructor(
    private conn: Connection,
    private readonly t: MyTarget,
    private readonly flavour: Flavour,
    private readonly sql: AshSql,
    readonly source: MyAshSource,
    private readonly rowLocks: boolean,
    /** What to enable or grant for a fuller picture; undefined when nothing is missing. */
    readonly notice: string | undefined,
    /** The statements' scope parameters: database, user, whole server (1/0). */
    private readonly scopeParams: [string, string, number],
    private readonly vuTag: string | undefined,
  ) {}

  static async open(t: MyTarget, flavour: Flavour, log: Logger, opts: AshSamplerOptions = {}, sql: AshSql = new AshSql(flavour)): Promise<MyAshSampler> {
    const conn = await connect(t, flavour, { useDatabase: false, role: ASH_ROLE });
    const server = (opts.scope ?? 'database') === 'server';
    const scopeParams: [string, string, number] = [t.database, t.user, server ? 1 : 0];
    try {
      const notes: string[] = [];
      const source = await MyAshSampler.chooseSource(conn, t, flavour, sql, notes, log, scopeParams);
      let rowLocks = true;
      try {
        await conn.query(sql.get('row_lock_waits'));
      } catch (e) {
        if (!isDenied(e)) throw e;
        rowLocks = false;
        notes.push(`row lock waits need the PROCESS privilege: GRANT PROCESS ON *.* TO ${account(t)}`);
      }
      const notice = notes.length ? notes.join('; ') : undefined;
      const where = server ? 'every schema' : `schema '${t.database}' (user '${t.user}')`;
      log(`ASH: sampling ${source === 'performance_schema' ? 'performance_schema' : 'information_schema.PROCESSLIST'} as '${t.user}' in ${where}${notice ? ` (${notice})` : ''}`);
      return new MyAshSampler(conn, t, flavour, sql, source, rowLocks, notice, scopeParams, opts.vuTag);
    } catch (e) {
      await conn.end().catch(() => undefined);
      if (e instanceof SledgeError) throw e;
      throw new SledgeError('SLEDGE_E_DB', `opening the ${flavour.display} ASH sampler failed: ${messageOf(e)}`, { cause: e });
    }
  }

  private static async chooseSource(conn: Connection, t: MyTarget, flavour: Flavour, sql: AshSql, notes: string[], log: Logger, scopeParams: unknown[]): Promise<MyAshSource> {
    const [ps] = await conn.query<RowDataPacket[]>(sql.get('performance_schema_enabled'));
    if (Number(ps[0]?.['enabled']) !== 1) {
      notes.push(`${flavour.display} performance_schema is OFF: set performance_schema=ON in the server config and restart for wait events`);
      return 'processlist';
    }
    try {
      const [c] = await conn.query<RowDataPacket[]>(sql.get('consumers'));
      const off = c.filter((r) => String(r['enabled']) !== 'YES').map((r) => String(r['name']));
      if (off.length > 0) {
        await conn.query(sql.get('enable_consumers'));
        await conn.query(sql.get('enable_instruments'));
        log(`ASH: enabled the performance_schema consumers ${off.join(', ')} and the wait/% and statement/% instruments (until the server restarts)`);
      }
    } catch (e) {
      if (!isDenied(e)) throw e;
      notes.push(`the events_waits_current / events_statements_current consumers are off and '${t.user}' may not switch them on, so waits show as CPU: GRANT UPDATE ON performance_schema.* TO ${account(t)}, or enable them in the server config`);
    }
    try {
      await conn.query(sql.get('ps_sessions'), scopeParams);
      return 'performance_schema';
    } catch (e) {
      if (!isDenied(e)) throw e;
      notes.push(`'${t.user}' may not read performance_schema: GRANT SELECT ON performance_schema.* TO ${account(t)}`);
      return 'processlist';
    }
  }

  /** The server's id of the sampler's own session (CONNECTION_ID()), for diagnostics. */
  get sessionId(): number | null {
    return this.conn.threadId ?? null;
  }

  async sample(at: number = Date.now()): Promise<AshSample[]> {
    const ts = at;
    try {
      const [rows] = await this.conn.query<RowDataPacket[]>(this.sql.get(this.source === 'performance_schema' ? 'ps_sessions' : 'processlist'), this.scopeParams);
      if (rows.length === 0) return [];
      const waits = this.rowLocks ? readRowLockWaits((await this.conn.query<RowDataPacket[]>(this.sql.get('row_lock_waits')))[0]) : new Map<number, number | null>();
      return this.source === 'performance_schema' ? psToSamples(rows.map(readPsRow), waits, ts, this.vuTag) : processlistToSamples(rows.map(readProcesslistRow), waits, ts);
    } catch (e) {
      if (isConnectionError(e)) await this.reconnect().catch(() => undefined);
      throw new SledgeError('SLEDGE_E_DB', `${this.flavour.display} ASH sample from ${this.source} failed: ${messageOf(e)}`, { cause: e });
    }
  }

  /** After a lost connection (server restart): log in again; while the server is away this fails and the next call retries. */
  private async reconnect(): Promise<void> {
    const old = this.conn;
    old.end().catch(() => undefined);
    this.conn = await connect(this.t, this.flavour, { useDatabase: false, role: ASH_ROLE });
  }

  async close(): Promise<void> {
    await this.conn.end().catch(() => undefined);
  }
}
