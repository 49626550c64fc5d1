import type { ParamRow, ParamSession, ParamSessionOptions, ParamValue } from '@sledge/core';
import type { SqliteTarget } from '@sledge/protocol';
import { CREATE_TUNING, openExisting, openForCreate, VU_TUNING } from './connection.js';
import type { Db } from './library.js';
import { BusyWait } from './busywait.js';

/** A prepared statement with anonymous parameters. */
interface Statement {
  readonly reader: boolean;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
}

/** Prepared statements kept per session (a script has a handful). */
const MAX_STATEMENTS = 256;

/**
 * Driver.openParamSession on SQLite: one connection on the target's file
 * (WAL, the VU tuning), `?` placeholders, statements prepared once. A
 * transaction begins IMMEDIATE: it takes the write lock at BEGIN, so two
 * sessions whose scripts read before they write wait for each other
 * (the VU sessions' BusyWait, within target.busyTimeoutMs) instead of
 * failing on a lock upgrade (SQLITE_BUSY); a statement outside a
 * transaction waits the same way. Booleans bind as 1 and 0.
 */
class SqliteParamSession implements ParamSession {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db, private readonly busy: BusyWait) {}

  placeholder(): string {
    return '?';
  }

  private prepare(sql: string): Statement {
    let st = this.statements.get(sql);
    if (!st) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      st = this.db.prepare(sql) as unknown as Statement;
      this.statements.set(sql, st);
    }
    return st;
  }

  async run(sql: string, params: readonly ParamValue[]): Promise<ParamRow[]> {
    const st = this.prepare(sql);
    const values = params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
    const go = (): ParamRow[] => {
      if (st.reader) return st.all(...values) as ParamRow[];
      st.run(...values);
      return [];
    };
    return this.db.inTransaction ? go() : this.busy.retry(go);
  }

  async begin(): Promise<void> {
    const begin = this.prepare('BEGIN IMMEDIATE');
    this.busy.retry(() => begin.run());
  }

  async commit(): Promise<void> {
    this.prepare('COMMIT').run();
  }

  async rollback(): Promise<void> {
    if (this.db.inTransaction) this.prepare('ROLLBACK').run();
  }

  async close(): Promise<void> {
    this.statements.clear();
    this.db.close();
  }
}

export async function openSqliteParamSession(t: SqliteTarget, opts: Pick<ParamSessionOptions, 'create'> = {}): Promise<ParamSession> {
  return new SqliteParamSession(opts.create ? openForCreate(t, CREATE_TUNING) : openExisting(t, VU_TUNING), new BusyWait(t.busyTimeoutMs));
}
