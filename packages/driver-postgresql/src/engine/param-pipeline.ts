import type { Client } from 'pg';
import type { ParamPipeline, ParamValue } from '@sledge/core';

/**
 * PostgreSQL's pipeline mode for the script workload (pgbench's
 * `\startpipeline` ... `\endpipeline`), on the protocol itself: each
 * statement is written as Parse (unless its named statement is already
 * prepared on the connection), Bind and Execute as it comes, nothing waits for
 * an answer, and `end()` writes a Sync and waits for the server's last
 * ReadyForQuery. node-postgres' own `pipeline` client mode ends every query
 * with a Sync of its own, so an error would not skip the rest; here, as with
 * libpq's pipeline, the statements up to a Sync are one implicit transaction,
 * an error makes the server skip the rest up to that Sync, and `end()` throws
 * the first error. `sync()` (pgbench 17's `\syncpipeline`) writes a Sync in
 * between without waiting: the server ends the implicit transaction there
 * (or, after an error, stops skipping) and runs the statements after it.
 *
 * Each stretch up to a Sync is a custom query (node-postgres' Submittable,
 * `Part`) on the session's client: the client makes one active at a time and
 * hands it the rows, completions and errors the server sends. At each
 * ReadyForQuery but the last the client is idle, and the pipeline gives it the
 * next part at once, before the server's next message is read.
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

/**
 * One stretch of a pipeline, up to its Sync, as node-postgres' custom query:
 * the first part to become active hands the pipeline the connection; every
 * part passes its errors on. Rows and completions are not read (no \gset in a
 * pipeline); the ReadyForQuery answers are counted by the pipeline on the
 * connection itself, since the client stops routing messages to a part after
 * its error.
 */
class Part {
  constructor(private readonly p: PgPipeline) {}

  submit(connection: PgConnection): void {
    this.p.attach(connection);
  }

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
    this.p.failed(e);
  }

  handleReadyForQuery(): void { /* counted on the connection (PgPipeline.onReady) */ }
}

export class PgPipeline implements ParamPipeline {
  private conn: PgConnection | undefined;
  /** Writes made before the client handed the connection over (it does so at once when idle). */
  private readonly queued: ((conn: PgConnection) => void)[] = [];
  /** Each Parse written, in order, with the part it is in, to mark its statement prepared at its ParseComplete. */
  private readonly parses: { name: string; text: string; part: number }[] = [];
  /** Named statements whose Parse is written but not yet answered, and the part that parses them. */
  private readonly pending = new Map<string, number>();
  /** Syncs written so far (the part being written is number `syncs`), and ReadyForQuery answers received. */
  private syncs = 0;
  private readies = 0;
  private error: unknown;
  private fatal = false;
  private ended: (() => void) | undefined;
  /** end() has written the last Sync. */
  private last = false;

  constructor(private readonly client: Client, private readonly nameOf: (sql: string) => string | undefined) {
    this.queuePart();
  }

  /** node-postgres' Client.query takes a Submittable and makes it the active query in turn. */
  private queuePart(): void {
    (this.client as unknown as { query(q: Part): unknown }).query(new Part(this));
  }

  // ---- called by the parts ----

  attach(connection: PgConnection): void {
    if (this.conn) return;
    this.conn = connection;
    connection.on('parseComplete', this.onParsed);
    connection.on('readyForQuery', this.onReady);
    connection.on('end', this.onClosed);
    for (const w of this.queued.splice(0)) w(connection);
  }

  failed(e: unknown): void {
    // the first error is the pipeline's; the server skips the rest of its part, up to that part's Sync
    if (this.error === undefined) this.error = e;
    if (!isServerError(e)) {
      this.fatal = true;
      this.finish();
    }
  }

  // ---- ParamPipeline ----

  send(sql: string, params: readonly ParamValue[]): void {
    this.onConn((conn) => this.write(conn, sql, params));
  }

  control(kind: 'begin' | 'commit' | 'rollback'): void {
    this.send(CONTROL[kind], []);
  }

  sync(): void {
    this.syncs++;
    this.onConn((conn) => conn.sync());
  }

  end(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.ended = () => (this.error === undefined ? resolve() : reject(this.error));
      if (this.fatal) return this.finish();
      this.last = true;
      this.syncs++;
      this.onConn((conn) => conn.sync());
    });
  }

  // ---- the connection ----

  private onConn(w: (conn: PgConnection) => void): void {
    if (this.fatal) return;
    if (this.conn) w(this.conn);
    else this.queued.push(w);
  }

  private readonly onParsed = (): void => {
    const p = this.parses.shift();
    if (p?.name) {
      this.conn!.parsedStatements[p.name] = p.text;
      this.pending.delete(p.name);
    }
  };

  /** A part's Sync answered: Parses of that part still unanswered were skipped after an error, so their statements are not prepared. */
  private readonly onReady = (): void => {
    const part = this.readies++;
    while (this.parses.length > 0 && this.parses[0]!.part <= part) {
      const p = this.parses.shift()!;
      if (p.name && this.pending.get(p.name) === p.part) this.pending.delete(p.name);
    }
    if (this.last && this.readies >= this.syncs) return this.finish();
    // The statements after this Sync are the next part. The client, idle since this ReadyForQuery (its own listener
    // ran first), makes the part active at once, before the next message of the server is read.
    if (!this.fatal) this.queuePart();
  };

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

  /**
   * Parse (when needed), Bind, Execute. A named statement is parsed once: later uses in the same part
   * bind it; a use in a later part, while its Parse is still unanswered, goes unnamed, since an error
   * before that Parse would skip it and leave the name unknown to the later part.
   */
  private write(conn: PgConnection, sql: string, params: readonly ParamValue[]): void {
    const part = this.syncs;
    let name = params.length ? this.nameOf(sql) : undefined;
    const pendingIn = name === undefined ? undefined : this.pending.get(name);
    if (pendingIn !== undefined && pendingIn !== part) name = undefined;
    const prepared = name !== undefined && (conn.parsedStatements[name] === sql || pendingIn === part);
    conn.stream.cork?.();
    try {
      if (!prepared) {
        conn.parse({ text: sql, ...(name ? { name } : {}) });
        this.parses.push({ name: name ?? '', text: sql, part });
        if (name) this.pending.set(name, part);
      }
      conn.bind({ ...(name ? { statement: name } : {}), values: params.map(wireValue) });
      conn.execute({ rows: 0 });
    } finally {
      conn.stream.uncork?.();
    }
  }
}
