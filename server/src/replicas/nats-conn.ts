/**
 * NATS settings: what `sledge replica`'s flags and a server's SLEDGE_NATS_* say, read without the
 * NATS client (nats-client.ts connects; main.ts reads the environment here in every server).
 */

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
