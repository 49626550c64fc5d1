import type { AshSampler, AshSamplerOptions, Logger } from '@sledge/core';
import { SledgeError, type AshSample, type OracleTarget } from '@sledge/protocol';
import { OraSession, type Row } from '../connection.js';
import { classifyError, dbError, oracleCode } from '../errors.js';
import { readSessionRow, sessionsToSamples } from './rows.js';
import { ashStatement } from './sql.js';

/** Client identifier and module of the sampler's own session. */
export const APP_ASH = 'sledge-ash';

export type OracleAshSource = 'v$session' | 'v$active_session_history';

/** Errors of a missing grant on the views. */
const NO_ACCESS = new Set(['ORA-00942', 'ORA-01031']);

function accessError(t: OracleTarget, what: string, e: unknown): SledgeError {
  return new SledgeError(
    'SLEDGE_E_DB',
    `Oracle user "${t.systemUser}" cannot read ${what} for ASH (${oracleCode(e)}): run GRANT SELECT_CATALOG_ROLE TO ${t.systemUser}; or use a DBA account as target.systemUser`,
    { field: 'target.systemUser', cause: e },
  );
}

/**
 * Samples Oracle's active sessions as the system user. Licence-safe by
 * default: V$SESSION now (status ACTIVE, type USER, idle waits left out).
 * When the target opts in to the Diagnostics Pack (target.useAwr, the same
 * switch as AWR-based TPM) and control_management_pack_access allows it,
 * the rows come from V$ACTIVE_SESSION_HISTORY instead: every row sampled
 * since the previous call (Oracle samples each second, foreground and
 * background), stamped at its own sampling time.
 *
 * Scope (AshSamplerOptions.scope): by default only the sessions of the
 * target's TPROC-C user (its schema is the benchmark's) and, from ASH, the
 * instance's background processes are read; with 'server' every session,
 * those outside marked `outside`. A session is one of the job's VUs only
 * when its client identifier carries the job's tag.
 */
export class OracleAshSampler implements AshSampler {
  private sinceId = 0;

  private constructor(
    private conn: OraSession,
    private readonly t: OracleTarget,
    readonly source: OracleAshSource,
    private readonly scope: { scope_user: string; server: number },
    private readonly vuTag: string | undefined,
  ) {}

  static async open(t: OracleTarget, log: Logger, opts: AshSamplerOptions = {}): Promise<OracleAshSampler> {
    const scope = { scope_user: t.user, server: opts.scope === 'server' ? 1 : 0 };
    const conn = await OraSession.open(t, 'system', APP_ASH);
    try {
      let source: OracleAshSource = 'v$session';
      if (t.useAwr) {
        const rows = await conn.query(ashStatement('pack_access'));
        const access = String(rows[0]?.['value'] ?? '');
        if (/DIAGNOSTIC/i.test(access)) source = 'v$active_session_history';
        else log(`ASH: target.useAwr is on but control_management_pack_access = ${access || 'unknown'} (Diagnostics Pack off): sampling V$SESSION`);
      }
      const s = new OracleAshSampler(conn, t, source, scope, opts.vuTag);
      if (source === 'v$active_session_history') {
        const r = await conn.query(ashStatement('ash_latest'));
        // Start one sample back: the first call returns the newest second.
        s.sinceId = Math.max(0, Number(r[0]?.['sample_id'] ?? 0) - 1);
      } else {
        // Fail now, not at the first sample, when the views cannot be read.
        await conn.query(ashStatement('sessions'), scope);
      }
      const where = scope.server ? 'every schema' : `schema ${t.user}`;
      log(`ASH: sampling ${source === 'v$session' ? 'V$SESSION (licence-safe)' : 'V$ACTIVE_SESSION_HISTORY (Diagnostics Pack)'} as "${t.systemUser}" in ${where}`);
      return s;
    } catch (e) {
      await conn.close().catch(() => undefined);
      const code = oracleCode(e);
      if (code && NO_ACCESS.has(code)) throw accessError(t, 'V$SESSION / V$ACTIVE_SESSION_HISTORY', e);
      throw dbError(e, 'opening the ASH sampler');
    }
  }

  async sample(at: number = Date.now()): Promise<AshSample[]> {
    const now = at;
    let rows: Row[];
    try {
      if (this.source === 'v$session') {
        rows = await this.conn.query(ashStatement('sessions'), this.scope);
      } else {
        rows = await this.conn.query(ashStatement('ash_since'), { since_id: this.sinceId, ...this.scope });
      }
    } catch (e) {
      if (classifyError(e).kind === 'connection') await this.reconnect();
      throw dbError(e, `ASH sample from ${this.source}`);
    }
    const typed = rows.map(readSessionRow);
    for (const r of typed) if (r.sample_id > this.sinceId) this.sinceId = r.sample_id;
    return sessionsToSamples(typed, now, this.vuTag);
  }

  /** After a lost connection (instance restart): log in again for the next call; a failure shows then. */
  private async reconnect(): Promise<void> {
    await this.conn.close().catch(() => undefined);
    try {
      this.conn = await OraSession.open(this.t, 'system', APP_ASH);
    } catch {
      // The database is still away: the next sample() fails on the closed session and tries again.
    }
  }

  close(): Promise<void> {
    return this.conn.close().catch(() => undefined);
  }
}
