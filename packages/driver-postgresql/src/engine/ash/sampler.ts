import type { Client } from 'pg';
import type { AshSampler, AshSamplerOptions, Logger } from '@sledge/core';
import { SledgeError, type AshSample, type AshScope, type PostgresqlTarget } from '@sledge/protocol';
import type { Login } from '../config.js';
import { closeQuietly, connect } from '../connect.js';
import { classifyError, dbError, errorMessage } from '../errors.js';
import { convertActivity, type PgActivityRow } from './rows.js';
import { ashStatement } from './sql.js';

/** application_name of the sampler's own session. */
export const APP_ASH = 'sledge-ash';

export type PgAshSource = 'pgsentinel' | 'pg_stat_activity';

/** The GRANT that lets a login read every session (pg_stat_activity state and query). */
export function visibilityFix(login: string): string {
  return `GRANT pg_read_all_stats TO ${login}`;
}

interface Candidate {
  c: Client;
  login: Login;
  name: string;
  seesAll: boolean;
  pgsentinel: boolean;
}

async function inspect(c: Client, login: Login, log: Logger): Promise<Candidate> {
  const v = await c.query<{ login: string; sees_all: boolean }>(ashStatement('visibility'));
  const row = v.rows[0]!;
  let pgsentinel = false;
  const inst = await c.query<{ installed: boolean }>(ashStatement('pgsentinel_installed'));
  if (inst.rows[0]?.installed) {
    try {
      await c.query(ashStatement('pgsentinel_latest'));
      pgsentinel = true;
    } catch (e) {
      // CREATE EXTENSION done but the library is not in shared_preload_libraries.
      log(`ASH: pgsentinel is installed but cannot be read (${errorMessage(e)}): add pgsentinel to shared_preload_libraries and restart; sampling pg_stat_activity`);
    }
  }
  return { c, login, name: row.login, seesAll: row.sees_all, pgsentinel };
}

/** What a sampler keeps of its options: the scope and its parameters, the job's VU tag. */
interface Scope {
  scope: AshScope;
  /** The target database and its roles (the TPC user and the superuser). */
  database: string;
  roles: string[];
  vuTag: string | undefined;
}

function scopeOf(t: PostgresqlTarget, opts: AshSamplerOptions): Scope {
  return { scope: opts.scope ?? 'database', database: t.database, roles: [...new Set([t.user, t.superuser])], vuTag: opts.vuTag };
}

/**
 * Samples PostgreSQL's sessions every call: pgsentinel's
 * pg_active_session_history when the extension is installed and loaded
 * (its view is readable by every login), else pg_stat_activity.
 *
 * Credentials: the TPC user, unless it cannot read other sessions (neither
 * superuser nor pg_read_all_stats) or cannot log in yet (before a build
 * creates it); then the superuser in the default database. When only a
 * login with a partial view is left, sampling runs on: sessions it cannot
 * read are left out and `notice` says what to grant.
 *
 * Scope (AshSamplerOptions.scope): by default only the target database's
 * sessions of its roles and the shared background processes are read at
 * all (the statement filters them: nothing else leaves the server); with
 * 'server' every session, those outside marked `outside`. A session is one
 * of the job's VUs only when its application_name carries the job's tag.
 */
export class PgAshSampler implements AshSampler {
  /** Why the view is partial and what to grant; undefined when every session is visible. */
  notice: string | undefined;
  private lastTs = 0;
  private broken = false;
  private noticeLogged = false;

  private constructor(
    private c: Client,
    private readonly t: PostgresqlTarget,
    readonly login: Login,
    readonly loginName: string,
    readonly source: PgAshSource,
    readonly seesAll: boolean,
    private readonly log: Logger,
    private readonly sc: Scope,
  ) {
    this.watch(c);
  }

  private watch(c: Client): void {
    const lost = () => {
      this.broken = true;
    };
    c.on('error', lost);
    c.on('end', lost);
  }

