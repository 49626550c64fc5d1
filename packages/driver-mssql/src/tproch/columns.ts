import type { Value } from '@sledge/core';
import { TPROCH_COLUMNS } from '@sledge/core';
import type { TprochTable } from '@sledge/protocol';
import type { ColumnInfo } from '../engine/rows.js';
import type { TdsParam, TdsParamType } from '../engine/tds.js';

/** A table's columns in the generator's order (core TPROCH_COLUMNS); every generated column must exist. */
export function tprochColumns(table: TprochTable, infos: readonly ColumnInfo[]): ColumnInfo[] {
  const byName = new Map(infos.map((c) => [c.name.toLowerCase(), c]));
  return TPROCH_COLUMNS[table].map((name) => {
    const c = byName.get(name);
    if (!c) throw new Error(`table ${table} has no column ${name}; was it created from packages/sql/mssql/tproch/tables.sql?`);
    return c;
  });
}

export type { TdsParam, TdsParamType } from '../engine/tds.js';

const DECIMALS = new Set(['acctbal', 'retailprice', 'supplycost', 'totalprice', 'quantity', 'extendedprice', 'discount', 'tax']);

/** The parameter type of a TPROC-H column, from its name (orderkeys are bigint, as in tables.sql). */
export function paramType(column: string): TdsParamType {
  const base = column.replace(/^[a-z]+_/, '');
  if (base === 'orderkey') return 'bigint';
  if (base.endsWith('key') || ['size', 'availqty', 'shippriority', 'linenumber'].includes(base)) return 'int';
  if (DECIMALS.has(base)) return 'decimal';
  if (base.endsWith('date')) return 'date';
  return 'varchar';
}

/** A generated row as named parameters (@column) for refresh.sql's inserts. */
export function rowParams(table: 'orders' | 'lineitem', row: readonly Value[]): TdsParam[] {
  const cols = TPROCH_COLUMNS[table];
  if (row.length !== cols.length) throw new Error(`a ${table} row has ${row.length} values, expected ${cols.length}`);
  return cols.map((name, i) => ({ name, type: paramType(name), value: row[i]! }));
}
