import type { MssqlTarget } from '@sledge/protocol';
import type { BulkLoad, Connection, Request } from 'tedious';
import { tediousConfig } from './config.js';
import { connectError } from './errors.js';
import { tedious, type Tedious } from './library.js';
import type { BoundParam } from './params.js';

export type Row = Record<string, unknown>;
type TdsType = Tedious['TYPES'][keyof Tedious['TYPES']];

export interface BulkColumn {
  name: string;
  type: TdsType;
  nullable: boolean;
  length?: number;
  precision?: number;
  scale?: number;
}

export interface OpenOptions {
  database: string;
  appName: string;
}

/**
 * One tedious connection with promise methods. tedious runs one request at
 * a time per connection, so calls are queued here.
 */
export class TdsConnection {
  private queue: Promise<unknown> = Promise.resolve();
  private ended = false;

  private constructor(
    private readonly lib: Tedious,
    private readonly conn: Connection,
  ) {
    conn.on('end', () => {
      this.ended = true;
    });
    // A socket error after login is reported on the next request; without a
    // listener Node would treat the 'error' event as fatal to the process.
    conn.on('error', () => {
      this.ended = true;
    });
  }

  /** Connect and log in; failures become SledgeErrors naming the target field. */
  static async open(target: MssqlTarget, o: OpenOptions): Promise<TdsConnection> {
    const lib = tedious();
    let loginNumber: number | undefined;
    let conn: Connection;
    try {
      conn = new lib.Connection(tediousConfig(target, o));
    } catch (e) {
      throw connectError(e, { target, database: o.database });
    }
    conn.on('errorMessage', (token) => {
      loginNumber ??= token.number;
    });
    try {
      await new Promise<void>((resolve, reject) => {
        conn.connect((err) => (err ? reject(err) : resolve()));
      });
    } catch (e) {
      conn.removeAllListeners('error');
      conn.on('error', () => undefined);
      conn.close();
      if (typeof e === 'object' && e !== null && loginNumber !== undefined) (e as { loginNumber?: number }).loginNumber = loginNumber;
      throw connectError(e, { target, database: o.database });
    }
    conn.removeAllListeners('errorMessage');
    return new TdsConnection(lib, conn);
  }

  get closed(): boolean {
    return this.ended;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private request(sql: string, rows: Row[] | null, done: (err: Error | null | undefined) => void): Request {
    const req = new this.lib.Request(sql, (err) => done(err));
    if (rows) {
      req.on('row', (columns: Array<{ value: unknown; metadata: { colName: string } }>) => {
        const r: Row = {};
        for (const c of columns) r[c.metadata.colName] = c.value;
        rows.push(r);
      });
    }
    return req;
  }

  /** Run a statement; with params it goes through sp_executesql. Returns the rows of every result set. */
  query(sql: string, params: readonly BoundParam[] = []): Promise<Row[]> {
    return this.serial(
      () =>
        new Promise<Row[]>((resolve, reject) => {
          const rows: Row[] = [];
          const req = this.request(sql, rows, (err) => (err ? reject(err) : resolve(rows)));
          for (const p of params) this.addParam(req, p);
          if (params.length) this.conn.execSql(req);
          else this.conn.execSqlBatch(req);
        }),
    );
  }

  /** Run a batch that returns nothing the caller needs. */
  async exec(sql: string): Promise<void> {
    await this.query(sql);
  }

  /** Call a stored procedure over RPC; resolves with its output parameters (names without '@'). */
  call(procedure: string, params: readonly BoundParam[]): Promise<Record<string, unknown>> {
    return this.serial(
      () =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          const outputs: Record<string, unknown> = {};
          const req = this.request(procedure, null, (err) => (err ? reject(err) : resolve(outputs)));
          req.on('returnValue', (name: string, value: unknown) => {
            outputs[name] = value;
          });
          for (const p of params) this.addParam(req, p);
          this.conn.callProcedure(req);
        }),
    );
  }

  private addParam(req: Request, p: BoundParam): void {
    const T = this.lib.TYPES;
    const opts: { length?: number; precision?: number; scale?: number } = {};
    if (p.length !== undefined) opts.length = p.length;
    if (p.precision !== undefined) opts.precision = p.precision;
    if (p.scale !== undefined) opts.scale = p.scale;
    let type: TdsType;
    let value: unknown = p.value;
    switch (p.type) {
      case 'int':
        type = T.Int;
        break;
      case 'smallint':
        type = T.SmallInt;
        break;
      case 'numeric':
        type = T.Decimal;
        break;
      case 'varchar':
        type = T.VarChar;
        break;
      case 'char':
        type = T.Char;
        break;
      case 'tvp': {
        type = T.TVP;
        const tvp = p.tvp!;
        value = { name: tvp.typeName, schema: tvp.schema, columns: tvp.columns.map((name) => ({ name, type: T.Int })), rows: tvp.rows };
        break;
      }
    }
    if (p.output) req.addOutputParameter(p.name, type, value, opts);
    else req.addParameter(p.name, type, value, opts);
  }

  /** TDS bulk copy of rows (arrays in `columns` order) into a table. Resolves with the row count. */
  bulkLoad(table: string, columns: readonly BulkColumn[], rows: readonly unknown[][]): Promise<number> {
    return this.serial(
      () =>
        new Promise<number>((resolve, reject) => {
          let bulk: BulkLoad;
          try {
            bulk = this.conn.newBulkLoad(table, { keepNulls: true, checkConstraints: false, fireTriggers: false }, (err, rowCount) =>
              err ? reject(err) : resolve(rowCount ?? 0),
            );
            for (const c of columns) {
              const o: { nullable: boolean; length?: number; precision?: number; scale?: number } = { nullable: c.nullable };
              if (c.length !== undefined) o.length = c.length;
              if (c.precision !== undefined) o.precision = c.precision;
              if (c.scale !== undefined) o.scale = c.scale;
              bulk.addColumn(c.name, c.type, o);
            }
            this.conn.execBulkLoad(bulk, rows as unknown[][]);
          } catch (e) {
            reject(e);
          }
        }),
    );
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

  get types(): Tedious['TYPES'] {
    return this.lib.TYPES;
  }

  /** Close the connection; resolves once tedious has ended it. Idempotent. */
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
