import type { Client, ClientConfig } from 'pg';
import type { Logger } from '@sledge/core';
import { SledgeError, type PostgresqlTarget } from '@sledge/protocol';
import { pgConfig, type Login } from './config.js';
import { errorMessage, mapConnectError } from './errors.js';
import { loadPg } from './lib.js';

async function loadClientClass(): Promise<typeof Client> {
  try {
    return (await loadPg()).Client;
  } catch (e) {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the PostgreSQL client library "pg" does not load (${errorMessage(e)}): run pnpm install`, { cause: e });
  }
}

async function open(ClientClass: typeof Client, config: ClientConfig, log: Logger | undefined, label: string): Promise<Client> {
  const c = new ClientClass(config);
  // An idle connection that dies (server restart, pg_terminate_backend) emits 'error';
  // without a listener Node would crash the process. The next query on it fails and is classified.
  c.on('error', (e: Error) => log?.(`${label}: connection lost: ${e.message}`));
  await c.connect();
  return c;
}

/** Servers (host:port) that answered sslmode=prefer without TLS: later sessions connect plain at once. */
const plainOnly = new Set<string>();

/**
 * Open one session of a target as the TPC user or the superuser. Failures
 * become SledgeErrors that name the field to fix (mapConnectError).
 * sslmode=prefer tries TLS first and falls back to a plain connection when
 * the server does not offer TLS, as libpq does.
 */
export async function connect(t: PostgresqlTarget, login: Login, applicationName: string, log?: Logger): Promise<Client> {
  const ClientClass = await loadClientClass();
  const config = pgConfig(t, login, applicationName);
  const server = `${t.host}:${t.port}`;
  if (t.sslmode === 'prefer' && plainOnly.has(server)) config.ssl = false;
  try {
    return await open(ClientClass, config, log, applicationName);
  } catch (e) {
    if (t.sslmode === 'prefer' && config.ssl !== false && /does not support SSL/i.test(errorMessage(e))) {
      plainOnly.add(server);
      try {
        return await open(ClientClass, { ...config, ssl: false }, log, applicationName);
      } catch (e2) {
        throw mapConnectError(e2, t, login);
      }
    }
    throw mapConnectError(e, t, login);
  }
}

/** End a session, ignoring errors from one that is already gone. */
export async function closeQuietly(c: Client | null | undefined): Promise<void> {
  if (!c) return;
  try {
    await c.end();
  } catch {
    // already closed or broken: nothing left to release
  }
}
