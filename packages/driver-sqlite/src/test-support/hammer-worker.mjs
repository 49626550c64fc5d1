// Worker-thread fixture for the concurrency test: one SQLite VU (as the
// server runs them, one per thread) runs the default mix on a shared file
// for a few seconds and reports what happened. Imports the built driver.
import { parentPort, workerData } from 'node:worker_threads';
import { TproccVuInputs } from '@sledge/core';
import { DEFAULT_MIX } from '@sledge/protocol';
import { driver } from '../../dist/index.js';

const { target, position, seconds } = workerData;
const vu = await driver.workloads.tprocc.openVu(target, { vu: position, log: () => {} });
const wl = new TproccVuInputs(1000 + position, { warehouses: 1, position, activeVus: 2, allWarehouse: false, mix: DEFAULT_MIX });
const out = { commit: 0, rollback: 0, neworders: 0, lockTimeouts: 0, failures: [], waitMs: 0, execMs: 0, maxWaitMs: 0 };
const end = Date.now() + seconds * 1000;
try {
  while (Date.now() < end) {
    const t = wl.nextType();
    try {
      const r = vu.run(t, wl.input(t));
      out[r]++;
      if (t === 'neworder' && r === 'commit') out.neworders++;
    } catch (e) {
      const c = driver.classifyError(e);
      if (c.kind === 'lock-timeout' && c.retryable) out.lockTimeouts++;
      else out.failures.push(`${t}: ${c.kind} ${c.message}`);
    }
    out.waitMs += vu.lastWaitMs();
    out.execMs += vu.lastExecMs();
    out.maxWaitMs = Math.max(out.maxWaitMs, vu.lastWaitMs());
  }
} finally {
  await vu.close();
}
parentPort.postMessage(out);
