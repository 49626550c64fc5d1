import type { ParamRow, ParamSession, ParamSessionOptions, ParamValue } from '@sledge/core';
import type { DuckdbTarget } from '@sledge/protocol';
import type { DuckDBPreparedStatement, DuckDBResultReader } from '@duckdb/node-api';
import { connect, type Handle } from './connection.js';
import { SessionClosedError } from './errors.js';
import { api } from './library.js';
import { jsValue } from './values.js';

/** Prepared statements kept per session (a script has a handful); past it the cache starts again. */
const MAX_STATEMENTS = 256;

/** "cannot rollback - no transaction is active": a ROLLBACK with nothing to undo is not an error here. */
const NO_TRANSACTION = /no transaction is active/i;

/**
 * Driver.openParamSession on DuckDB: one connection on this thread's
 * instance of the target's file (engine/connection.ts; the server runs
 * DuckDB's VU sessions on its main thread, DriverFeatures.mainThreadSessions),
 * `$n` placeholders. A statement with parameters is prepared once per
 * session and bound per run, as pgbench's `-M prepared` (DuckDB has no wire
 * protocol, so there is no "extended" mode to offer: an unprepared statement
 * would only parse and plan again each time); one without parameters (DDL,
 * the build's files) runs as it is. Transactions are DuckDB's, optimistic:
 * the second of two transactions that update the same row fails at that
 * UPDATE with "TransactionContext Error: Conflict on update" (classified
 * `serialization`), and the caller rolls back. There is no pipeline (no
 * protocol to pipeline): scripts with `\startpipeline` are refused before
 * the job is stored. Booleans bind as BOOLEAN, integers as INTEGER or
 * BIGINT, other numbers as DOUBLE, text as VARCHAR; DuckDB casts them to the
 * parameter's type as it does for any prepared statement.
 */
export class DuckdbParamSession implements ParamSession {
  private readonly statements = new Map<string, DuckDBPreparedStatement>();
  private closed = false;

  constructor(private readonly handle: Handle) {}

  placeholder(n: number): string {
    return `$${n}`;
  }

  private async prepare(sql: string): Promise<DuckDBPreparedStatement> {
    let st = this.statements.get(sql);
    if (!st) {
      if (this.statements.size >= MAX_STATEMENTS) this.dropStatements();
      st = await this.handle.conn.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  async run(sql: string, params: readonly ParamValue[]): Promise<ParamRow[]> {
    if (this.closed) throw new SessionClosedError();
    if (params.length === 0) return rowsOf(await this.handle.conn.runAndReadAll(sql));
    const st = await this.prepare(sql);
    st.clearBindings();
    st.bind(params as ParamValue[]);
    return rowsOf(await st.runAndReadAll());
  }

  async begin(): Promise<void> {
    await this.exec('BEGIN TRANSACTION');
  }

  async commit(): Promise<void> {
    await this.exec('COMMIT');
  }

  async rollback(): Promise<void> {
    try {
      await this.exec('ROLLBACK');
    } catch (e) {
      if (!(e instanceof Error && NO_TRANSACTION.test(e.message))) throw e;
    }
  }

  private async exec(sql: string): Promise<void> {
    if (this.closed) throw new SessionClosedError();
    await this.handle.conn.run(sql);
  }

  private dropStatements(): void {
    for (const st of this.statements.values()) st.destroySync();
    this.statements.clear();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.dropStatements();
    this.handle.release();
  }
}

/** Rows keyed by column name for a statement that returns rows; [] for one that changes rows (DuckDB answers those with a "Count" row). */
function rowsOf(reader: DuckDBResultReader): ParamRow[] {
  if (reader.returnType !== api().ResultReturnType.QUERY_RESULT) return [];
  const names = reader.columnNames();
  return reader.getRows().map((r) => {
    const row: ParamRow = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = jsValue(r[i]);
    return row;
  });
}

/** A parameter session on the target's file; `create` (a build) makes the file when it is missing. */
export async function openDuckdbParamSession(target: DuckdbTarget, opts: Pick<ParamSessionOptions, 'create'> = {}): Promise<ParamSession> {
  return new DuckdbParamSession(await connect(target, opts.create ? 'create' : 'existing'));
}
