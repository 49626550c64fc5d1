import type { Driver, Logger } from './driver.js';
import { errorClassOf } from './error-class.js';

/** How long a monitor keeps trying to reopen its session before the error stands (ms). */
export const MONITOR_PATIENCE_MS = 120_000;

const backoff = (attempt: number) => Math.min(500 * 2 ** attempt, 5000);

/**
 * A session that is reopened when its connection is lost (the driver's
 * classifyError says 'connection'): the old one is closed first, then new
 * ones are tried with bounded exponential backoff (0.5 s doubling to 5 s)
 * for up to `patienceMs`; the call that met the lost connection then runs
 * again on the new session. Calls are serialised (one query at a time on
 * the connection). Errors of other classes pass through untouched.
 *
 * Once close() is called the session stays closed: a call cut by the close
 * fails with its own error instead of reconnecting, a reopen under way stops
 * (a session it opened meanwhile is closed, never handed out), and close()
 * resolves only when no session of this object is left open. Without that,
 * a monitor reading cut by a run's stop opened a new session that nothing
 * closed (issue 31: the replicas-trust test saw a stray sledge-monitor).
 */
export class Reconnecting<S extends { close(): Promise<void> }> {
  /** Times the session was reopened. */
  reconnects = 0;
  private reopening: Promise<S> | null = null;
  /** The last call queued: the next one starts when it has settled. */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** Ends the backoff sleep of a reopen under way early (close()). */
  private wake: (() => void) | null = null;

  constructor(
    private session: S,
    private readonly open: () => Promise<S>,
    private readonly driver: Pick<Driver, 'classifyError'>,
    private readonly log: Logger,
    private readonly what = 'Monitor',
    private readonly patienceMs = MONITOR_PATIENCE_MS,
  ) {}

  get current(): S {
    return this.session;
  }

  private lost(e: unknown): boolean {
    return errorClassOf(this.driver.classifyError(e).kind) === 'connection';
  }

  /**
   * Run `f` on the session; on a lost connection reopen it and run `f` once
   * more. Calls run one at a time, in the order they were made: a session is
   * one connection, and callers that share it (a step load's boundary
   * readings, the transaction counter's tick, the window's start and end
   * readings) must not send a query while another is running on it
   * (node-postgres deprecates that; other clients queue it unseen). `f` must
   * not call use() itself.
   */
  use<T>(f: (s: S) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.attempt(f));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async attempt<T>(f: (s: S) => Promise<T>): Promise<T> {
    const s = this.session;
    try {
      return await f(s);
    } catch (e) {
      if (this.closed || !this.lost(e)) throw e;
      return f(await this.reopen(s, e));
    }
  }

  private reopen(failed: S, e: unknown): Promise<S> {
    if (this.session !== failed) return Promise.resolve(this.session);
    this.reopening ??= this.doReopen(failed, e).finally(() => {
      this.reopening = null;
    });
    return this.reopening;
  }

  private async doReopen(failed: S, e: unknown): Promise<S> {
    this.log(`${this.what}: connection lost (${this.driver.classifyError(e).message}), reconnecting`);
    await failed.close().catch(() => undefined);
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      await new Promise<void>((r) => {
        const t = setTimeout(r, backoff(attempt));
        this.wake = () => {
          clearTimeout(t);
          r();
        };
      });
      this.wake = null;
      if (this.closed) throw this.closedError();
      try {
        const s = await this.open();
        if (this.closed) {
          await s.close().catch(() => undefined);
          throw this.closedError();
        }
        this.session = s;
        this.reconnects++;
        this.log(`${this.what}: reconnected after ${((Date.now() - started) / 1000).toFixed(1)} s`);
        return s;
      } catch (e2) {
        if (this.closed) throw this.closedError();
        if (!this.lost(e2) || Date.now() - started >= this.patienceMs) {
          const msg = this.driver.classifyError(e2).message;
          throw Object.assign(new Error(`${this.what}: could not reconnect within ${Math.round((Date.now() - started) / 1000)} s: ${msg}`), { cause: e2 });
        }
      }
    }
  }

  private closedError(): Error {
    return new Error(`${this.what}: closed while reconnecting`);
  }

  /** Close the session for good; a reopen under way is stopped and whatever it opened is closed first. */
  async close(): Promise<void> {
    this.closed = true;
    const reopening = this.reopening;
    if (reopening) {
      this.wake?.();
      // A failed reopen has closed the lost session already and holds no other.
      if (!(await reopening.then(() => true, () => false))) return;
    }
    await this.session.close();
  }
}
