import type { Client } from 'pg';
import type { ParamPipeline, ParamValue } from '@sledge/core';

/**
 * PostgreSQL's pipeline mode for the script workload (pgbench's
 * `\startpipeline` ... `\endpipeline`), on the protocol itself: each
 * statement is written as Parse (unless its named statement is already
 * prepared on the connection), Bind and Execute as it comes, nothing waits for
 * an answer, and `end()` writes the one Sync and waits for the server's
 * ReadyForQuery. node-postgres' own `pipeline` client mode ends every query
 * with a Sync of its own, so an error would not skip the rest; here, as with
 * libpq's pipeline, the statements up to the Sync are one implicit
 * transaction, the first error makes the server skip the rest, and `end()`
 * throws that error.
 *
 * The pipeline is a custom query (node-postgres' Submittable) on the session's
 * client: while it is the client's active query, the rows and completions the
 * server sends for the pipeline's statements come to it.
 */

/** The parts of node-postgres' Connection that a pipeline writes with (pg's own API for custom queries). */
interface PgConnection {
  parse(q: { text: string; name?: string; types?: number[] }): void;
  bind(c: { portal?: string; statement?: string; values: (string | null)[] }): void;
  execute(c: { portal?: string; rows?: number }): void;
  sync(): void;
  sendCopyFail(msg: string): void;
  parsedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  on(event: string, fn: () => void): unknown;
  removeListener(event: string, fn: () => void): unknown;
}

function wireValue(v: ParamValue): string | null {
  if (v === null) return null;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return String(v);
}

/** A database error (ErrorResponse) leaves the connection usable; anything else (a socket error) does not. */
function isServerError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'severity' in e;
}

const CONTROL = { begin: 'BEGIN', commit: 'COMMIT', rollback: 'ROLLBACK' } as const;

export class PgPipeline implements ParamPipeline {
  private conn: PgConnection | undefined;
  /** Statements written before the client handed the connection over (it does so at once when idle). */
  private readonly queued: (() => void)[] = [];
  /** The statement name (or '' for unnamed) of each Parse written, in order, to mark it prepared at its ParseComplete. */
  private readonly parses: { name: string; text: string }[] = [];
  private readonly pending = new Set<string>();
  private error: unknown;
  private fatal = false;
  private ended: (() => void) | undefined;
  private readonly onParsed = (): void => {
    const p = this.parses.shift();
    if (p?.name) {
      this.conn!.parsedStatements[p.name] = p.text;
      this.pending.delete(p.name);
    }
  };

  constructor(client: Client, private readonly nameOf: (sql: string) => string | undefined) {
    // node-postgres' Client.query takes a Submittable and makes it the active query in turn.
    (client as unknown as { query(q: PgPipeline): unknown }).query(this);
  }

  // ---- node-postgres' custom-query hooks ----

  submit(connection: PgConnection): void {
    this.conn = connection;
    connection.on('parseComplete', this.onParsed);
    for (const w of this.queued.splice(0)) w();
    if (this.ended) this.sync();
  }

  // A pipeline's rows are not read (no \gset in a pipeline); completions need nothing: the Sync's ReadyForQuery ends it.
  handleRowDescription(): void { /* not read */ }
  handleDataRow(): void { /* not read */ }
  handlePortalSuspended(): void { /* Execute asks for every row */ }
  handleEmptyQuery(): void { /* nothing to count */ }
  handleCommandComplete(): void { /* nothing to count */ }
  handleCopyData(): void { /* no COPY TO in a pipeline */ }
  handleCopyInResponse(connection: PgConnection): void {
    connection.sendCopyFail('COPY FROM STDIN is not supported in a pipeline');
  }

  handleError(e: unknown): void {
    // the first error is the pipeline's; the server skips the rest up to the Sync
    if (this.error === undefined) this.error = e;
    if (!isServerError(e)) {
      this.fatal = true;
      this.finish();
    }
  }

  handleReadyForQuery(): void {
    this.finish();
  }

  // ---- ParamPipeline ----

  send(sql: string, params: readonly ParamValue[]): void {
    const write = (): void => this.write(sql, params);
    if (this.conn) write();
    else this.queued.push(write);
  }

  control(kind: 'begin' | 'commit' | 'rollback'): void {
    this.send(CONTROL[kind], []);
  }

  end(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.ended = () => (this.error === undefined ? resolve() : reject(this.error));
      if (this.fatal) this.finish();
      else if (this.conn) this.sync();
    });
  }

  private sync(): void {
    const conn = this.conn!;
    // After an ErrorResponse the client no longer routes the ReadyForQuery to this query: wait for it on the connection.
    conn.on('readyForQuery', this.onReady);
    conn.on('end', this.onClosed);
    conn.sync();
  }

  private readonly onReady = (): void => this.finish();
  private readonly onClosed = (): void => {
    if (this.error === undefined) this.error = new Error('the connection closed during a pipeline');
    this.fatal = true;
    this.finish();
  };

  private finish(): void {
    if (!this.ended) return;
    const done = this.ended;
    this.ended = undefined;
    const conn = this.conn;
    if (conn) {
      conn.removeListener('parseComplete', this.onParsed);
      conn.removeListener('readyForQuery', this.onReady);
      conn.removeListener('end', this.onClosed);
    }
    done();
  }

  private write(sql: string, params: readonly ParamValue[]): void {
    const conn = this.conn!;
    const name = params.length ? this.nameOf(sql) : undefined;
    const prepared = name !== undefined && (conn.parsedStatements[name] === sql || this.pending.has(name));
    conn.stream.cork?.();
    try {
      if (!prepared) {
        conn.parse({ text: sql, ...(name ? { name } : {}) });
        this.parses.push({ name: name ?? '', text: sql });
        if (name) this.pending.add(name);
      }
      conn.bind({ ...(name ? { statement: name } : {}), values: params.map(wireValue) });
      conn.execute({ rows: 0 });
    } finally {
      conn.stream.uncork?.();
    }
  }
}
