import { TPROCH_COLUMNS, type Value } from '@sledge/core';
import type { TprochTable } from '@sledge/protocol';
import type { OraBindDef } from '../engine/library.js';
import { oraKind, type OraColumn, type OraKind } from '../engine/rows.js';

/** A table's columns in the generator's order (core TPROCH_COLUMNS); every generated column must exist. */
export function tprochColumns<C extends OraColumn>(table: TprochTable, infos: readonly C[]): C[] {
  const byName = new Map(infos.map((c) => [c.name.toLowerCase(), c]));
  return TPROCH_COLUMNS[table].map((name) => {
    const c = byName.get(name);
    if (!c) throw new Error(`table ${table} has no column ${name}; was it created from packages/sql/oracle/tproch/tables.sql?`);
    return c;
  });
}

/** Generated dates are 'YYYY-MM-DD'; DATE columns take them through TO_DATE, independent of NLS settings. */
export const TPROCH_DATE_FORMAT = 'YYYY-MM-DD';

/** The array-DML INSERT for a table, positional binds in generator order. */
export function insertSql(table: TprochTable, columns: readonly OraColumn[]): string {
  const values = columns.map((c, i) => (oraKind(c) === 'date' ? `TO_DATE(:${i + 1}, '${TPROCH_DATE_FORMAT}')` : `:${i + 1}`));
  return `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')}) VALUES (${values.join(', ')})`;
}

/** executeMany bind definitions: NUMBER for numbers, STRING sized by the column for text, 10 for dates. */
export function bindDefs(columns: readonly OraColumn[], types: { NUMBER: unknown; STRING: unknown }): OraBindDef[] {
  return columns.map((c) => {
    switch (oraKind(c)) {
      case 'number':
        return { type: types.NUMBER };
      case 'string':
        return { type: types.STRING, maxSize: c.maxLength };
      case 'date':
        return { type: types.STRING, maxSize: 10 };
    }
  });
}

/** Widths of the text columns RF1 binds (tables.sql), for executeMany's bind definitions. */
const WIDTHS: Record<string, number> = {
  o_orderstatus: 1, o_orderpriority: 15, o_clerk: 15, o_comment: 79,
  l_returnflag: 1, l_linestatus: 1, l_shipinstruct: 25, l_shipmode: 10, l_comment: 44,
};

/** The kind of an RF1 column, from its name (tables.sql: keys and amounts NUMBER, *date DATE, the rest text). */
export function refreshKind(column: string): OraKind {
  if (column.endsWith('date')) return 'date';
  return column in WIDTHS ? 'string' : 'number';
}

/** RF1 columns of a table as OraColumns (names and widths as in tables.sql). */
export function refreshColumns(table: 'orders' | 'lineitem'): OraColumn[] {
  return TPROCH_COLUMNS[table].map((name) => {
    const k = refreshKind(name);
    return { name, typeName: k === 'number' ? 'NUMBER' : k === 'date' ? 'DATE' : 'VARCHAR2', maxLength: k === 'string' ? WIDTHS[name]! : 22, nullable: false };
  });
}

export type { Value };
