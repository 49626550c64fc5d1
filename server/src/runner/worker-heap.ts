import { setFlagsFromString } from 'node:v8';

let applied = false;

/**
 * Turns V8's memory reducer off for the worker threads started after this call (VU, build and datagen
 * workers); the main thread keeps its own.
 *
 * The memory reducer shrinks a heap that stopped growing: ~16 s after a worker starts it runs two or three
 * full mark-compact GCs (plus concurrent marking on the V8 helper threads), i.e. at about the start of
 * the measured window of a run with a short rampup. A worker lives for one job and its heap goes with
 * it, so there is nothing for the reducer to give back. `--trace-gc` shows the '(reduce)' GCs with and
 * without this; bench/mariaref.js measures what it costs per transaction.
 *
 * V8 flags are per process: set once, before the first worker. SLEDGE_WORKER_MEMORY_REDUCER=1 keeps
 * the reducer (for A/B benches).
 */
export function workerHeapFlags(): void {
  if (applied) return;
  applied = true;
  if (process.env.SLEDGE_WORKER_MEMORY_REDUCER === '1') return;
  setFlagsFromString('--no-memory-reducer');
}
