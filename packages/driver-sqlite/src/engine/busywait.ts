import { performance } from 'node:perf_hooks';

export function isBusy(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * How a VU session waits for SQLite's locks: its connection runs with
 * busy_timeout = 0 and the session retries here, within the same budget
 * (target.busyTimeoutMs), after short sleeps: 20 us doubling to 1 ms.
 *
 * Why not SQLite's busy handler: it backs off to 100 ms sleeps. Between two
 * VUs that write back to back the write lock is free only for the few
 * microseconds between one's COMMIT and its next BEGIN, so a writer asleep
 * for 100 ms keeps missing it. Measured with two VU threads on one file
 * (6 s, default mix): SQLite's handler gave 3368-3552 transactions with
 * waits up to 146 ms and a 40/60 split between the VUs; this wait gave
 * 3550-4473 with waits up to 90 ms and a closer split. Switching the
 * busy timeout off and on around each BEGIN instead costs ~6 us a
 * transaction, so the connection simply keeps it off.
 */
export class BusyWait {
  private readonly sleeper = new Int32Array(new SharedArrayBuffer(4));

  constructor(private readonly timeoutMs: number) {}

  /**
   * Run `attempt` until it does not fail with SQLITE_BUSY/SQLITE_LOCKED;
   * rethrow that error once the budget is spent. `attempt` must leave no
   * transaction open when it throws.
   */
  retry<T>(attempt: () => T): T {
    const deadline = performance.now() + this.timeoutMs;
    let sleepMs = 0.02;
    for (;;) {
      try {
        return attempt();
      } catch (e) {
        const left = deadline - performance.now();
        if (!isBusy(e) || left <= 0) throw e;
        Atomics.wait(this.sleeper, 0, 0, Math.min(sleepMs, left));
        sleepMs = Math.min(sleepMs * 2, 1);
      }
    }
  }
}
