import { splitTproccFields, tproccTarget, type TproccTarget } from '@sledge/core';
import { MssqlTarget, SledgeError, parseTproccSchema, validate } from '@sledge/protocol';

const bool = (v: string, field: string): boolean => {
  if (/^(true|1|yes|on)$/i.test(v)) return true;
  if (/^(false|0|no|off)$/i.test(v)) return false;
  throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be true or false, got "${v}"`, { field });
};

/**
 * Parse mssql://user:pass@host:port/db?encrypt=true&trustServerCertificate=true
 * (also: authentication=azure-active-directory-password, clientId, tenantId,
 * useBulk, checkpoint) into a validated MssqlTarget with defaults applied.
 */
export function parseMssqlUrl(url: string): TproccTarget<MssqlTarget> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'not a URL: expected mssql://user:pass@host:port/database', { field: 'url' });
  }
  if (u.protocol !== 'mssql:' && u.protocol !== 'sqlserver:') {
    throw new SledgeError('SLEDGE_E_VALIDATION', `expected an mssql:// URL, got ${u.protocol}//`, { field: 'url' });
  }
  const t: Record<string, unknown> = { engine: 'mssql' };
  if (u.hostname) t['host'] = u.hostname.replace(/^\[|\]$/g, '');
  if (u.port) t['port'] = Number(u.port);
  if (u.username) t['user'] = decodeURIComponent(u.username);
  if (u.password) t['password'] = decodeURIComponent(u.password);
  const db = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (db) t['database'] = db;
  const q = u.searchParams;
  for (const [key, field] of [
    ['encrypt', 'encrypt'],
    ['trustServerCertificate', 'trustServerCertificate'],
    ['useBulk', 'useBulk'],
    ['checkpoint', 'checkpoint'],
  ] as const) {
    const v = q.get(key);
    if (v !== null) t[field] = bool(v, `target.${field}`);
  }
  const auth = q.get('authentication');
  if (auth !== null) t['authentication'] = auth;
  const clientId = q.get('clientId') ?? q.get('azureClientId');
  if (clientId !== null) t['azureClientId'] = clientId;
  const tenantId = q.get('tenantId') ?? q.get('azureTenantId');
  if (tenantId !== null) t['azureTenantId'] = tenantId;
  // The URL may also carry the TPROC-C schema options; errors name them target.<field> as the URL's parameters.
  const { target, schema } = splitTproccFields('mssql', t);
  return tproccTarget(validate(MssqlTarget, target, 'target'), parseTproccSchema('mssql', schema, 'target'));
}