  static async open(t: PostgresqlTarget, log: Logger, opts: AshSamplerOptions = {}): Promise<PgAshSampler> {
    const sc = scopeOf(t, opts);
    let partial: Candidate | undefined;
    let lastError: unknown;
    for (const login of ['user', 'superuser'] as const) {
      let c: Client | undefined;
      try {
        c = await connect(t, login, APP_ASH, log);
        const cand = await inspect(c, login, log);
        if (cand.pgsentinel || cand.seesAll) {
          await closeQuietly(partial?.c);
          return PgAshSampler.start(cand, t, log, sc);
        }
        if (partial) await closeQuietly(c);
        else partial = cand;
      } catch (e) {
        await closeQuietly(c);
        lastError = e;
      }
    }
    if (partial) return PgAshSampler.start(partial, t, log, sc);
    if (SledgeError.is(lastError)) throw lastError;
    throw dbError('opening the ASH sampler', lastError);
  }

  private static async start(cand: Candidate, t: PostgresqlTarget, log: Logger, sc: Scope): Promise<PgAshSampler> {
    const source: PgAshSource = cand.pgsentinel ? 'pgsentinel' : 'pg_stat_activity';
    const s = new PgAshSampler(cand.c, t, cand.login, cand.name, source, cand.seesAll || cand.pgsentinel, log, sc);
    if (source === 'pgsentinel') {
      const r = await cand.c.query<{ ts_ms: number }>(ashStatement('pgsentinel_latest'));
      // Start at the newest sampling instant, so the first call has at most one second of history.
      s.lastTs = Math.max(0, Number(r.rows[0]?.ts_ms ?? 0) - 1);
    }
    const where = sc.scope === 'server' ? 'every database' : `database "${sc.database}" (roles ${sc.roles.map((r) => `"${r}"`).join(', ')})`;
    log(`ASH: sampling ${source} as "${cand.name}" in ${where}${s.seesAll ? '' : ' (own sessions only)'}`);
    return s;
  }

  /** The server process of the sampler's session (pg keeps it from BackendKeyData), for diagnostics. */
  get backendPid(): number | undefined {
    const pid = (this.c as { processID?: unknown }).processID;
    return typeof pid === 'number' ? pid : undefined;
  }

  async sample(at: number = Date.now()): Promise<AshSample[]> {
    if (this.broken) await this.reconnect();
    const ts = at;
    let rows: PgActivityRow[];
    const { database, roles, scope } = this.sc;
    const scopeParams = [database, roles, scope === 'server'];
    try {
      if (this.source === 'pgsentinel') {
        const r = await this.c.query<PgActivityRow>(ashStatement('pgsentinel_since'), [this.lastTs, ...scopeParams]);
        rows = r.rows.filter((x) => (x.ts_ms ?? 0) > this.lastTs);
        for (const x of rows) if (x.ts_ms !== undefined && x.ts_ms > this.lastTs) this.lastTs = x.ts_ms;
      } else {
        rows = (await this.c.query<PgActivityRow>(ashStatement('activity'), scopeParams)).rows;
      }
    } catch (e) {
      if (classifyError(e).kind === 'connection') this.broken = true;
      throw dbError(`ASH sample from ${this.source}`, e);
    }
    const { samples, hidden } = convertActivity(rows, ts, this.sc.vuTag);
    if (hidden > 0 && !this.seesAll) this.noteHidden(hidden);
    return samples;
  }

  private noteHidden(hidden: number): void {
    const fix = visibilityFix(this.loginName);
    this.notice = `<insufficient privilege: ${fix}>`;
    if (!this.noticeLogged) {
      this.noticeLogged = true;
      this.log(`ASH: ${hidden} sessions of other users are hidden from "${this.loginName}" and not counted: ${fix} (or give the target a superuser)`);
    }
  }

  /** After a lost connection (server restart): log in again with the same login. */
  private async reconnect(): Promise<void> {
    await closeQuietly(this.c);
    this.c = await connect(this.t, this.login, APP_ASH, this.log);
    this.watch(this.c);
    this.broken = false;
  }

  async close(): Promise<void> {
    await closeQuietly(this.c);
  }
}
