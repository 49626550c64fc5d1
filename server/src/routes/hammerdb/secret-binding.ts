import { poolInheritanceFaults, secretBindingMismatch, secretBindings, secretFields, type EngineId } from '@sledge/protocol';
import { databaseByPrefix, defaultDict, type Section } from './dicts.js';
import { dictToSledge, dictToSledgeTproch, keyForField, mappingOf } from './keymap.js';
import type { HdbSession } from './state.js';

/**
 * Session passwords are bound to the connection they were set with, as a
 * saved configuration's secrets are (x-bound-to in protocol targets.ts):
 * `diset tpcc pg_pass X` (or a customscript, or a session restored at start)
 * records the host, port, user and TLS settings X goes to (the fields the
 * target's password is bound to, as the dict resolves them then). A verb
 * that connects refuses while any of them has changed since (`diset
 * connection pg_port 6543`), saying to set the password again; setting it
 * again binds it to the connection as it is now. A password at HammerDB's
 * public default ("tpcc", "postgres" ...) is bound to nothing.
 *
 * A connect pool file's connection that points elsewhere and has no password
 * of its own would inherit a bound password: refused too (poolInheritanceFaults).
 */

/** Binding id of a dict key: "<prefix>.<section>.<key>" (the persisted secrets' names). */
export const bindingId = (prefix: string, section: Section, key: string) => `${prefix}.${section}.${key}`;

/** The target secret (password, superuserPassword, systemPassword) a dict key sets, or undefined for any other key. */
export function secretFieldOf(prefix: string, engine: EngineId, key: string): string | undefined {
  const m = mappingOf(prefix, engine, key);
  const field = m?.path.startsWith('target.') ? m.path.slice('target.'.length) : undefined;
  return field !== undefined && secretFields(engine).includes(field) ? field : undefined;
}

/** The target a section's keys feed: the tpch section's is TPROC-H's, the others TPROC-C's. Undefined when a value does not convert. */
function targetOf(s: HdbSession, prefix: string, section: Section): Record<string, unknown> | undefined {
  const db = databaseByPrefix(prefix);
  const dict = s.dicts.get(prefix);
  if (!db || !dict) return undefined;
  try {
    return (section === 'tpch' ? dictToSledgeTproch : dictToSledge)(prefix, db.engine, dict).target;
  } catch {
    return undefined;
  }
}

/**
 * Bind the password `key` of database `prefix` to the connection fields its
 * dict gives now (nothing for a key that is no password). HammerDB's default
 * password (tpcc, postgres, mysql ...) is public and bound to nothing.
 */
export function bindSecret(s: HdbSession, prefix: string, section: Section, key: string): void {
  const db = databaseByPrefix(prefix);
  const field = db ? secretFieldOf(prefix, db.engine, key) : undefined;
  if (!db || !field) return;
  const id = bindingId(prefix, section, key);
  if (s.dicts.get(prefix)?.[section]?.[key] === defaultDict(prefix)[section]?.[key]) {
    s.bindings.delete(id);
    return;
  }
  const t = targetOf(s, prefix, section) ?? {};
  const bound = secretBindings(db.engine)[field] ?? [];
  s.bindings.set(id, { engine: db.engine, ...Object.fromEntries(bound.map((f) => [f, t[f] ?? null])) });
}

/** The bound fields that changed since password `key` was set (empty: it may go there, or it is not bound). */
export function bindingChanges(s: HdbSession, prefix: string, section: Section, key: string, target?: Record<string, unknown>): string[] {
  const snap = s.bindings.get(bindingId(prefix, section, key));
  const db = databaseByPrefix(prefix);
  const field = db ? secretFieldOf(prefix, db.engine, key) : undefined;
  if (!snap || !field) return [];
  return secretBindingMismatch(snap, target ?? targetOf(s, prefix, section) ?? {}, field);
}

/** The dict sections a job of the session's benchmark reads (dictToSledge / dictToSledgeTproch). */
const sectionsOf = (s: HdbSession): Section[] => (s.bm === 'TPC-H' ? ['connection', 'tpch'] : ['connection', 'tpcc']);

/** A Sledge target field as the dict key that sets it (pg_port), for messages. */
const keyOf = (s: HdbSession, field: string) => keyForField(s.prefix, s.db.engine, `target.${field}`, s.bm === 'TPC-H') ?? `target.${field}`;

/**
 * Before a verb connects with `target` (the session's, the current
 * benchmark's view, with its pool when there is one): HammerDB's error
 * message when a bound password would go where it was not set for, or null.
 */
export function boundSecretRefusal(s: HdbSession, target: Record<string, unknown>): string | null {
  const dict = s.dict;
  const filled: string[] = [];
  const pass: Record<string, string> = {};
  for (const section of sectionsOf(s)) {
    for (const key of Object.keys(dict[section] ?? {})) {
      const field = secretFieldOf(s.prefix, s.db.engine, key);
      if (!field || !s.bindings.has(bindingId(s.prefix, section, key))) continue;
      const changed = bindingChanges(s, s.prefix, section, key, target);
      if (changed.length) {
        return `${key} was set for another connection: ${changed.map((f) => keyOf(s, f)).join(', ')} changed since, and a password goes only to the host, port, user and TLS settings it was set with. Set it again for this connection: diset ${section} ${key} <password>`;
      }
      filled.push(field);
      pass[field] = key;
    }
  }
  const faults = poolInheritanceFaults(target, filled);
  if (!faults.length) return null;
  const file = `${s.prefix}cpool.xml`;
  return faults
    .map((f) => {
      const key = pass[f.secret] ?? keyOf(s, f.secret);
      return `pool connection ${f.name} of ${file} changes ${f.differs.map((d) => keyOf(s, d)).join(', ')} but has no ${key} of its own: the session's ${key} goes only to the connection it was set for. Add <${key}> to ${f.name} in ${file}`;
    })
    .join('; ');
}

