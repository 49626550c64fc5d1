import { SledgeError } from '../errors.js';
import { REDACTED } from '../redact.js';
import { secretBindingMismatch, secretFields } from '../targets.js';
import { isEngineId } from '../engines.js';
import { poolConnectionTarget, type PoolConnection } from './pool.js';

/**
 * A target sent back with "********" for the secrets of its pool connections
 * (what every reply shows) takes the saved target's values: each from the
 * saved connection of the same name, and only while that connection still
 * points where it did (the secret's x-bound-to fields of the connection as
 * it resolves: host, port, user, TLS ...). `open` turns a stored value into
 * the secret (decrypting it). Changes `given` in place; throws
 * SLEDGE_E_VALIDATION naming the field otherwise.
 */
export function fillPoolSecrets(saved: Record<string, unknown>, given: Record<string, unknown>, open: (stored: string, field: string) => string, what: string): void {
  const pool = given['pool'] as { connections?: PoolConnection[] } | undefined;
  if (!pool?.connections || !isEngineId(given['engine'])) return;
  const secrets = secretFields(given['engine']);
  const savedConns = ((saved['pool'] as { connections?: PoolConnection[] } | undefined)?.connections ?? []) as PoolConnection[];
  pool.connections.forEach((c, i) => {
    for (const k of secrets) {
      if (c[k] !== REDACTED) continue;
      const field = `target.pool.connections.${i}.${k}`;
      const was = savedConns.find((s) => s.name === c.name);
      if (saved['engine'] !== given['engine'] || !was || typeof was[k] !== 'string') {
        throw new SledgeError('SLEDGE_E_VALIDATION', `${field} is "${REDACTED}" but ${what} has no ${k} for pool connection ${c.name}: type the secret`, { field });
      }
      const differs = secretBindingMismatch(poolConnectionTarget(saved, was) as Record<string, unknown>, poolConnectionTarget(given, c) as Record<string, unknown>, k);
      if (differs.length) {
        throw new SledgeError('SLEDGE_E_VALIDATION', `${field} is "${REDACTED}" but pool connection ${c.name}'s ${differs.join(', ')} differ from ${what}: a saved secret goes only where it was saved for; type the secret`, { field });
      }
      c[k] = open(was[k] as string, field);
    }
  });
}
