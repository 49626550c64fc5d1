import type { TxOutcome } from '@sledge/core';

/**
 * One transaction's statements, prepared once per session. The session
 * frames run() with BEGIN IMMEDIATE (write) or BEGIN DEFERRED (read-only)
 * and COMMIT, or ROLLBACK when run() returns 'rollback' or throws.
 */
export interface TxBody<I> {
  /** Takes the write lock at BEGIN (IMMEDIATE), so it never has to upgrade a read lock later. */
  readonly write: boolean;
  run(input: I): TxOutcome;
}

/** A row the transaction needs is not there: the schema is damaged or was built for fewer warehouses. */
export function missingRow(what: string): Error {
  return new Error(`${what} not found: is the TPROC-C schema complete for this warehouse count?`);
}

/** TPC-C 2.5.2.2 / 2.6.2.2: of n customers sharing a last name, ordered by c_first, take position ceil(n/2). */
export function middleOf<T>(rows: readonly T[]): T | undefined {
  return rows.length === 0 ? undefined : rows[Math.ceil(rows.length / 2) - 1];
}
