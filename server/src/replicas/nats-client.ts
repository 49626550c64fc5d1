import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';
import { SledgeError } from '@sledge/protocol';
import { publicUrl, type NatsSettings } from './nats-conn.js';

/**
 * The NATS client's connection. Only hub.ts (which app.ts imports only when the server has
 * SLEDGE_NATS_URL) and replica.ts import this file, so a server or CLI command without NATS never
 * loads the client's modules. Imported statically, not with import(): in the process bundles
 * (scripts/bundle-process.mjs) an import() of a CommonJS package would not give its named exports.
 */

/** Connect (typed errors: SLEDGE_E_CONNECT when NATS cannot be reached, SLEDGE_E_AUTH when it refuses the credentials). */
export async function connectNats(s: NatsSettings, name: string): Promise<NatsConnection> {
  let servers: string;
  let user = s.user;
  let pass = s.password;
  try {
    const u = new URL(s.url);
    if (u.username) user ??= decodeURIComponent(u.username);
    if (u.password) pass ??= decodeURIComponent(u.password);
    u.username = '';
    u.password = '';
    servers = u.toString().replace(/\/$/, '');
  } catch {
    throw new SledgeError('SLEDGE_E_VALIDATION', `the NATS URL ${JSON.stringify(s.url)} is not a URL: give nats://host:4222`, { field: 'nats' });
  }
  const opts: NodeConnectionOptions = { servers, name, maxReconnectAttempts: -1, reconnectTimeWait: 500, timeout: 5000 };
  if (s.token) opts.token = s.token;
  if (user !== undefined) opts.user = user;
  if (pass !== undefined) opts.pass = pass;
  if (s.creds) {
    let raw: Buffer;
    try {
      raw = readFileSync(s.creds);
    } catch (e) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `the NATS credentials file ${s.creds} cannot be read: ${(e as Error).message}`, { field: 'creds' });
    }
    opts.authenticator = credsAuthenticator(new Uint8Array(raw));
  }
  if (s.tlsCa || s.tlsCert || s.tlsKey) {
    opts.tls = { ...(s.tlsCa ? { caFile: s.tlsCa } : {}), ...(s.tlsCert ? { certFile: s.tlsCert } : {}), ...(s.tlsKey ? { keyFile: s.tlsKey } : {}) };
  }
  try {
    return await connect(opts);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const auth = /auth|permission/i.test(msg) || (e as { code?: string }).code === 'AUTHORIZATION_VIOLATION';
    throw new SledgeError(auth ? 'SLEDGE_E_AUTH' : 'SLEDGE_E_CONNECT', `NATS at ${publicUrl(s.url)}: ${auth ? 'refused the credentials' : 'cannot be reached'} (${msg})`, { cause: e });
  }
}
