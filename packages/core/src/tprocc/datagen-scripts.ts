/**
 * The engine-neutral half of the `datagen` load scripts: the {{placeholder}}
 * filler, the column facts read from an engine's tables.sql, and the loop
 * that renders one script (header, a part per CSV file, footer) plus its
 * per-table control/format files. Each driver's tprocc hooks declare its
 * own script (`LoadScriptSpec`) and hand the template and tables.sql text in
 * (drivers read them through @sledge/sql); this module does no I/O.
 */
import { join } from 'node:path';
import type { TproccTable } from '@sledge/protocol';
import { TPROCC_COLUMNS } from './columns.js';
import type { DatagenScript } from '../bulk/datagen.js';
import type { DatagenFile, DatagenLayout } from './hooks.js';

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

/** Replace every {{name}}; a placeholder without a value is a template bug. */
export function fill(template: string, values: Readonly<Record<string, string | number>>, where: string): string {
  return template.replace(/\{\{([a-z_]+)\}\}/g, (_, k: string) => {
    const v = values[k];
    if (v === undefined) throw new Error(`${where}: no value for {{${k}}}`);
    return String(v);
  });
}

/** A named part of a template; a missing one is a template bug. */
export function templatePart(parts: Map<string, string>, name: string, file: string): string {
  const p = parts.get(name);
  if (p === undefined) throw new Error(`${file} has no part "${name}"`);
  return p;
}

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

/** What a script's renderers see. */
export interface LoadScriptCtx {
  layout: DatagenLayout;
  /** Columns of the table per the engine's tables.sql. */
  ddl(table: TproccTable): Map<string, DdlColumn>;
}

/** One engine's datagen load script. */
export interface LoadScriptSpec {
  output: string;
  executable: boolean;
  /** How an absolute path is written in the script. */
  quote: (path: string) => string;
  /** Extra per-file placeholders built from other template parts. */
  fileVars?: (f: DatagenFile, parts: Map<string, string>, c: LoadScriptCtx, where: string) => Record<string, string>;
  /** Files written once per table beside the script (control / format files). */
  tableFile?: { name: (table: TproccTable) => string; render: (table: TproccTable, parts: Map<string, string>, c: LoadScriptCtx, where: string) => string };
}

/** The texts a script is rendered from (read by the driver through @sledge/sql). */
export interface LoadScriptSources {
  /** The engine's tables.sql, path and text. */
  tables: { path: string; text: string };
  /** The script template's named parts. */
  template: { path: string; parts: Map<string, string> };
  /** The per-table file template, when the spec has tableFile. */
  tableFile?: { path: string; parts: Map<string, string> };
}

/** The column of a table per tables.sql; a missing one is a template/DDL bug. */
export function ddlColumn(c: LoadScriptCtx, table: TproccTable, column: string, where: string): DdlColumn {
  const d = c.ddl(table).get(column);
  if (!d) throw new Error(`${where}: tables.sql has no column ${table}.${column}`);
  return d;
}

/** Render one engine's load script (and per-table files) for a datagen layout. */
export function renderLoadScripts(spec: LoadScriptSpec, src: LoadScriptSources, layout: DatagenLayout): DatagenScript[] {
  const tables = parseCreateTables(src.tables.text);
  const c: LoadScriptCtx = {
    layout,
    ddl: (table) => {
      const cols = tables.get(table);
      if (!cols) throw new Error(`${src.tables.path} has no CREATE TABLE ${table}`);
      return new Map(cols.map((x) => [x.name, x]));
    },
  };
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
  const { path: tplPath, parts } = src.template;
  const out = [fill(templatePart(parts, 'header', tplPath), global, tplPath)];
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
    out.push(fill(templatePart(parts, 'file', tplPath), vars, tplPath));
  }
  out.push(fill(templatePart(parts, 'footer', tplPath), global, tplPath));
  const written: DatagenScript[] = [{ name: spec.output, text: out.join('\n') + '\n', executable: spec.executable }];
  if (spec.tableFile) {
    const tf = spec.tableFile;
    if (!src.tableFile) throw new Error(`${spec.output}: no per-table file template given`);
    const { path: tfPath, parts: tfParts } = src.tableFile;
    const tablesUsed = [...new Set(layout.files.map((f) => f.table))];
    for (const table of tablesUsed) written.push({ name: tf.name(table), text: tf.render(table, tfParts, c, tfPath), executable: false });
  }
  return written;
}
