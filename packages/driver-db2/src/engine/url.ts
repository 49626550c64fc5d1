import { splitTproccFields, tproccTarget, type TproccTarget } from '@sledge/core';
import { Db2Target, SledgeError, parseTproccSchema, validate } from '@sledge/protocol';

/**
 * Parse db2://user:pass@host:port/database (also ?tablespace=...&partition=true)
 * into a validated Db2Target with defaults applied.
 */
export function parseDb2Url(url: string): TproccTarget<Db2Target> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'not a URL: expected db2://user:pass@host:port/database', { field: 'url' });
  }
  if (u.protocol !== 'db2:') throw new SledgeError('SLEDGE_E_VALIDATION', `expected a db2:// URL, got ${u.protocol}//`, { field: 'url' });
  const t: Record<string, unknown> = { engine: 'db2' };
  if (u.hostname) t['host'] = u.hostname.replace(/^\[|\]$/g, '');
  if (u.port) t['port'] = Number(u.port);
  if (u.username) t['user'] = decodeURIComponent(u.username);
  if (u.password) t['password'] = decodeURIComponent(u.password);
  const db = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (db) t['database'] = db;
  const ts = u.searchParams.get('tablespace');
  if (ts !== null) t['tablespace'] = ts;
  const p = u.searchParams.get('partition');
  if (p !== null) {
    if (!/^(true|false|1|0)$/i.test(p)) throw new SledgeError('SLEDGE_E_VALIDATION', `target.partition must be true or false, got "${p}"`, { field: 'target.partition' });
    t['partition'] = /^(true|1)$/i.test(p);
  }
  // The URL may also carry the TPROC-C schema options; errors name them target.<field> as the URL's parameters.
  const { target, schema } = splitTproccFields('db2', t);
  return tproccTarget(validate(Db2Target, target, 'target'), parseTproccSchema('db2', schema, 'target'));
}
