import { TPROCC_COLUMNS, type Value } from '@sledge/core';
import type { TproccTable } from '@sledge/protocol';
import type { OraBindDef } from './library.js';

/** A table column as user_tab_columns describes it (engine/session.sql column_types). */
export interface OraColumn {
  name: string;
  typeName: string;
  maxLength: number;
  nullable: boolean;
}

export type OraKind = 'number' | 'string' | 'date';

export function oraKind(c: OraColumn): OraKind {
  const t = c.typeName.toUpperCase();
  if (t === 'NUMBER' || t === 'FLOAT' || t === 'INTEGER' || t === 'BINARY_DOUBLE' || t === 'BINARY_FLOAT') return 'number';
  if (t === 'VARCHAR2' || t === 'CHAR' || t === 'NVARCHAR2' || t === 'NCHAR' || t === 'VARCHAR') return 'string';
  if (t === 'DATE') return 'date';
  throw new Error(`column ${c.name} has type ${c.typeName}, which the Oracle loader does not handle`);
}

/** The table's columns in the generator's order (core TPROCC_COLUMNS); every generated column must exist. */
export function generatedColumns<C extends OraColumn>(table: TproccTable, infos: readonly C[]): C[] {
  const byName = new Map(infos.map((c) => [c.name.toLowerCase(), c]));
  return TPROCC_COLUMNS[table].map((name) => {
    const c = byName.get(name);
    if (!c) throw new Error(`table ${table} has no column ${name}; was it created from packages/sql/oracle/tprocc/tables.sql?`);
    return c;
  });
}

/** Generated timestamps are 'YYYY-MM-DD HH:MM:SS'; DATE columns take them through TO_DATE, independent of NLS settings. */
export const DATE_FORMAT = 'YYYY-MM-DD HH24:MI:SS';

/** The array-DML INSERT for a table, with positional binds in generator order. */
export function insertSql(table: TproccTable, columns: readonly OraColumn[]): string {
  const values = columns.map((c, i) => (oraKind(c) === 'date' ? `TO_DATE(:${i + 1}, '${DATE_FORMAT}')` : `:${i + 1}`));
  return `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')}) VALUES (${values.join(', ')})`;
}

/** executeMany bind definitions: NUMBER for numbers, STRING sized by the column for text and dates. */
export function bindDefs(columns: readonly OraColumn[], types: { NUMBER: unknown; STRING: unknown }): OraBindDef[] {
  return columns.map((c) => {
    switch (oraKind(c)) {
      case 'number':
        return { type: types.NUMBER };
      case 'string':
        return { type: types.STRING, maxSize: c.maxLength };
      case 'date':
        return { type: types.STRING, maxSize: 19 };
    }
  });
}

/** Rows for executeMany: decimal strings become numbers for NUMBER columns; everything else passes through. */
export function arrayRows(rows: readonly (readonly Value[])[], kinds: readonly OraKind[]): unknown[][] {
  const numCols = kinds.map((k, i) => (k === 'number' ? i : -1)).filter((i) => i >= 0);
  return rows.map((r) => {
    const out: unknown[] = r.slice();
    for (const i of numCols) {
      const v = out[i];
      if (typeof v === 'string') {
        const n = Number(v);
        if (!Number.isFinite(n)) throw new Error(`not a number: ${v}`);
        out[i] = n;
      }
    }
    return out;
  });
}

/** Rows per executeMany call. */
export const ARRAY_DML_ROWS = 5000;
