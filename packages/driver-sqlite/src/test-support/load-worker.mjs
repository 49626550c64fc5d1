// Worker-thread fixture: one build worker (as the server runs them) loads
// its units into a shared file through the built driver's loader.
import { parentPort, workerData } from 'node:worker_threads';
import { TproccGenerator, itemUnits, warehouseUnits } from '@sledge/core';
import { driver } from '../../dist/index.js';

const { target, what } = workerData;
const gen = new TproccGenerator({ seed: 777, timestamp: '2026-01-01 00:00:00' }, 'tuples');
const units = what === 'items' ? itemUnits() : warehouseUnits(what);
const loader = await driver.workloads.tprocc.openLoader(target, () => {});
let rows = 0;
try {
  for (const u of units) {
    const tables = gen.generate(u);
    await loader.load(tables);
    rows += tables.reduce((s, t) => s + t.rows, 0);
  }
} finally {
  await loader.close();
}
parentPort.postMessage({ rows });
