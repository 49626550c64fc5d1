import type { ClientConfig } from 'pg';
import type { PostgresqlTarget } from '@sledge/protocol';
import { vuSessionName } from '@sledge/core';

/** Which login a connection uses: the TPC user in the TPC database, or the superuser in the default database. */
export type Login = 'user' | 'superuser';

/** Connect timeout of every session. */
export const CONNECT_TIMEOUT_MS = 5000;

/** application_name values, so samplers (pg_stat_activity, ASH) can tell Sledge's sessions apart. */
export const APP_MONITOR = 'sledge-monitor';
export const APP_LOADER = 'sledge-loader';
/** A VU's application_name: core vuSessionName(), sledge-vu-<n>~<job's tag>. */
export const vuApplicationName = (vu: number, tag?: string): string => vuSessionName(vu, tag);

/** node-postgres TLS setting for a libpq-style sslmode. 'prefer' starts with TLS; connect() falls back to plain. */
export function sslFor(mode: PostgresqlTarget['sslmode']): ClientConfig['ssl'] {
  switch (mode) {
    case 'disable':
      return false;
    case 'prefer':
    case 'require':
      // libpq's require/prefer encrypt without verifying the certificate.
      return { rejectUnauthorized: false };
    case 'verify-full':
      return { rejectUnauthorized: true };
  }
}

/** Connection settings for one login of a target. */
export function pgConfig(t: PostgresqlTarget, login: Login, applicationName: string): ClientConfig {
  const su = login === 'superuser';
  return {
    host: t.host,
    port: t.port,
    user: su ? t.superuser : t.user,
    password: su ? t.superuserPassword : t.password,
    database: su ? t.defaultDatabase : t.database,
    ssl: sslFor(t.sslmode),
    application_name: applicationName,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  };
}

/** A libpq conninfo value: bare when it is plain, else single-quoted with \\ and \' escaped. */
export function conninfoValue(v: string): string {
  return /^[A-Za-z0-9_.\-/:]+$/.test(v) ? v : `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * The libpq connection string of one login of a target: the settings of
 * pgConfig() (host, port, user, password, database, sslmode, a 5 s connect
 * timeout), application_name left to the caller. Contains the password:
 * never log it. sslmode=prefer falls back to a plain connection in libpq
 * itself; verify-full checks the certificate against libpq's root store
 * (~/.postgresql/root.crt or sslrootcert), not Node's.
 */
export function libpqConninfo(t: PostgresqlTarget, login: Login): string {
  const c = pgConfig(t, login, '');
  const parts: [string, string][] = [
    ['host', String(c.host)],
    ['port', String(c.port)],
    ['user', String(c.user)],
    ['dbname', String(c.database)],
    ['sslmode', t.sslmode],
    ['connect_timeout', String(CONNECT_TIMEOUT_MS / 1000)],
  ];
  if (typeof c.password === 'string' && c.password !== '') parts.splice(3, 0, ['password', c.password]);
  return parts.map(([k, v]) => `${k}=${conninfoValue(v)}`).join(' ');
}

/** The target fields a login reads, for errors that name the field to fix. */
export function loginFields(login: Login): { user: string; password: string; database: string } {
  return login === 'superuser'
    ? { user: 'target.superuser', password: 'target.superuserPassword', database: 'target.defaultDatabase' }
    : { user: 'target.user', password: 'target.password', database: 'target.database' };
}
