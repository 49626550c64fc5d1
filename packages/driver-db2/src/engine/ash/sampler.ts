import type { AshSampler, AshSamplerOptions, Logger } from '@sledge/core';
import { SledgeError, type AshSample, type Db2Target } from '@sledge/protocol';
import { Db2Session, type Row } from '../connection.js';
import { classifyError, dbError, sqlCode, sqlState } from '../errors.js';
import { setClientApplName } from './clientinfo.js';
import { agentsToSamples, readAgentRow } from './rows.js';
import { ashStatement } from './sql.js';

/** Client application name of the sampler's own connection. */
export const APP_ASH = 'sledge-ash';

/** SQL0551N: no privilege on the MON_GET_* routines. */
function isPrivilegeError(e: unknown): boolean {
  return sqlCode(e) === -551 || sqlState(e) === '42501';
}

export function monitorPrivilegeError(t: Db2Target, cause?: unknown): SledgeError {
  return new SledgeError(
    'SLEDGE_E_DB',
    `Db2 user "${t.user}" may not run the MON_GET_* table functions ASH sampling needs: run GRANT SQLADM ON DATABASE TO USER ${t.user.toUpperCase()} (as a user with SECADM), or grant EXECUTE on SYSPROC.MON_GET_AGENT, MON_GET_CONNECTION, MON_GET_ACTIVITY and MON_GET_APPL_LOCKWAIT`,
    { field: 'target.user', ...(cause === undefined ? {} : { cause }) },
  );
}

/**
 * Samples Db2's active applications every call: the coordinator agent of
 * each application (MON_GET_AGENT) that is not waiting for its client,
 * with the connection's names, the running statement (MON_GET_ACTIVITY)
 * and the lock holder it waits for (MON_GET_APPL_LOCKWAIT). Runs as the
 * TPROC-C user, which needs SQLADM (or EXECUTE on those functions).
 * The functions report the connected (target) database only; by default
 * only the target user's applications are read, with scope 'server' every
 * user's, those outside marked `outside`.
 */
export class Db2AshSampler implements AshSampler {
  readonly source = 'mon_get_agent';

  private constructor(
    private conn: Db2Session,
    private readonly t: Db2Target,
    private readonly params: [string, number],
    private readonly vuTag: string | undefined,
  ) {}

  static async open(t: Db2Target, log: Logger, opts: AshSamplerOptions = {}): Promise<Db2AshSampler> {
    const conn = await Db2Session.open(t);
    const params: [string, number] = [t.user, opts.scope === 'server' ? 1 : 0];
    try {
      await setClientApplName(conn, APP_ASH, log);
      // Fail now, with what to grant, rather than at every sample.
      await conn.query(ashStatement('agents'), params);
    } catch (e) {
      await conn.close().catch(() => undefined);
      if (isPrivilegeError(e)) throw monitorPrivilegeError(t, e);
      throw dbError(e, 'opening the ASH sampler (MON_GET_AGENT)');
    }
    log(`ASH: sampling MON_GET_AGENT as "${t.user}" in ${params[1] ? "every user's applications" : `user ${t.user.toUpperCase()}'s applications`}`);
    return new Db2AshSampler(conn, t, params, opts.vuTag);
  }

  async sample(at: number = Date.now()): Promise<AshSample[]> {
    const ts = at;
    let rows: Row[];
    try {
      rows = await this.conn.query(ashStatement('agents'), this.params);
    } catch (e) {
      if (classifyError(e).kind === 'connection') await this.reconnect();
      if (isPrivilegeError(e)) throw monitorPrivilegeError(this.t, e);
      throw dbError(e, 'ASH sample from MON_GET_AGENT');
    }
    return agentsToSamples(rows.map(readAgentRow), ts, this.vuTag);
  }

  /** After a lost connection: log in again for the next call; while the database is away that fails and the next call retries. */
  private async reconnect(): Promise<void> {
    await this.conn.close().catch(() => undefined);
    try {
      this.conn = await Db2Session.open(this.t);
      await setClientApplName(this.conn, APP_ASH);
    } catch {
      // still away
    }
  }

  close(): Promise<void> {
    return this.conn.close().catch(() => undefined);
  }
}
