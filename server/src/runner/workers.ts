import type { ErrorInfo } from '@sledge/protocol';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { CTRL_RUN, RUN_STOP } from '../worker/layout.js';

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

/** Start a worker thread from server/dist/worker/<name>.js with typed workerData. */
export function startWorker<D, M>(name: 'vu-worker' | 'build-worker' | 'datagen-worker', data: D, onMessage: (m: M) => void): { worker: Worker; exited: Promise<number> } {
  const worker = new Worker(here(`../worker/${name}.js`), { workerData: data });
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
  name: 'build-worker' | 'datagen-worker',
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
    const wk = startWorker<D, M>(name, data, (m) => {
      if (m.t === 'fatal' && 'error' in m) fail(m.error as ErrorInfo);
      else onMessage(vu, m);
    });
    wk.worker.on('error', (e) => fail({ code: 'SLEDGE_E_INTERNAL', message: `${name.replace('-worker', '')} worker ${vu} crashed: ${e.message}` }));
    return wk.exited;
  });
  await Promise.all(exits);
  return failure;
}
