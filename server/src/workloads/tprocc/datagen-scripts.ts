/**
 * Load scripts for `datagen` directories: one per engine, each ingesting the
 * CSV files with the engine's own tool (psql \copy, mysql/mariadb LOAD DATA
 * LOCAL INFILE, bcp, sqlldr, db2 LOAD). The SQL and shell text lives in
 * packages/sql/<engine>/tprocc/datagen_load.* templates (named parts with
 * {{placeholders}}), read through @sledge/sql; this module only fills them.
 * Column facts (order in the table, nullability, type, length) come from each
 * engine's tables.sql (MariaDB's is MySQL's, by the resolver's fallback), so
 * the scripts follow the DDL the user creates the tables with.
 */
import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TPROCC_COLUMNS } from '@sledge/core';
import type { EngineId, TproccTable } from '@sledge/protocol';
import { sqlFile, sqlTemplate, sqlText } from '@sledge/sql';

/** One generated CSV file. */
export interface DatagenFile {
  table: TproccTable;
  worker: number;
  /** File name inside the directory, e.g. stock_2.csv. */
  file: string;
  rows: number;
}

export interface DatagenLayout {
  /** Absolute directory. */
  dir: string;
  seed: number;
  warehouses: number;
  workers: number;
  timestamp: string;
  files: DatagenFile[];
}

/** A column of a CREATE TABLE in an engine's tables.sql. */
export interface DdlColumn {
  name: string;
  /** 1-based position in the table. */
  ordinal: number;
  /** Type as written, e.g. "varchar(500)", "DATE". */
  type: string;
  nullable: boolean;
  /** Declared length of character types, else null. */
  length: number | null;
}

// ---------------------------------------------------------------- templates

/** Replace every {{name}}; a placeholder without a value is a template bug. */
export function fill(template: string, values: Readonly<Record<string, string | number>>, where: string): string {
  return template.replace(/\{\{([a-z_]+)\}\}/g, (_, k: string) => {
    const v = values[k];
    if (v === undefined) throw new Error(`${where}: no value for {{${k}}}`);
    return String(v);
  });
}

const part = (parts: Map<string, string>, name: string, file: string): string => {
  const p = parts.get(name);
  if (p === undefined) throw new Error(`${file} has no part "${name}"`);
  return p;
};

// ---------------------------------------------------------------------- DDL

const NOT_COLUMNS = new Set(['constraint', 'primary', 'key', 'unique', 'index', 'foreign', 'check', 'partition']);
const COLUMN_LINE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z][A-Za-z0-9_]*(?:\s*\(\s*\d+(?:\s*,\s*\d+)?\s*\))?)(.*)$/;

/**
 * Columns of every CREATE TABLE in a tables.sql (first definition of a table
 * wins: alternative partitioned variants come later in those files).
 */
export function parseCreateTables(text: string): Map<string, DdlColumn[]> {
  const out = new Map<string, DdlColumn[]>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const head = /^\s*CREATE\s+TABLE\s+(?:[A-Za-z_]+\.)?([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*$/i.exec(lines[i]!);
    if (!head) continue;
    const table = head[1]!.toLowerCase();
    const cols: DdlColumn[] = [];
    for (i++; i < lines.length && !/^\s*\)/.test(lines[i]!); i++) {
      const line = lines[i]!.replace(/--.*$/, '');
      const m = COLUMN_LINE.exec(line);
      if (!m || NOT_COLUMNS.has(m[1]!.toLowerCase())) continue;
      const type = m[2]!.replace(/\s+/g, '');
      const len = /^(?:var)?char2?\((\d+)\)$/i.exec(type);
      cols.push({
        name: m[1]!.toLowerCase(),
        ordinal: cols.length + 1,
        type,
        nullable: !/\bNOT\s+NULL\b/i.test(m[3]!),
        length: len ? Number(len[1]) : null,
      });
    }
    if (!out.has(table)) out.set(table, cols);
  }
  return out;
}

// ------------------------------------------------------------ engine specs

interface Ctx {
  layout: DatagenLayout;
  /** Columns of the table per the engine's tables.sql. */
  ddl(table: TproccTable): Map<string, DdlColumn>;
}

interface ScriptSpec {
  /** Engine whose template and tables.sql (packages/sql/<engine>/tprocc/, fallbacks resolved) are read. */
  engine: EngineId;
  template: string;
  output: string;
  executable: boolean;
  /** How an absolute path is written in the script. */
  quote: (path: string) => string;
  /** Extra per-file placeholders built from other template parts. */
  fileVars?: (f: DatagenFile, parts: Map<string, string>, c: Ctx, where: string) => Record<string, string>;
  /** Files written once per table beside the script (control / format files). */
  tableFile?: { template: string; name: (table: TproccTable) => string; render: (table: TproccTable, parts: Map<string, string>, c: Ctx, where: string) => string };
}

const sqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
const mysqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const db2Path = (s: string) => (/^[A-Za-z0-9_./:-]+$/.test(s) ? s : `"${s.replace(/"/g, '""')}"`);

const ddlColumn = (c: Ctx, table: TproccTable, column: string, where: string): DdlColumn => {
  const d = c.ddl(table).get(column);
  if (!d) throw new Error(`${where}: tables.sql has no column ${table}.${column}`);
  return d;
};

/** MySQL/MariaDB: nullable columns go through @variables and NULLIF (empty field = NULL). */
const mysqlVars: ScriptSpec['fileVars'] = (f, parts, c, where) => {
  const cols = TPROCC_COLUMNS[f.table];
  const nullable = cols.filter((col) => ddlColumn(c, f.table, col, where).nullable);
  const columnList = cols.map((col) => (nullable.includes(col) ? fill(part(parts, 'column_nullable', where), { column: col }, where) : col)).join(', ');
  const assignments = nullable.map((col) => fill(part(parts, 'assignment', where), { column: col }, where)).join(', ');
  return { column_list: columnList, set_clause: nullable.length ? fill(part(parts, 'set_clause', where), { assignments }, where) : '' };
};

