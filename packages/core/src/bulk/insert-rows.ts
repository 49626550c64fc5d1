import { SledgeError } from '@sledge/protocol';

/**
 * What every driver's QuerySession.insertRows shares: the input check, the
 * rows one multi-row INSERT carries within the engine's parameter limit, and
 * the batches. The INSERT text, quoting and sending stay the driver's.
 */

/** One row of insertRows: a value per column. */
export type InsertRow = readonly (string | number | null)[];

/**
 * insertRows' input checked before anything is sent: a typed error naming what
 * to fix. `name`, when given, checks the table's and each column's name the
 * engine's way (Oracle and Db2 take ordinary, unquoted identifiers) and throws.
 */
export function checkInsertRows(table: string, columns: readonly string[], rows: readonly InsertRow[], name?: (text: string, field: 'table' | 'columns') => unknown): void {
  if (table.trim() === '') throw new SledgeError('SLEDGE_E_VALIDATION', 'insertRows: the table name is empty', { field: 'table' });
  name?.(table, 'table');
  if (columns.length === 0) throw new SledgeError('SLEDGE_E_VALIDATION', `insertRows into ${table}: no columns given`, { field: 'columns' });
  if (name) for (const c of columns) name(c, 'columns');
  rows.forEach((r, i) => {
    if (r.length !== columns.length) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `insertRows into ${table}: row ${i} has ${r.length} values for ${columns.length} columns`, { field: 'rows' });
    }
  });
}

/** Rows per INSERT statement: as many as `maxParams` bound values allow, at most `maxRows`, at least one. */
export function rowsPerStatement(columns: number, maxParams: number, maxRows = Infinity): number {
  return Math.max(1, Math.min(maxRows, Math.floor(maxParams / columns)));
}

/** `rows` in batches of `per` (the last may be shorter); `full` says a batch has all `per` rows (its statement text can be reused). */
export function* rowBatches<R>(rows: readonly R[], per: number): Generator<{ rows: R[]; full: boolean }> {
  for (let i = 0; i < rows.length; i += per) {
    const batch = rows.slice(i, i + per);
    yield { rows: batch, full: batch.length === per };
  }
}
