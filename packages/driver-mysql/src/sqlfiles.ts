import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNamedSql, requireSql, splitSqlScript } from '@sledge/core';
import type { Flavour } from './flavour.js';

/** Every SQL file the driver reads, under sql/<dialect>/tprocc/. */
export const SQL_FILES = [
  'admin.sql',
  'tables.sql',
  'indexes.sql',
  'procedures.sql',
  'drop.sql',
  'check.sql',
  'counters.sql',
  // Extras (sql/README.md): tables.sql fragments, VU calls, noStoredProcs statements, loader statements.
  'options.sql',
  'calls.sql',
  'client.sql',
  'load.sql',
] as const;
export type SqlFile = (typeof SQL_FILES)[number];

const WORKLOAD = 'tprocc';

/** The repository root: the first directory above `from` holding sql/<dialect>. */
export function findSqlRoot(dialect: string, from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const candidate = join(dir, 'sql', dialect);
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no sql/${dialect} directory above ${from}`);
    dir = up;
  }
}

/** Directories searched for a file, in order: the dialect's own, then its fallbacks. */
export function searchDirs(root: string, flavour: Flavour): string[] {
  return [flavour.dialect, ...flavour.dialectFallback].map((d) => join(root, 'sql', d, WORKLOAD));
}

/** Path of `file` for this flavour (first directory that has it). */
export function resolveSqlFile(root: string, flavour: Flavour, file: string): string {
  for (const dir of searchDirs(root, flavour)) {
    const p = join(dir, file);
    if (existsSync(p)) return p;
  }
  throw new Error(`${file} not found for ${flavour.engine} in ${searchDirs(root, flavour).join(', ')}`);
}

/** Replace {{name}} placeholders; a placeholder without a value is an error. */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{([a-z_]+)\}\}/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for SQL placeholder {{${name}}}`);
    return v;
  });
}

/** Backquote an identifier (names are validated by the protocol schema; quote anyway). */
export function quoteIdent(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

/** Drop full-line `--` comments (named statements may carry them). */
function dropCommentLines(sql: string): string {
  return sql
    .split('\n')
    .filter((l) => !l.trim().startsWith('--'))
    .join('\n')
    .trim();
}

/**
 * A statement of a procedure script as the mysql client would send it:
 * without DELIMITER lines and without the custom delimiter at the end.
 */
export function stripDelimiter(piece: string): string {
  const lines = piece.split('\n').filter((l) => !/^\s*DELIMITER(\s+\S+)?\s*$/i.test(l));
  return lines.join('\n').trim().replace(/\s*\$\$$/, '').trim();
}

/** The SQL files of one flavour, read once and cached. */
export class SqlSet {
  private readonly texts = new Map<string, string>();
  private readonly named = new Map<string, Record<string, string>>();

  constructor(
    readonly root: string,
    readonly flavour: Flavour,
  ) {}

  static for(flavour: Flavour): SqlSet {
    return new SqlSet(findSqlRoot(flavour.dialect), flavour);
  }

  path(file: SqlFile): string {
    return resolveSqlFile(this.root, this.flavour, file);
  }

  text(file: SqlFile): string {
    let t = this.texts.get(file);
    if (t === undefined) {
      t = readFileSync(this.path(file), 'utf8');
      this.texts.set(file, t);
    }
    return t;
  }

  /** Named statements of a `-- name:` file, comment lines removed. */
  statements(file: SqlFile): Record<string, string> {
    let s = this.named.get(file);
    if (s === undefined) {
      const raw = parseNamedSql(this.text(file));
      s = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, dropCommentLines(v)]));
      this.named.set(file, s);
    }
    return s;
  }

  has(file: SqlFile, name: string): boolean {
    return name in this.statements(file);
  }

  statement(file: SqlFile, name: string, values?: Readonly<Record<string, string>>): string {
    const s = requireSql(this.statements(file), name, this.path(file));
    return values ? fillPlaceholders(s, values) : s;
  }

  /**
   * A plain script split into statements (on `;`, or at `-- split` markers),
   * DELIMITER lines and comment lines dropped, then placeholders filled.
   */
  script(file: SqlFile, values: Readonly<Record<string, string>> = {}): string[] {
    return splitSqlScript(this.text(file))
      .map((s) => stripDelimiter(dropCommentLines(s)))
      .filter((s) => s !== '')
      .map((s) => fillPlaceholders(s, values));
  }
}
