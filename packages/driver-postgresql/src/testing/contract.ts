import type { PgTproccTarget as PostgresqlTarget } from '../tprocc/target.js';
import { AUTH_ROLE } from './auth.js';

/**
 * Test-only: the driver contract's targets on this machine's PostgreSQL
 * (SLEDGE_PG_HOST, SLEDGE_PG_PORT, default 127.0.0.1:5432). Each contract file
 * has a database and a role of its own, so the files can run side by side.
 */
export const PG_HOST = process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1';
export const PG_PORT = Number(process.env['SLEDGE_PG_PORT'] ?? 5432);

export function contractTarget(database: string, user: string, extra: Partial<PostgresqlTarget> = {}): PostgresqlTarget {
  return {
    engine: 'postgresql',
    host: PG_HOST,
    port: PG_PORT,
    user,
    password: 'pw',
    database,
    superuser: 'postgres',
    superuserPassword: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres',
    defaultDatabase: 'postgres',
    sslmode: 'prefer',
    tablespace: 'pg_default',
    storedProcs: false,
    partition: false,
    vacuum: false,
    prepared: true,
    noStoredProcs: false,
    ...extra,
  };
}

/** The same target as the role that must authenticate (testing/auth.ts), with a wrong password: refused with 28P01. */
export const badAuth = (t: PostgresqlTarget): PostgresqlTarget => ({
  ...t,
  user: AUTH_ROLE,
  password: 'wrong-password-for-test',
  superuser: AUTH_ROLE,
  superuserPassword: 'wrong-password-for-test',
});

/** The same target on a closed port. */
export const unreachable = (t: PostgresqlTarget): PostgresqlTarget => ({ ...t, port: 1 });
