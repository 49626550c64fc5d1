/**
 * Engine settings a run records at its start (issue 34 item 5): rows of an
 * engine's `settings` statement (packages/sql/<engine>/engine/settings.sql:
 * name, value, unit, source) into EngineSetting records with the settings
 * that can hold a secret withheld, and the settings that differ between two
 * runs. Pure: no I/O.
 */
import type { EngineSetting, SettingChange } from '@sledge/protocol';

/**
 * Setting names that can hold a secret: passwords, passphrases, tokens,
 * credentials, connection strings (PostgreSQL primary_conninfo, DuckDB's
 * azure_storage_connection_string), secret or private keys (DuckDB
 * s3_secret_access_key, MariaDB file_key_management_encryption_key ...).
 * A setting that names a key *file* or *path* is kept (ssl_key_file: where
 * the key is, not the key), and so are names that merely contain "key" or
 * "token" as a word in the middle (key_buffer_size, innodb_ft_max_token_size):
 * "key" counts alone or after private/encryption/access/api/master/secret,
 * "token" only at the end of the name.
 */
const SECRET_NAME = /pass(word|wd|phrase)|(^|[_.-])pwd($|[_.-])|secret|credential|conn(ection)?_?(info|string|str)|(^|[_.-])dsn($|[_.-])|(^|[_.-])(session_)?tokens?$|(^|[_.-])(private|encryption|access|api|master|secret)_?key($|[_.-]|_id$)|(^|[_.-])key$/i;
/** A name that says the value is a file or path (kept even when the name has "key" or "secret"). */
const PATH_NAME = /(_file|_path|_dir|_directory|file|path)$/i;
/** Values that carry a secret whatever the setting is called (a connection string with a password). */
const SECRET_VALUE = /(password|passwd|pwd)\s*[=:]|:\/\/[^/\s:@]+:[^/\s@]+@/i;

/** The rule, as jobs and docs state it. */
export const WITHHELD_RULE =
  'names with password/passwd/passphrase/pwd, secret, credential, conninfo/connection string, dsn, token, or a private/encryption/access/api/master key (names ending _file/_path/_dir are kept: they say where a key is), and any value holding "password=" or user:password@';

/** Does this setting hold (or may it hold) a secret? */
export function isSecretSetting(name: string, value: string): boolean {
  if (SECRET_VALUE.test(value)) return true;
  if (PATH_NAME.test(name) && !/pass(word|wd|phrase)|credential|conninfo|connection/i.test(name)) return false;
  return SECRET_NAME.test(name);
}

const text = (v: unknown): string | undefined => {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('');
  return JSON.stringify(v);
};

/**
 * Rows of (name, value, unit, source) as the engine returned them: settings
 * sorted by name (the first row of a name wins), secrets withheld by name.
 * A row without a name is skipped; unit and source are dropped when empty.
 */
export function settingsFromRows(rows: readonly (readonly unknown[])[]): { settings: EngineSetting[]; withheld: string[] } {
  const seen = new Map<string, EngineSetting>();
  const withheld = new Set<string>();
  for (const r of rows) {
    const name = text(r[0])?.trim();
    if (!name || seen.has(name) || withheld.has(name)) continue;
    const value = text(r[1]) ?? '';
    if (isSecretSetting(name, value)) {
      withheld.add(name);
      continue;
    }
    const unit = text(r[2])?.trim();
    const source = text(r[3])?.trim();
    seen.set(name, { name, value, ...(unit ? { unit } : {}), ...(source ? { source } : {}) });
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return { settings: [...seen.values()].sort((a, b) => byName(a.name, b.name)), withheld: [...withheld].sort(byName) };
}

const shown = (s: EngineSetting | undefined): string | null => (s ? (s.unit ? `${s.value} ${s.unit}` : s.value) : null);

/** Settings whose value (with its unit) differs between two runs, or that only one has; sorted by name. */
export function diffSettings(a: readonly EngineSetting[], b: readonly EngineSetting[]): { differ: SettingChange[]; compared: number } {
  const ma = new Map(a.map((s) => [s.name, s]));
  const mb = new Map(b.map((s) => [s.name, s]));
  const names = [...new Set([...ma.keys(), ...mb.keys()])].sort();
  const differ: SettingChange[] = [];
  for (const n of names) {
    const sa = ma.get(n);
    const sb = mb.get(n);
    const va = shown(sa);
    const vb = shown(sb);
    if (va === vb) continue;
    differ.push({ name: n, a: va, b: vb, ...(sa?.source ? { sourceA: sa.source } : {}), ...(sb?.source ? { sourceB: sb.source } : {}) });
  }
  return { differ, compared: names.length };
}