const SPECS: ScriptSpec[] = [
  { engine: 'postgresql', template: 'datagen_load.sql', output: 'load_postgresql.sql', executable: false, quote: sqlString },
  { engine: 'mysql', template: 'datagen_load.sql', output: 'load_mysql.sql', executable: false, quote: mysqlString, fileVars: mysqlVars },
  { engine: 'mariadb', template: 'datagen_load.sql', output: 'load_mariadb.sql', executable: false, quote: mysqlString, fileVars: mysqlVars },
  {
    engine: 'mssql',
    template: 'datagen_load.sh',
    output: 'load_mssql.sh',
    executable: true,
    quote: (s) => s,
    fileVars: (f) => ({ format_file: `mssql_${f.table}.fmt` }),
    tableFile: {
      template: 'datagen_load.fmt',
      name: (t) => `mssql_${t}.fmt`,
      render: (table, parts, c, where) => {
        const cols = TPROCC_COLUMNS[table];
        const fields = cols.map((col, i) =>
          fill(part(parts, 'field', where), { n: i + 1, terminator: i === cols.length - 1 ? '\\n' : ',', ordinal: ddlColumn(c, table, col, where).ordinal, column: col }, where),
        );
        return fill(part(parts, 'format', where), { count: cols.length, fields: fields.join('\n') }, where) + '\n';
      },
    },
  },
  {
    engine: 'oracle',
    template: 'datagen_load.sh',
    output: 'load_oracle.sh',
    executable: true,
    quote: (s) => s,
    fileVars: (f) => ({ control_file: `oracle_${f.table}.ctl` }),
    tableFile: {
      template: 'datagen_load.ctl',
      name: (t) => `oracle_${t}.ctl`,
      render: (table, parts, c, where) => {
        const fields = TPROCC_COLUMNS[table].map((col) => {
          const d = ddlColumn(c, table, col, where);
          const kind = /^(DATE|TIMESTAMP)/i.test(d.type) ? 'field_date' : d.length !== null && d.length > 255 ? 'field_long' : 'field';
          return fill(part(parts, kind, where), { column: col, length: d.length ?? 0 }, where);
        });
        return fill(part(parts, 'control', where), { table, fields: fields.join(',\n') }, where) + '\n';
      },
    },
  },
  { engine: 'db2', template: 'datagen_load.sql', output: 'load_db2.sql', executable: false, quote: db2Path },
];

/** Write (atomically) one file. */
function writeAtomic(path: string, text: string, mode: number): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/**
 * Write every engine's load script (and control/format files) into
 * layout.dir. Returns the names written.
 */
export function writeLoadScripts(layout: DatagenLayout): string[] {
  /** Parsed tables.sql by path (MariaDB and MySQL share one). */
  const ddlCache = new Map<string, Map<string, DdlColumn[]>>();
  const written: string[] = [];
  const totalRows = layout.files.reduce((s, f) => s + f.rows, 0);
  const global = {
    dir: layout.dir,
    seed: layout.seed,
    warehouses: layout.warehouses,
    workers: layout.workers,
    timestamp: layout.timestamp,
    files: layout.files.length,
    rows: totalRows,
  };
  for (const spec of SPECS) {
    const ddlPath = sqlFile(spec.engine, 'tprocc', 'tables.sql');
    let tables = ddlCache.get(ddlPath);
    if (!tables) {
      tables = parseCreateTables(sqlText(spec.engine, 'tprocc', 'tables.sql'));
      ddlCache.set(ddlPath, tables);
    }
    const t = tables;
    const c: Ctx = {
      layout,
      ddl: (table) => {
        const cols = t.get(table);
        if (!cols) throw new Error(`${ddlPath} has no CREATE TABLE ${table}`);
        return new Map(cols.map((x) => [x.name, x]));
      },
    };
    const { path: tplPath, parts } = sqlTemplate(spec.engine, 'tprocc', spec.template);
    const out = [fill(part(parts, 'header', tplPath), global, tplPath)];
    for (const f of layout.files) {
      const vars = {
        ...global,
        table: f.table,
        file: f.file,
        path: spec.quote(join(layout.dir, f.file)),
        columns: TPROCC_COLUMNS[f.table].join(', '),
        rows: f.rows,
        worker: f.worker,
        ...(spec.fileVars?.(f, parts, c, tplPath) ?? {}),
      };
      out.push(fill(part(parts, 'file', tplPath), vars, tplPath));
    }
    out.push(fill(part(parts, 'footer', tplPath), global, tplPath));
    writeAtomic(join(layout.dir, spec.output), out.join('\n') + '\n', spec.executable ? 0o755 : 0o644);
    written.push(spec.output);
    if (spec.tableFile) {
      const tf = spec.tableFile;
      const { path: tfPath, parts: tfParts } = sqlTemplate(spec.engine, 'tprocc', tf.template);
      const tablesUsed = [...new Set(layout.files.map((f) => f.table))];
      for (const table of tablesUsed) {
        writeAtomic(join(layout.dir, tf.name(table)), tf.render(table, tfParts, c, tfPath), 0o644);
        written.push(tf.name(table));
      }
    }
  }
  return written;
}

/** Names of the script files a datagen directory may hold (for stray-file checks). */
export const SCRIPT_NAME = /^(load_(postgresql|mysql|mariadb|db2)\.sql|load_(mssql|oracle)\.sh|mssql_[a-z_]+\.fmt|oracle_[a-z_]+\.ctl)$/;
