import { TPROCC_COLUMNS, type Value } from '@sledge/core';
import type { TproccTable } from '@sledge/protocol';

/** A table column as sys.columns describes it (engine/loader.sql column_types). */
export interface ColumnInfo {
  name: string;
  typeName: string;
  maxLength: number;
  precision: number;
  scale: number;
  nullable: boolean;
}

export type ColumnKind = 'tinyint' | 'smallint' | 'int' | 'bigint' | 'decimal' | 'char' | 'varchar' | 'datetime' | 'datetime2' | 'date';

const KINDS: Record<string, ColumnKind> = {
  tinyint: 'tinyint',
  smallint: 'smallint',
  int: 'int',
  bigint: 'bigint',
  numeric: 'decimal',
  decimal: 'decimal',
  char: 'char',
  varchar: 'varchar',
  datetime: 'datetime',
  datetime2: 'datetime2',
  date: 'date',
};

export function columnKind(c: ColumnInfo): ColumnKind {
  const k = KINDS[c.typeName.toLowerCase()];
  if (!k) throw new Error(`column ${c.name} has type ${c.typeName}, which the SQL Server loader does not handle`);
  return k;
}

/** The table's columns in the generator's order (core TPROCC_COLUMNS); every generated column must exist. */
export function generatedColumns(table: TproccTable, infos: readonly ColumnInfo[]): ColumnInfo[] {
  const byName = new Map(infos.map((c) => [c.name.toLowerCase(), c]));
  return TPROCC_COLUMNS[table].map((name) => {
    const c = byName.get(name);
    if (!c) throw new Error(`table ${table} has no column ${name}; was it created from packages/sql/mssql/tprocc/tables.sql?`);
    return c;
  });
}

const TS = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/**
 * Generated timestamps are 'YYYY-MM-DD HH:MM:SS' wall-clock values. Read them
 * as UTC: tedious (useUTC) then writes exactly that wall clock, whatever the
 * process time zone.
 */
export function wallClock(v: string): Date {
  const m = TS.exec(v);
  const d = new Date(m ? `${m[1]}T${m[2]}Z` : v);
  if (Number.isNaN(d.getTime())) throw new Error(`not a timestamp: ${v}`);
  return d;
}

const isTime = (k: ColumnKind) => k === 'datetime' || k === 'datetime2' || k === 'date';

/** Rows as TDS bulk copy takes them: timestamps become Dates; numbers and decimal strings pass as they are. */
export function bulkRows(rows: readonly (readonly Value[])[], kinds: readonly ColumnKind[]): unknown[][] {
  const timeCols = kinds.map((k, i) => (isTime(k) ? i : -1)).filter((i) => i >= 0);
  if (!timeCols.length) return rows as unknown[][];
  return rows.map((r) => {
    const out: unknown[] = r.slice();
    for (const i of timeCols) {
      const v = out[i];
      if (typeof v === 'string') out[i] = wallClock(v);
    }
    return out;
  });
}

/** A T-SQL literal. Timestamps use the ISO 'T' form, which no DATEFORMAT/language setting reinterprets. */
export function literal(v: Value, kind: ColumnKind): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  if (isTime(kind)) {
    const m = TS.exec(v);
    return `'${m ? `${m[1]}T${m[2]}` : v.replace(/'/g, "''")}'`;
  }
  if (kind === 'char' || kind === 'varchar') return `'${v.replace(/'/g, "''")}'`;
  if (!/^-?\d+(\.\d+)?$/.test(v)) throw new Error(`not a number: ${v}`);
  return v;
}

/** SQL Server takes at most 1000 rows in one VALUES list. */
export const MAX_VALUES_ROWS = 1000;

/** Multi-row INSERT statements (the loader's path when tprocc.schema.useBulk is off). */
export function insertStatements(table: TproccTable, columns: readonly ColumnInfo[], rows: readonly (readonly Value[])[], perStatement = MAX_VALUES_ROWS): string[] {
  const kinds = columns.map(columnKind);
  const head = `INSERT INTO dbo.${table} (${columns.map((c) => c.name).join(', ')}) VALUES\n`;
  const out: string[] = [];
  const size = Math.max(1, Math.min(perStatement, MAX_VALUES_ROWS));
  for (let at = 0; at < rows.length; at += size) {
    const chunk = rows.slice(at, at + size);
    out.push(head + chunk.map((r) => `(${r.map((v, i) => literal(v, kinds[i]!)).join(', ')})`).join(',\n'));
  }
  return out;
}
