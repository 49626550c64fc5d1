import { TPROCH_COLUMNS, type Value } from '@sledge/core';
import type { TprochTable } from '@sledge/protocol';
import type { Db2Column } from '../engine/rows.js';

export type TprochDb2Kind = 'number' | 'string' | 'date';

export function tprochKind(c: Db2Column): TprochDb2Kind {
  const t = c.typeName.toUpperCase().trim();
  if (['SMALLINT', 'INTEGER', 'BIGINT', 'DECIMAL', 'DOUBLE', 'REAL', 'DECFLOAT'].includes(t)) return 'number';
  if (t === 'CHARACTER' || t === 'CHAR' || t === 'VARCHAR') return 'string';
  if (t === 'DATE') return 'date';
  throw new Error(`column ${c.name} has type ${c.typeName}, which the Db2 TPROC-H loader does not handle`);
}

/** A table's columns in the generator's order (core TPROCH_COLUMNS); every generated column must exist. */
export function tprochColumns<C extends Db2Column>(table: TprochTable, infos: readonly C[]): C[] {
  const byName = new Map(infos.map((c) => [c.name.toLowerCase(), c]));
  return TPROCH_COLUMNS[table].map((name) => {
    const c = byName.get(name);
    if (!c) throw new Error(`table ${table} has no column ${name}; was it created from packages/sql/db2/tproch/tables.sql?`);
    return c;
  });
}

/** A Db2 literal: numbers bare (checked), text quoted, dates through DATE('YYYY-MM-DD'). */
export function literal(v: Value, kind: TprochDb2Kind): string {
  if (v === null) return 'NULL';
  if (kind === 'number') {
    const s = String(v);
    if (!/^-?\d+(\.\d+)?$/.test(s)) throw new Error(`not a number: ${s}`);
    return s;
  }
  if (kind === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(String(v))) throw new Error(`not a date: ${String(v)}`);
  const q = `'${String(v).replace(/'/g, "''")}'`;
  return kind === 'date' ? `DATE(${q})` : q;
}

/** Rows per INSERT statement (as the TPROC-C loader: Db2 statements may be up to 2 MB). */
export const ROWS_PER_INSERT = 500;

/** Multi-row INSERT statements for generated rows in TPROCH_COLUMNS order. */
export function insertStatements(table: TprochTable, columns: readonly Db2Column[], rows: readonly (readonly Value[])[], perStatement = ROWS_PER_INSERT): string[] {
  const kinds = columns.map(tprochKind);
  const head = `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')}) VALUES\n`;
  const out: string[] = [];
  const size = Math.max(1, perStatement);
  for (let at = 0; at < rows.length; at += size) {
    out.push(head + rows.slice(at, at + size).map((r) => `(${r.map((v, i) => literal(v, kinds[i]!)).join(', ')})`).join(',\n'));
  }
  return out;
}

export { renderPlan, type PlanOperator, type PlanStream } from '../engine/plan.js';
