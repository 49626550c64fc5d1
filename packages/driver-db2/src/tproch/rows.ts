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

/** One operator of a Db2 access plan (EXPLAIN_OPERATOR). */
export interface PlanOperator {
  id: number;
  type: string;
  cost: number;
}

/** One stream of a Db2 access plan (EXPLAIN_STREAM): operator or data object ('D', a table or index) into an operator. */
export interface PlanStream {
  sourceType: string;
  sourceId: number;
  targetId: number;
  rows: number;
  objectName: string | null;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/**
 * The access plan as an indented tree (what db2exfmt draws as a graph):
 * each operator with its id, the estimated rows it returns and its total
 * cost, each table or index it reads as a leaf.
 */
export function renderPlan(operators: readonly PlanOperator[], streams: readonly PlanStream[]): string {
  if (!operators.length) return '';
  const byId = new Map(operators.map((o) => [o.id, o]));
  const inputs = new Map<number, PlanStream[]>();
  const outRows = new Map<number, number>();
  const sources = new Set<number>();
  for (const s of streams) {
    if (!inputs.has(s.targetId)) inputs.set(s.targetId, []);
    inputs.get(s.targetId)!.push(s);
    if (s.sourceType === 'O') {
      sources.add(s.sourceId);
      outRows.set(s.sourceId, s.rows);
    }
  }
  const roots = operators.filter((o) => !sources.has(o.id));
  const lines: string[] = [];
  const seen = new Set<number>();
  const walk = (op: PlanOperator, depth: number) => {
    if (seen.has(op.id)) return;
    seen.add(op.id);
    const rows = outRows.get(op.id);
    lines.push(`${'  '.repeat(depth)}${op.type.trim()} (${op.id})${rows === undefined ? '' : ` rows=${fmt(rows)}`} cost=${fmt(op.cost)}`);
    for (const s of inputs.get(op.id) ?? []) {
      if (s.sourceType === 'O') {
        const child = byId.get(s.sourceId);
        if (child) walk(child, depth + 1);
      } else {
        lines.push(`${'  '.repeat(depth + 1)}${(s.objectName ?? '?').trim()} rows=${fmt(s.rows)}`);
      }
    }
  };
  for (const r of roots) walk(r, 0);
  return lines.join('\n');
}
