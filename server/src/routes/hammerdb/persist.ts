import { tmpdir } from 'node:os';
import type { HammerdbSessionDoc, JobStore } from '@sledge/jobstore';
import { databaseByPrefix, SECTIONS, type Dict, type Section } from './dicts.js';
import { GENERIC } from './generic.js';
import { bindingId, bindSecret } from './secret-binding.js';
import { isSecretDictKey } from './settings.js';
import { VU_OPTIONS, type HdbSession, type LoadedScript } from './state.js';

/**
 * The HammerDB session across restarts (HammerDB 4.5+ keeps its settings in
 * SQLite): database, benchmark, every database's dict, vuset, tcset, dgset,
 * metset, custommonitor, the generic settings, the loaded script and `jobs
 * profileid`/`jobs format`, in the
 * job store (hammerdb_session). Passwords go apart, sealed by the store like
 * saved configurations' secrets; the connection each password is bound to
 * (host, port, user: no secret) is kept with the data. Virtual users and metstart do not survive a
 * restart, as in HammerDB. Only keys the running code knows are restored.
 */

const VERSION = 1;

export function sessionDoc(s: HdbSession): HammerdbSessionDoc {
  const secrets: Record<string, string> = {};
  const dicts: Record<string, Dict> = {};
  for (const [prefix, dict] of s.dicts) {
    dicts[prefix] = Object.fromEntries(
      Object.entries(dict).map(([section, kv]) => [
        section,
        Object.fromEntries(
          Object.entries(kv).map(([k, v]) => {
            if (!isSecretDictKey(k)) return [k, v];
            secrets[`${prefix}.${section}.${k}`] = v;
            return [k, ''];
          }),
        ),
      ]),
    ) as Dict;
  }
  const bindings = Object.fromEntries(s.bindings);
  const data = { version: VERSION, prefix: s.prefix, bm: s.bm, dicts, bindings, vu: s.vu, tc: s.tc, dg: s.dg, metrics: s.metrics, customMonitor: s.customMonitor, generic: s.generic, script: s.script, jobs: s.jobs };
  return { data, secrets };
}

const str = (v: unknown): v is string => typeof v === 'string';

/** Copy the string values of `from` whose keys `into` has. */
function assignKnown(into: Record<string, string>, from: unknown): void {
  if (from === null || typeof from !== 'object') return;
  for (const [k, v] of Object.entries(from as Record<string, unknown>)) if (Object.prototype.hasOwnProperty.call(into, k) && str(v)) into[k] = v;
}

/**
 * The dicts, then each restored password's binding (secret-binding.ts): the
 * one saved with it, or, for a session saved before bindings were (no
 * `bindings` at all), the connection the restored dict gives.
 */
function restoreDicts(s: HdbSession, dicts: unknown, secrets: Record<string, string>, bindings: unknown): void {
  if (dicts === null || typeof dicts !== 'object') return;
  const restored: [string, Section, string][] = [];
  for (const [prefix, dict] of s.dicts) {
    const saved = (dicts as Record<string, Record<string, unknown>>)[prefix];
    for (const section of SECTIONS) {
      const kv = dict[section];
      if (!kv) continue;
      assignKnown(kv, saved?.[section]);
      for (const k of Object.keys(kv)) {
        const secret = secrets[bindingId(prefix, section, k)];
        if (isSecretDictKey(k) && secret !== undefined) {
          kv[k] = secret;
          restored.push([prefix, section, k]);
        }
      }
    }
  }
  const savedBindings = bindings !== null && typeof bindings === 'object' ? (bindings as Record<string, unknown>) : undefined;
  for (const [prefix, section, k] of restored) {
    const id = bindingId(prefix, section, k);
    const b = savedBindings?.[id];
    if (b !== null && typeof b === 'object' && !Array.isArray(b)) s.bindings.set(id, { ...(b as Record<string, unknown>) });
    else if (!savedBindings) bindSecret(s, prefix, section, k);
  }
}

function restoreScript(s: HdbSession, script: unknown): void {
  const x = script as LoadedScript | null;
  if (!x || !str(x.prefix) || !databaseByPrefix(x.prefix) || (x.driver !== 'test' && x.driver !== 'timed')) return;
  const custom = x.custom && str(x.custom.text) && Array.isArray(x.custom.settings) ? { text: x.custom.text, settings: x.custom.settings.filter((p) => Array.isArray(p) && p.length === 2 && p.every(str)) } : undefined;
  s.script = { prefix: x.prefix, driver: x.driver, ...(custom ? { custom } : {}) };
}

/** Apply a stored session onto a fresh one. */
export function restoreSession(s: HdbSession, doc: HammerdbSessionDoc): void {
  const d = doc.data;
  if (d['version'] !== VERSION) return;
  if (str(d['prefix']) && databaseByPrefix(d['prefix'])) s.prefix = d['prefix'];
  if (d['bm'] === 'TPC-C' || d['bm'] === 'TPC-H') s.bm = d['bm'];
  restoreDicts(s, d['dicts'], doc.secrets, d['bindings']);
  assignKnown(s.vu as unknown as Record<string, string>, d['vu']);
  for (const [k] of VU_OPTIONS) if (!/^\d+$/.test(s.vu[k])) s.vu[k] = VU_OPTIONS.find(([o]) => o === k)![2];
  assignKnown(s.tc, d['tc']);
  const dgDefault = s.dg.directory;
  assignKnown(s.dg as unknown as Record<string, string>, d['dg']);
  // Sessions saved while the default was the system temp directory get today's default (under the files root).
  if (s.dg.directory === tmpdir()) s.dg.directory = dgDefault;
  assignKnown(s.metrics, d['metrics']);
  if (typeof d['customMonitor'] === 'boolean') s.customMonitor = d['customMonitor'];
  const generic = d['generic'] as Record<string, Record<string, unknown>> | undefined;
  for (const [section, keys] of Object.entries(generic ?? {})) {
    if (!GENERIC[section]) continue;
    for (const [k, v] of Object.entries(keys ?? {})) if (GENERIC[section]![k] && str(v)) (s.generic[section] ??= {})[k] = v;
  }
  restoreScript(s, d['script']);
  restoreJobs(s, d['jobs']);
}

/** `jobs profileid` and `jobs format` (HammerDB persists the profile id). */
function restoreJobs(s: HdbSession, jobs: unknown): void {
  const j = jobs as { profileId?: unknown; format?: unknown } | null | undefined;
  if (typeof j?.profileId === 'number' && Number.isInteger(j.profileId) && j.profileId >= 0) s.jobs.profileId = j.profileId;
  if (j?.format === 'text' || j?.format === 'JSON') s.jobs.format = j.format;
}

/** The session as saved last in the store, or a fresh one. */
export function loadSession(store: JobStore, s: HdbSession, log: (m: string) => void): HdbSession {
  const doc = store.loadHammerdbSession();
  if (!doc) return s;
  restoreSession(s, doc);
  if (doc.unreadable.length) log(`HammerDB session: ${doc.unreadable.length} saved password(s) cannot be decrypted with the current key and keep their defaults (${doc.unreadable.join(', ')})`);
  return s;
}

export function saveSession(store: JobStore, s: HdbSession): void {
  store.saveHammerdbSession(sessionDoc(s));
}
