/**
 * The parts of a text that marker lines start: each line matching `marker`
 * (the part's name in group 1) opens a part that runs to the next marker or
 * the end. Lines before the first marker belong to no part (they document
 * the file).
 */
export function namedParts(text: string, marker: RegExp): Array<{ name: string; lines: string[] }> {
  const parts: Array<{ name: string; lines: string[] }> = [];
  for (const line of text.split(/\r?\n/)) {
    const m = marker.exec(line);
    if (m) parts.push({ name: m[1]!, lines: [] });
    else parts[parts.length - 1]?.lines.push(line);
  }
  return parts;
}

/**
 * SQL files live in packages/sql/<engine>/<workload>/. Files of single statements
 * name each one with a `-- name: <id>` line; everything up to the next such
 * line (or the end) is that statement, trailing `;` and blank lines removed.
 */
export function parseNamedSql(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, lines } of namedParts(text, /^--\s*name:\s*([A-Za-z0-9_.-]+)\s*$/)) {
    const sql = lines.join('\n').trim().replace(/;\s*$/, '').trim();
    if (!sql) throw new Error(`SQL statement "${name}" is empty`);
    if (name in out) throw new Error(`SQL statement "${name}" is defined twice`);
    out[name] = sql;
  }
  return out;
}

/** Fetch a named statement or fail loudly naming the file. */
export function requireSql(set: Record<string, string>, name: string, file: string): string {
  const s = set[name];
  if (s === undefined) throw new Error(`${file} has no statement named "${name}"`);
  return s;
}

/**
 * Split a script into statements.
 * - If the script has `-- split` lines, it is split only there (use this for
 *   procedure bodies with inner `;`, e.g. MySQL BEGIN ... END, PL/SQL, T-SQL).
 * - Otherwise it is split on `;` at the end of a line, keeping dollar-quoted
 *   bodies ($$ ... $$) whole.
 * Comment-only pieces are dropped; a trailing `;` is removed unless `keepSemicolon`.
 */
export function splitSqlScript(text: string, keepSemicolon = false): string[] {
  const lines = text.split(/\r?\n/);
  const marker = /^--\s*split\s*$/;
  const byMarker = lines.some((l) => marker.test(l));
  const out: string[] = [];
  let cur: string[] = [];
  let dollar: string | null = null;
  const push = () => {
    let s = cur.join('\n').trim();
    if (!keepSemicolon) s = s.replace(/;\s*$/, '').trim();
    const meaningful = s.split('\n').some((l) => l.trim() && !l.trim().startsWith('--'));
    if (meaningful) out.push(s);
    cur = [];
  };
  for (const line of lines) {
    if (byMarker) {
      if (marker.test(line)) push();
      else cur.push(line);
      continue;
    }
    cur.push(line);
    const tags = line.match(/\$[A-Za-z_]*\$/g);
    if (tags) for (const t of tags) dollar = dollar === null ? t : dollar === t ? null : dollar;
    if (dollar === null && /;\s*$/.test(line) && !line.trim().startsWith('--')) push();
  }
  push();
  return out;
}
