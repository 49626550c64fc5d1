import { SledgeError } from '../errors.js';
import { REDACTED } from '../redact.js';
import { adminSecretFields, secretBindingMismatch, secretFields } from '../targets.js';
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

const own = (c: PoolConnection, k: string) => Object.prototype.hasOwnProperty.call(c, k);

/**
 * The target a virtual user's session on pool connection `c` opens:
 * poolConnectionTarget, except that the admin secrets (x-admin: superuser,
 * system passwords) are only the ones `c` sets itself, else empty. A
 * session never uses them, so a pool connection never carries the target's
 * anywhere.
 */
export function poolSessionTarget<T extends object>(target: T, c: PoolConnection): T {
  const t = poolConnectionTarget(target, c) as Record<string, unknown>;
  const engine = t['engine'];
  if (isEngineId(engine)) for (const k of adminSecretFields(engine)) if (!own(c, k)) t[k] = '';
  return t as T;
}

/** A pool connection that would inherit a stored secret of its target somewhere that secret was not given for. */
export interface PoolInheritance {
  /** Index into target.pool.connections. */
  index: number;
  name: string;
  /** The secret (password, superuserPassword ...). */
  secret: string;
  /** The fields the secret is bound to that the connection changes (port, host ...). */
  differs: string[];
}

/**
 * A pool connection that sets no secret of its own inherits the target's
 * (poolConnectionTarget). For the target's secrets in `filled`, the ones
 * filled in from storage rather than typed in this request (a saved
 * configuration's, a HammerDB session's), that is allowed only where the
 * secret was given for: the connection keeps every field the secret is
 * bound to (x-bound-to: host, port, user, TLS ...), or `saved` (the stored
 * target the secret came from) has a connection of that name that inherits
 * the secret too and resolves to the same bound values (the saved
 * configuration itself sends it there: the secret was typed with that pool).
 * A secret typed in this very request is not in `filled`: where its pool
 * sends it is the user's own choice. Admin secrets are not inherited at all
 * (poolSessionTarget). Returns every connection that breaks the rule, per
 * secret.
 */
export function poolInheritanceFaults(target: Record<string, unknown>, filled: readonly string[], saved?: Record<string, unknown>): PoolInheritance[] {
  const conns = (target['pool'] as { connections?: PoolConnection[] } | undefined)?.connections ?? [];
  if (!filled.length || !conns.length || !isEngineId(target['engine'])) return [];
  // Admin secrets never reach a pool connection (poolSessionTarget): nothing to inherit.
  const admin = new Set(adminSecretFields(target['engine']));
  const inherited = filled.filter((k) => !admin.has(k));
  const base = poolConnectionTarget(target, { name: '' }) as Record<string, unknown>;
  const savedConns = ((saved?.['pool'] as { connections?: PoolConnection[] } | undefined)?.connections ?? []) as PoolConnection[];
  const out: PoolInheritance[] = [];
  conns.forEach((c, index) => {
    const resolved = poolConnectionTarget(target, c) as Record<string, unknown>;
    for (const secret of inherited) {
      if (own(c, secret)) continue;
      const differs = secretBindingMismatch(base, resolved, secret);
      if (!differs.length) continue;
      const was = saved && saved['engine'] === target['engine'] ? savedConns.find((s) => s.name === c.name) : undefined;
      if (was && !own(was, secret) && secretBindingMismatch(poolConnectionTarget(saved!, was) as Record<string, unknown>, resolved, secret).length === 0) continue;
      out.push({ index, name: c.name, secret, differs });
    }
  });
  return out;
}

/**
 * poolInheritanceFaults as a typed error: SLEDGE_E_VALIDATION on
 * target.pool.connections.<i>.<secret> (every fault listed), saying to type
 * the secret for that connection. `what` names where the secret came from
 * ("saved configuration 3"). Nothing is changed.
 */
export function assertPoolInheritance(target: Record<string, unknown>, filled: readonly string[], saved: Record<string, unknown> | undefined, what: string): void {
  const faults = poolInheritanceFaults(target, filled, saved);
  if (!faults.length) return;
  throw SledgeError.ofFields(
    'SLEDGE_E_VALIDATION',
    faults.map((f) => {
      const field = `target.pool.connections.${f.index}.${f.secret}`;
      return {
        field,
        message: `${field}: pool connection ${f.name} changes the target's ${f.differs.join(', ')} but has no ${f.secret} of its own, so it would get the ${f.secret} of ${what}, which goes only where it was saved for: type the ${f.secret} for that connection`,
      };
    }),
  );
}
