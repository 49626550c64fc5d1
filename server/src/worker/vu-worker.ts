/**
 * worker_threads entry hosting virtual users (vu-group.ts): the group runs
 * here and posts what it reports to the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromVuWorker, VuWorkerData } from '../shared/messages.js';
import { runVuGroup } from './vu-group.js';

const port = parentPort!;
void runVuGroup(workerData as VuWorkerData, (m: FromVuWorker) => port.postMessage(m));
