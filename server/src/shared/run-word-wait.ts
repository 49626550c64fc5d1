import { CTRL_RUN, RUN_GO } from './layout.js';

type WaitAsync = (a: Int32Array, i: number, v: number, t: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** The tick once the run word left RUN_GO: the threads end within a transaction, and the job waits for them. */
export const STOPPING_POLL_MS = 20;

/**
 * The wait of a native VU host's tick: `ms`, or less when the run word
 * (control[CTRL_RUN]) changes (a stop, an abort: vu-pool.ts stores it and
 * notifies), so a long tick does not delay the end of a run; STOPPING_POLL_MS
 * once it has changed. A pending Atomics.waitAsync does not keep a thread's
 * event loop alive: the host keeps a timer of its own (keepAlive()).
 */
export async function pauseOnRunWord(control: Int32Array, ms: number): Promise<void> {
  if (Atomics.load(control, CTRL_RUN) === RUN_GO) {
    const w = waitAsync(control, CTRL_RUN, RUN_GO, ms);
    if (w.async) await w.value;
    return;
  }
  await new Promise((r) => setTimeout(r, STOPPING_POLL_MS));
}

/** A timer that never fires and keeps the worker's event loop alive while it waits on the run word; clear it at the end. */
export const keepAlive = (): NodeJS.Timeout => setInterval(() => undefined, 2 ** 30);
