import type { Client } from 'pg';
import type { ParamPipeline, ParamRow, ParamSession, ParamSessionOptions, ParamValue } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { closeQuietly, connect } from './connect.js';
import { PgPipeline } from './param-pipeline.js';

/**
 * Driver.openParamSession on PostgreSQL: one connection as the target's
 * user, named sledge-<name>; statements with `$n` placeholders, sent through
 * the extended protocol (parameters are never pasted into the text). With
 * target.prepared (the default) each distinct statement text is a named
 * prepared statement of the connection, parsed and planned once as pgbench's
 * `-M prepared` does (a script's commands are a fixed set; past
 * MAX_NAMED texts the rest go unnamed); `prepared: false` sends every
 * statement unnamed, as `-M extended`. `pipeline()` is PostgreSQL's pipeline
 * mode (param-pipeline.ts).
 */
const MAX_NAMED = 256;

class PgParamSession implements ParamSession {
  private readonly names = new Map<string, string>();

  constructor(
    private readonly c: Client,
    private readonly prepared: boolean,
  ) {}

  private nameOf(sql: string): string | undefined {
    if (!this.prepared) return undefined;
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < MAX_NAMED) {
      name = `sledge_s${this.names.size + 1}`;
      this.names.set(sql, name);
    }
    return name;
  }

  placeholder(n: number): string {
    return `$${n}`;
  }

  /**
   * One statement through node-postgres' callback form: a client that waits
   * on every round trip pays per query for whatever the library adds, and
   * the promise form adds a second promise (its stack-rewriting catch) to
   * each one; the result is the same rows, the same errors (DatabaseError,
   * classified by the driver).
   */
  run(sql: string, params: readonly ParamValue[]): Promise<ParamRow[]> {
    if (!params.length) return this.simple(sql);
    const name = this.nameOf(sql);
    return new Promise((resolve, reject) => {
      this.c.query<ParamRow>(name ? { name, text: sql, values: params as ParamValue[] } : { text: sql, values: params as ParamValue[] }, (err, r) => (err ? reject(err) : resolve(r.rows ?? [])));
    });
  }

  private simple(sql: string): Promise<ParamRow[]> {
    return new Promise((resolve, reject) => {
      this.c.query<ParamRow>(sql, (err, r) => (err ? reject(err) : resolve(r.rows ?? [])));
    });
  }

  async begin(): Promise<void> {
    await this.simple('BEGIN');
  }

  async commit(): Promise<void> {
    await this.simple('COMMIT');
  }

  async rollback(): Promise<void> {
    await this.simple('ROLLBACK');
  }

  /** pgbench's \\startpipeline: statements sent without waiting, one Sync at end() (param-pipeline.ts). */
  pipeline(): ParamPipeline {
    return new PgPipeline(this.c, (sql) => this.nameOf(sql));
  }

  close(): Promise<void> {
    return closeQuietly(this.c);
  }
}

export async function openPgParamSession(t: PostgresqlTarget, opts: ParamSessionOptions): Promise<ParamSession> {
  return new PgParamSession(await connect(t, 'user', `sledge-${opts.name}`, opts.log), t.prepared !== false);
}
