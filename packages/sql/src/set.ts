import { parseNamedSql, requireSql, splitSqlScript } from '@sledge/core';
import type { EngineId } from '@sledge/protocol';
import { readSqlPath, sqlFile, sqlFileLayers, type SqlWorkload } from './files.js';

/** Values for a statement's placeholders. */
export type SqlVars = Readonly<Record<string, string | number>>;

/**
 * How an engine's files are turned into statements a driver sends. Every
 * part is optional: without them a named statement is what core's
 * parseNamedSql gives and a script is core's splitSqlScript.
 */
export interface SqlDialect {
  /** Makes a `-- name:` statement sendable (comment lines, the shell's terminator). */
  clean?(statement: string): string;
  /** Makes a piece of a split script sendable; an empty result drops the piece. */
  piece?(statement: string): string;
  /** Fills the shell's variables; `where` names the statement for the error. */
  fill?(sql: string, vars: SqlVars, where: string): string;
}

/** One file along the fallback order and its named statements. */
export interface SqlLayer {
  path: string;
  statements: Record<string, string>;
}

/**
 * One engine's files of one workload as statements: a driver's whole access
 * to its SQL (`const sql = sqlSet('postgresql', 'tprocc')`). Files resolve as
 * sqlFile does; texts and parsed statements are read once.
 */
export interface SqlSet<F extends string = string> {
  readonly engine: EngineId;
  readonly workload: SqlWorkload;
  path(file: F): string;
  text(file: F): string;
  /** The `-- name:` statements of a file, cleaned, in file order. */
  statements(file: F): Record<string, string>;
  has(file: F, name: string): boolean;
  /** One named statement (throws naming the file when it is missing); placeholders filled when `vars` is given. */
  statement(file: F, name: string, vars?: SqlVars): string;
  /** A script split into statements, each piece made sendable, placeholders filled. */
  script(file: F, vars?: SqlVars): string[];
  /** Every file of that name along the fallback order, own first, with its statements (statement-by-statement fallback). */
  layers(file: F): SqlLayer[];
}

export function sqlSet<F extends string = string>(engine: EngineId, workload: SqlWorkload, dialect: SqlDialect = {}): SqlSet<F> {
  const named = new Map<string, Record<string, string>>();
  const parse = (path: string): Record<string, string> => {
    let s = named.get(path);
    if (s === undefined) {
      const raw = parseNamedSql(readSqlPath(path));
      s = dialect.clean ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, dialect.clean!(v)])) : raw;
      named.set(path, s);
    }
    return s;
  };
  const fill = (sql: string, vars: SqlVars, where: string) => (dialect.fill ? dialect.fill(sql, vars, where) : sql);
  const set: SqlSet<F> = {
    engine,
    workload,
    path: (file) => sqlFile(engine, workload, file),
    text: (file) => readSqlPath(set.path(file)),
    statements: (file) => parse(set.path(file)),
    has: (file, name) => name in set.statements(file),
    statement(file, name, vars) {
      const s = requireSql(set.statements(file), name, set.path(file));
      return vars === undefined ? s : fill(s, vars, `${file}:${name}`);
    },
    script(file, vars = {}) {
      const pieces = splitSqlScript(set.text(file));
      const sendable = dialect.piece ? pieces.map((p) => dialect.piece!(p)).filter((p) => p !== '') : pieces;
      return sendable.map((p) => fill(p, vars, file));
    },
    layers: (file) => sqlFileLayers(engine, workload, file).map((path) => ({ path, statements: parse(path) })),
  };
  return set;
}

type Catalog = Readonly<Record<string, readonly string[]>>;

/**
 * A driver's getter for the statements of its named files, typed by the names
 * it uses (`{ 'admin.sql': ['server_version', ...] }`): each file is checked
 * once, on first use, for every name (a missing one throws naming the file).
 */
export function checkedStatements<C extends Catalog>(set: SqlSet, names: C): <F extends keyof C & string>(file: F) => Record<C[F][number], string> {
  const checked = new Set<string>();
  return (file) => {
    const statements = set.statements(file);
    if (!checked.has(file)) {
      for (const name of names[file]!) requireSql(statements, name, set.path(file));
      checked.add(file);
    }
    return statements as Record<(typeof names)[typeof file][number], string>;
  };
}

/**
 * An engine's statements by file and name, typed by the catalog the driver
 * declares (`{ admin: ['server_version', ...], ... }`, file `admin.sql`):
 * the shape the SQL Server, Oracle and Db2 drivers read their files in.
 */
export class SqlCatalog<C extends Catalog> {
  private readonly set: SqlSet<`${keyof C & string}.sql`>;

  constructor(
    engine: EngineId,
    workload: SqlWorkload,
    readonly names: C,
    dialect: SqlDialect,
  ) {
    this.set = sqlSet(engine, workload, dialect);
  }

  path<F extends keyof C & string>(f: F): string {
    return this.set.path(`${f}.sql`);
  }

  /** Every named statement of a file, cleaned. */
  file<F extends keyof C & string>(f: F): Record<string, string> {
    return this.set.statements(`${f}.sql`);
  }

  /** One statement with its placeholders filled (a missing variable throws). */
  get<F extends keyof C & string>(f: F, name: C[F][number], vars: SqlVars = {}): string {
    return this.set.statement(`${f}.sql`, name, vars);
  }

  /** Named statements of a file in the given order (by default the catalog's), placeholders filled. */
  script<F extends keyof C & string>(f: F, names: readonly C[F][number][] = this.names[f] as readonly C[F][number][], vars: SqlVars = {}): Array<{ name: C[F][number]; sql: string }> {
    return names.map((name) => ({ name, sql: this.get(f, name, vars) }));
  }
}

/**
 * The variables of one shell's syntax (sqlcmd `$(x)`, SQL*Plus `&x`, Db2
 * `${x}`): `pattern` matches one with the name in group 1 (global flag),
 * `show` writes it back for messages.
 */
export function placeholderSyntax(pattern: RegExp, show: (name: string) => string) {
  return {
    /** Names of the placeholders in a statement, in order of first use. */
    placeholders(sql: string): string[] {
      const out: string[] = [];
      for (const m of sql.matchAll(pattern)) if (!out.includes(m[1]!)) out.push(m[1]!);
      return out;
    },
    /** Replace every placeholder with vars[name]; a missing variable is a bug and throws. */
    fill(sql: string, vars: SqlVars, where = 'statement'): string {
      return sql.replace(pattern, (_m, name: string) => {
        const v = vars[name];
        if (v === undefined) throw new Error(`${where} needs the variable ${show(name)}`);
        return String(v);
      });
    },
  };
}
