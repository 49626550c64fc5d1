import { readFileSync } from 'node:fs';
import type { NatsConnection, NodeConnectionOptions } from '@nats-io/transport-node';
import { SledgeError } from '@sledge/protocol';

/** How a primary or a replica reaches NATS (flags of `sledge replica`, SLEDGE_NATS_* for both). */
export interface NatsSettings {
  url: string;
  token?: string;
  /** A .creds file (JWT + NKey seed). */
  creds?: string;
  user?: string;
  password?: string;
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  /** Subject prefix: one per primary sharing a NATS server (default "sledge"). */
  prefix?: string;
}

export const DEFAULT_PREFIX = 'sledge';

/** Does this connection authenticate (token, creds, user/password, or a TLS client certificate)? Credentials for targets go to replicas only then. */
export function authenticates(s: NatsSettings): boolean {
  if (s.token || s.creds || (s.user && s.password) || (s.tlsCert && s.tlsKey)) return true;
  try {
    const u = new URL(s.url);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}

/** The URL without credentials (what logs, the API and the UI show). */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(unparsable NATS URL)';
  }
}

/** The SLEDGE_NATS_* settings of an environment, or null when SLEDGE_NATS_URL is unset. */
export function natsSettingsFromEnv(env: NodeJS.ProcessEnv): NatsSettings | null {
  const url = env['SLEDGE_NATS_URL'];
  if (!url) return null;
  const s: NatsSettings = { url };
  const set = (k: keyof NatsSettings, name: string) => {
    const v = env[name];
    if (v) (s as unknown as Record<string, string>)[k] = v;
  };
  set('token', 'SLEDGE_NATS_TOKEN');
  set('creds', 'SLEDGE_NATS_CREDS');
  set('user', 'SLEDGE_NATS_USER');
  set('password', 'SLEDGE_NATS_PASSWORD');
  set('tlsCa', 'SLEDGE_NATS_TLS_CA');
  set('tlsCert', 'SLEDGE_NATS_TLS_CERT');
  set('tlsKey', 'SLEDGE_NATS_TLS_KEY');
  set('prefix', 'SLEDGE_NATS_PREFIX');
  return s;
}

/** Connect (typed errors: SLEDGE_E_CONNECT when NATS cannot be reached, SLEDGE_E_AUTH when it refuses the credentials). */
export async function connectNats(s: NatsSettings, name: string): Promise<NatsConnection> {
  // Loaded here, not at the top: a server or CLI command without NATS never loads the client's modules.
  const { connect, credsAuthenticator } = await import('@nats-io/transport-node');
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
