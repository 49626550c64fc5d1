import type { ClientConfig } from 'pg';
import type { PostgresqlTarget } from '@sledge/protocol';

/** Which login a connection uses: the TPC user in the TPC database, or the superuser in the default database. */
export type Login = 'user' | 'superuser';

/** Connect timeout of every session. */
export const CONNECT_TIMEOUT_MS = 5000;

/** application_name values, so samplers (pg_stat_activity, ASH) can tell Sledge's sessions apart. */
export const APP_MONITOR = 'sledge-monitor';
export const APP_LOADER = 'sledge-loader';
export function vuApplicationName(vu: number): string {
  return `sledge-vu-${vu}`;
}

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

/** The target fields a login reads, for errors that name the field to fix. */
export function loginFields(login: Login): { user: string; password: string; database: string } {
  return login === 'superuser'
    ? { user: 'target.superuser', password: 'target.superuserPassword', database: 'target.defaultDatabase' }
    : { user: 'target.user', password: 'target.password', database: 'target.database' };
}
