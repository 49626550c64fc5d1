import { TPROCC_COLUMNS, type Value } from '@sledge/core';
import type { TproccTable } from '@sledge/protocol';

/** A table column as syscat.columns describes it (engine/loader.sql column_types). */
export interface Db2Column {
  name: string;
  typeName: string;
}

export type Db2Kind = 'number' | 'string' | 'timestamp';

export function db2Kind(c: Db2Column): Db2Kind {
  const t = c.typeName.toUpperCase().trim();
  if (['SMALLINT', 'INTEGER', 'BIGINT', 'DECIMAL', 'DOUBLE', 'REAL', 'DECFLOAT'].includes(t)) return 'number';
  if (t === 'CHARACTER' || t === 'CHAR' || t === 'VARCHAR') return 'string';
  if (t === 'TIMESTAMP' || t === 'DATE') return 'timestamp';
  throw new Error(`column ${c.name} has type ${c.typeName}, which the Db2 loader does not handle`);
}

export function generatedColumns<C extends Db2Column>(table: TproccTable, infos: readonly C[]): C[] {
  const byName = new Map(infos.map((c) => [c.name.toLowerCase(), c]));
  return TPROCC_COLUMNS[table].map((name) => {
    const c = byName.get(name);
    if (!c) throw new Error(`table ${table} has no column ${name}; was it created from packages/sql/db2/tprocc/tables.sql?`);
    return c;
  });
}

/** A Db2 literal; timestamps go through TIMESTAMP('YYYY-MM-DD HH:MM:SS'). */
export function literal(v: Value, kind: Db2Kind): string {
  if (v === null) return 'NULL';
  if (kind === 'number') {
    const s = String(v);
    if (!/^-?\d+(\.\d+)?$/.test(s)) throw new Error(`not a number: ${s}`);
    return s;
  }
  const q = `'${String(v).replace(/'/g, "''")}'`;
  return kind === 'timestamp' ? `TIMESTAMP(${q})` : q;
}

/** Rows per INSERT statement (Db2 statements may be up to 2 MB; 500 stock rows are about 200 kB). */
export const ROWS_PER_INSERT = 500;

/** Multi-row INSERT statements for generated rows in TPROCC_COLUMNS order. */
export function insertStatements(table: TproccTable, columns: readonly Db2Column[], rows: readonly (readonly Value[])[], perStatement = ROWS_PER_INSERT): string[] {
  const kinds = columns.map(db2Kind);
  const head = `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')}) VALUES\n`;
  const out: string[] = [];
  const size = Math.max(1, perStatement);
  for (let at = 0; at < rows.length; at += size) {
    out.push(head + rows.slice(at, at + size).map((r) => `(${r.map((v, i) => literal(v, kinds[i]!)).join(', ')})`).join(',\n'));
  }
  return out;
}
