/** Key names treated as secrets anywhere in a config, whatever the schema says. */
const SECRET_KEY = /pass(word)?$|passwd|secret|token|apikey|api_key|credential|private.?key/i;
export const REDACTED = '********';

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/**
 * Deep copy with every secret replaced by "********". URLs carrying a password
 * (postgres://u:pw@h/db) are rewritten too. Used for job configs, logs,
 * exports and API responses.
 */
export function redact<T>(value: T, extraSecretKeys: readonly string[] = []): T {
  const extra = new Set(extraSecretKeys);
  const walk = (v: unknown, key: string | undefined): unknown => {
    if (key !== undefined && (isSecretKey(key) || extra.has(key)) && v !== null && v !== undefined && v !== '') return REDACTED;
    if (typeof v === 'string') return redactUrl(v);
    if (Array.isArray(v)) return v.map((x) => walk(x, undefined));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, k);
      return out;
    }
    return v;
  };
  return walk(value, undefined) as T;
}

/** postgres://user:secret@host -> postgres://user:********@host */
export function redactUrl(s: string): string {
  return s.replace(/([a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:)([^@\s]+)(@)/gi, `$1${REDACTED}$3`);
}

/** `password=x`, `pwd: x`, `token=x` (connection strings, driver messages): the value is a secret whatever it is. */
const KEYED_SECRET = /\b((?:pass(?:word)?|passwd|pwd|secret|token)\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s,;&)'"]+)/gi;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Remove the given secret strings from a text (log lines, error messages)
 * wherever they stand as a whole token: not glued to letters, digits or '_'
 * on either side, so a password "postgres" is hidden in "password=postgres"
 * but "postgresql" stays readable.
 */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = redactUrl(text).replace(KEYED_SECRET, `$1${REDACTED}`);
  for (const s of secrets) {
    if (!s || s.length < 3) continue;
    out = out.replace(new RegExp(`(?<![A-Za-z0-9_])${escapeRe(s)}(?![A-Za-z0-9_])`, 'g'), REDACTED);
  }
  return out;
}
