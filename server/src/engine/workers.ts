import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

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
