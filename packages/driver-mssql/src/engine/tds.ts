import type { MssqlTarget } from '@sledge/protocol';
import type { Connection, ConnectionConfiguration, Request } from 'tedious';
import type { Value } from '@sledge/core';
import { tediousConfig } from './config.js';
import { connectError } from './errors.js';
import { tedious, type Tedious } from './library.js';

/** How a value is sent as a tedious parameter: TPROC-H's refresh types (tables.sql), float for a query session's non-integer numbers. */
export type TdsParamType = 'bigint' | 'int' | 'decimal' | 'float' | 'date' | 'varchar';

export interface TdsParam {
  name: string;
  type: TdsParamType;
  value: Value | Date;
}

/** What a query session (and TPROC-H's stream on it) needs from its connection (a fake stands in for it in tests). */
export interface StreamConn {
  /** Run a batch (or, with params, a parameterised statement); resolves with the rows of every result set as arrays. */
  rows(sql: string, params?: readonly TdsParam[]): Promise<unknown[][]>;
  exec(sql: string, params?: readonly TdsParam[]): Promise<void>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Send an attention for the running request; resolves once the server has ended it. */
  cancel(): Promise<void>;
  close(): Promise<void>;
}

export interface StreamOpenOptions {
  database: string;
  appName: string;
  /** Client-side request timeout (tedious requestTimeout); 0 = none. On expiry tedious cancels the request. */
  requestTimeoutMs: number;
}

/** The tedious configuration of a query session: the admin one with the session's request timeout. */
export function streamConfig(t: MssqlTarget, o: StreamOpenOptions): ConnectionConfiguration {
  const base = tediousConfig(t, { database: o.database, appName: o.appName });
  return { ...base, options: { ...base.options, requestTimeout: o.requestTimeoutMs } };
}

/**
 * A tedious connection for a query session: the request timeout is the
 * session's statement timeout, and cancel() sends a TDS attention, which
 * ends the running request on the server (the request fails with ECANCEL).
 */
export class TediousStreamConn implements StreamConn {
  private running: Promise<unknown> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private ended = false;

  private constructor(
    private readonly lib: Tedious,
    private readonly conn: Connection,
  ) {
    conn.on('end', () => (this.ended = true));
    conn.on('error', () => (this.ended = true));
  }

  static async open(t: MssqlTarget, o: StreamOpenOptions): Promise<TediousStreamConn> {
    const lib = tedious();
    const config = streamConfig(t, o);
    let conn: Connection;
    try {
      conn = new lib.Connection(config);
    } catch (e) {
      throw connectError(e, { target: t, database: o.database });
    }
    try {
      await new Promise<void>((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve())));
    } catch (e) {
      conn.removeAllListeners('error');
      conn.on('error', () => undefined);
      conn.close();
      throw connectError(e, { target: t, database: o.database });
    }
    return new TediousStreamConn(lib, conn);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private addParam(req: Request, p: TdsParam): void {
    const T = this.lib.TYPES;
    switch (p.type) {
      case 'bigint':
        req.addParameter(p.name, T.BigInt, p.value === null ? null : Number(p.value));
        break;
      case 'int':
        req.addParameter(p.name, T.Int, p.value === null ? null : Number(p.value));
        break;
      case 'float':
        req.addParameter(p.name, T.Float, p.value === null ? null : Number(p.value));
        break;
      case 'decimal':
        req.addParameter(p.name, T.Decimal, p.value === null ? null : Number(p.value), { precision: 15, scale: 2 });
        break;
      case 'date':
        req.addParameter(p.name, T.Date, p.value === null ? null : p.value instanceof Date ? p.value : new Date(`${String(p.value)}T00:00:00Z`));
        break;
      case 'varchar':
        req.addParameter(p.name, T.VarChar, p.value === null ? null : String(p.value));
        break;
    }
  }

  rows(sql: string, params: readonly TdsParam[] = []): Promise<unknown[][]> {
    return this.serial(() => {
      const run = new Promise<unknown[][]>((resolve, reject) => {
        const out: unknown[][] = [];
        const req = new this.lib.Request(sql, (err) => (err ? reject(err) : resolve(out)));
        req.on('row', (columns: Array<{ value: unknown }>) => out.push(columns.map((c) => c.value)));
        for (const p of params) this.addParam(req, p);
        if (params.length) this.conn.execSql(req);
        else this.conn.execSqlBatch(req);
      });
      this.running = run;
      return run.finally(() => {
        if (this.running === run) this.running = null;
      });
    });
  }

  async exec(sql: string, params: readonly TdsParam[] = []): Promise<void> {
    await this.rows(sql, params);
  }

  begin(): Promise<void> {
    return this.serial(() => new Promise<void>((res, rej) => this.conn.beginTransaction((err) => (err ? rej(err) : res()))));
  }

  commit(): Promise<void> {
    return this.serial(() => new Promise<void>((res, rej) => this.conn.commitTransaction((err) => (err ? rej(err) : res()))));
  }

  rollback(): Promise<void> {
    return this.serial(() => new Promise<void>((res, rej) => this.conn.rollbackTransaction((err) => (err ? rej(err) : res()))));
  }

  async cancel(): Promise<void> {
    const running = this.running;
    if (!running || this.ended) return;
    this.conn.cancel();
    await running.catch(() => undefined);
  }

  close(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      this.conn.once('end', () => {
        clearTimeout(timer);
        resolve();
      });
      this.conn.close();
    });
  }
}
