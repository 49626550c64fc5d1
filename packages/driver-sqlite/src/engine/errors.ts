import type { ErrorClass } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';

/** Message of the error run() throws on a closed session (better-sqlite3's own wording). */
export const CLOSED_MESSAGE = 'The database connection is not open';

/** Thrown by a session used after close(). */
export class SessionClosedError extends Error {
  readonly code = 'SQLITE_CLOSED';
  constructor() {
    super(CLOSED_MESSAGE);
    this.name = 'SessionClosedError';
  }
}

function codeOf(e: unknown): string | undefined {
  const c = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof c === 'string' ? c : undefined;
}

/**
 * Classify what a VU session threw. better-sqlite3 raises SqliteError with
 * the extended result code name in `code` (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT,
 * SQLITE_CONSTRAINT_PRIMARYKEY ...), and a TypeError when a closed
 * connection is used.
 *
 * - SQLITE_BUSY* / SQLITE_LOCKED*: the write lock was not granted within the
 *   busy timeout; the transaction was rolled back and may be retried.
 * - closed connection, SQLITE_CANTOPEN*, SQLITE_NOTADB: the session cannot go on.
 * - SQLITE_CONSTRAINT*: a constraint failed.
 * - SQLITE_INTERRUPT: a query session's query was stopped by its statement
 *   timeout or by cancel() (engine/query-session.ts).
 */
export function classifyError(e: unknown): ErrorClass {
  const message = e instanceof Error ? e.message : String(e);
  const code = codeOf(e);
  if (SledgeError.is(e)) {
    const kind = e.code === 'SLEDGE_E_CONNECT' || e.code === 'SLEDGE_E_SCHEMA_MISSING' ? 'connection' : 'other';
    return { kind, retryable: false, code: e.code, message };
  }
  if (code !== undefined && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return { kind: 'lock-timeout', retryable: true, code, message };
  if (
    (code !== undefined && /^SQLITE_(CANTOPEN|NOTADB|CLOSED)(_|$)/.test(code)) ||
    /database connection is not open|database is closed/i.test(message)
  ) {
    return { kind: 'connection', retryable: false, ...(code !== undefined ? { code } : {}), message };
  }
  if (code === 'SQLITE_INTERRUPT') return { kind: 'timeout', retryable: false, code, message };
  if (code !== undefined && /^SQLITE_CONSTRAINT(_|$)/.test(code)) return { kind: 'constraint', retryable: false, code, message };
  return { kind: 'other', retryable: false, ...(code !== undefined ? { code } : {}), message };
}

/** Preparing against a file without the TPROC-C tables fails with "no such table": the schema is missing. */
export function schemaMissingIfNoTable(e: unknown, file: string): unknown {
  if (e instanceof Error && /no such table/i.test(e.message)) {
    return new SledgeError('SLEDGE_E_SCHEMA_MISSING', `${file} has no TPROC-C schema (${e.message}): build the schema first.`, {
      field: 'target.file',
      cause: e,
    });
  }
  return e;
}
