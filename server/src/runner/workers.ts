import type { ErrorInfo } from '@sledge/protocol';
import { Worker } from 'node:worker_threads';
import { CTRL_RUN, RUN_STOP } from '../shared/layout.js';
import { workerHeapFlags } from './worker-heap.js';

/** The generic VU worker (server/dist/worker/vu-worker.js). */
export const VU_WORKER = new URL('../worker/vu-worker.js', import.meta.url);

/** Start a worker thread from a script (a file URL, e.g. `new URL('./build-worker.js', import.meta.url)`) with typed workerData. */
export function startWorker<D, M>(script: URL, data: D, onMessage: (m: M) => void): { worker: Worker; exited: Promise<number> } {
  workerHeapFlags();
  const worker = new Worker(script, { workerData: data });
  worker.on('message', onMessage);
  const exited = new Promise<number>((resolve) => {
    worker.once('exit', resolve);
    worker.once('error', () => undefined);
  });
  return { worker, exited };
}

/**
 * Run a group of build or datagen workers that share one control block:
 * each worker's messages go to onMessage with its number (data.worker), except 'fatal', which (like a
 * crash) records the first failure and tells every worker to stop. Resolves
 * when all have exited, with that failure or null.
 */
export async function runWorkerGroup<D extends { worker: number }, M extends { t: string }>(
  name: 'build' | 'datagen',
  script: URL,
  specs: readonly D[],
  ctrl: Int32Array,
  onMessage: (vu: number, m: M) => void,
): Promise<ErrorInfo | null> {
  let failure: ErrorInfo | null = null;
  const fail = (e: ErrorInfo) => {
    failure ??= e;
    Atomics.store(ctrl, CTRL_RUN, RUN_STOP);
  };
  const exits = specs.map((data) => {
    const vu = data.worker;
    const wk = startWorker<D, M>(script, data, (m) => {
      if (m.t === 'fatal' && 'error' in m) fail(m.error as ErrorInfo);
      else onMessage(vu, m);
    });
    wk.worker.on('error', (e) => fail({ code: 'SLEDGE_E_INTERNAL', message: `${name} worker ${vu} crashed: ${e.message}` }));
    return wk.exited;
  });
  await Promise.all(exits);
  return failure;
}
