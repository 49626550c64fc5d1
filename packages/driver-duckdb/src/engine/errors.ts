import type { ErrorClass } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';

/** Thrown by a session used after close(). */
export class SessionClosedError extends Error {
  readonly code = 'DUCKDB_CLOSED';
  constructor() {
    super('The DuckDB session is closed');
    this.name = 'SessionClosedError';
  }
}

/** A query the session stopped (cancel() or the statement timeout) by interrupting its connection. */
export class DuckdbInterrupted extends Error {
  readonly code = 'DUCKDB_INTERRUPT';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DuckdbInterrupted';
  }
}

/**
 * DuckDB's error type: the C API gives a message that starts with the
 * error's type ("Catalog Error: ...", "Constraint Error: ...",
 * "TransactionContext Error: ...", "INTERRUPT Error: Interrupted!"). The
 * type, upper-cased with '_' for spaces, is the error's code here
 * (CATALOG, CONSTRAINT, TRANSACTIONCONTEXT, INTERRUPT ...).
 */
export function duckdbCode(e: unknown): string | undefined {
  const own = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  if (typeof own === 'string') return own;
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
  const m = /^([A-Za-z][A-Za-z ]*?) Error:/.exec(message);
  return m ? m[1]!.toUpperCase().replace(/ /g, '_') : undefined;
}

/**
 * Classify what a DuckDB session threw.
 * - INTERRUPT (or our DuckdbInterrupted): cancel() or the statement timeout.
 * - TRANSACTIONCONTEXT "Conflict" / "write-write conflict": DuckDB's
 *   optimistic concurrency refused a commit (two transactions changed the
 *   same rows); the transaction was rolled back and may be retried.
 * - CONSTRAINT: a primary key or NOT NULL constraint failed.
 * - closed session, IO errors opening the file (another process holds its
 *   lock), CONNECTION: the session cannot go on.
 */
export function classifyError(e: unknown): ErrorClass {
  const message = e instanceof Error ? e.message : String(e);
  if (SledgeError.is(e)) {
    const kind = e.code === 'SLEDGE_E_CONNECT' || e.code === 'SLEDGE_E_SCHEMA_MISSING' ? 'connection' : 'other';
    return { kind, retryable: false, code: e.code, message };
  }
  const code = duckdbCode(e);
  const withCode = code !== undefined ? { code } : {};
  if (code === 'INTERRUPT' || code === 'DUCKDB_INTERRUPT') return { kind: 'timeout', retryable: false, ...withCode, message };
  if (code === 'TRANSACTIONCONTEXT' || code === 'TRANSACTION') {
    if (/conflict/i.test(message)) return { kind: 'serialization', retryable: true, ...withCode, message };
    return { kind: 'other', retryable: false, ...withCode, message };
  }
  if (code === 'CONSTRAINT') return { kind: 'constraint', retryable: false, ...withCode, message };
  if (code === 'DUCKDB_CLOSED' || code === 'CONNECTION' || (code === 'IO' && /lock|open|No such file/i.test(message))) {
    return { kind: 'connection', retryable: false, ...withCode, message };
  }
  return { kind: 'other', retryable: false, ...withCode, message };
}
