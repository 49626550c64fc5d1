import { splitTproccFields, tproccTarget, type TproccTarget } from '@sledge/core';
import { OracleTarget, SledgeError, parseTproccSchema, validate } from '@sledge/protocol';

const bool = (v: string, field: string): boolean => {
  if (/^(true|1|yes|on)$/i.test(v)) return true;
  if (/^(false|0|no|off)$/i.test(v)) return false;
  throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be true or false, got "${v}"`, { field });
};

/**
 * Parse oracle://user:pass@host:port/service?system=system&systemPassword=...
 * (also defaultTablespace, orderLineTablespace, tempTablespace, partition,
 * useAwr, checkpoint) into a validated OracleTarget. The connect string is
 * the thin-mode Easy Connect form host:port/service.
 */
export function parseOracleUrl(url: string): TproccTarget<OracleTarget> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'not a URL: expected oracle://user:pass@host:port/service', { field: 'url' });
  }
  if (u.protocol !== 'oracle:') throw new SledgeError('SLEDGE_E_VALIDATION', `expected an oracle:// URL, got ${u.protocol}//`, { field: 'url' });
  const service = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!u.hostname || !service) throw new SledgeError('SLEDGE_E_VALIDATION', 'the URL needs a host and a service name: oracle://user:pass@host:port/service', { field: 'url' });
  const t: Record<string, unknown> = { engine: 'oracle', connectString: `${u.host}/${service}` };
  if (u.username) t['user'] = decodeURIComponent(u.username);
  if (u.password) t['password'] = decodeURIComponent(u.password);
  const q = u.searchParams;
  const system = q.get('system') ?? q.get('systemUser');
  if (system !== null) t['systemUser'] = system;
  const systemPassword = q.get('systemPassword');
  if (systemPassword !== null) t['systemPassword'] = systemPassword;
  for (const key of ['defaultTablespace', 'orderLineTablespace', 'tempTablespace'] as const) {
    const v = q.get(key);
    if (v !== null) t[key] = v;
  }
  for (const key of ['partition', 'useAwr', 'checkpoint'] as const) {
    const v = q.get(key);
    if (v !== null) t[key] = bool(v, `target.${key}`);
  }
  // The URL may also carry the TPROC-C schema options; errors name them target.<field> as the URL's parameters.
  const { target, schema } = splitTproccFields('oracle', t);
  return tproccTarget(validate(OracleTarget, target, 'target'), parseTproccSchema('oracle', schema, 'target'));
}
