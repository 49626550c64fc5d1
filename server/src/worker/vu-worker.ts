/**
 * worker_threads entry hosting virtual users. Async drivers run many VUs
 * here as concurrent loops; synchronous drivers (SQLite) get one VU per
 * worker. With the native loop (data.loop === 'native', chosen by run-job)
 * the VUs run on native threads and this thread only drains their latency
 * records and log lines (native-vus.ts). Counters go to shared memory;
 * interval latency histograms and log lines are posted to the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { TX_TYPES, toSledgeError, type TxType } from '@sledge/protocol';
import { loadDriver } from '../engine/registry.js';
import type { FromVuWorker, LogLine, VuProfile, VuWorkerData } from './messages.js';
import { startNativeVus } from './native-vus.js';
import { runVu, type VuEnv } from './vu-loop.js';

const data = workerData as VuWorkerData;
const port = parentPort!;
const post = (m: FromVuWorker) => port.postMessage(m);

const newHists = () => Object.fromEntries(TX_TYPES.map((t) => [t, createHistogram()])) as Record<TxType, RecordableHistogram>;

let pending: LogLine[] = [];
const flushLogs = () => {
  if (pending.length) {
    post({ t: 'log', lines: pending });
    pending = [];
  }
};

async function main(): Promise<void> {
  const driver = await loadDriver(data.engine);
  const env: VuEnv = {
    driver,
    target: data.target,
    seed: data.seed,
    warehouses: data.warehouses,
    activeVus: data.activeVus,
    opts: data.opts,
    counters: new Int32Array(data.shared.counters),
    states: new Int32Array(data.shared.states),
    ash: new Int32Array(data.shared.ash),
    control: new Int32Array(data.shared.control),
    interval: newHists(),
    log: (vu, text) => {
      pending.push({ vu, text });
      if (pending.length >= 500) flushLogs();
    },
  };
  const shipLatency = () => {
    const hist: Partial<Record<TxType, RecordableHistogram>> = {};
    for (const t of TX_TYPES) if (env.interval[t].count > 0) hist[t] = env.interval[t];
    if (Object.keys(hist).length) post({ t: 'latency', ts: Date.now(), hist });
    // A posted histogram may share its native storage with the copy the main
    // thread receives: start new ones instead of resetting the posted ones.
    env.interval = newHists();
  };
  const timers: NodeJS.Timeout[] = [];
  try {
    let profiles: VuProfile[];
    if (data.loop === 'native') {
      // The threads start now and wait for CTRL_GO, like the TypeScript VUs below.
      // One timer: the native drain tick flushes logs and ships latency once a second.
      let lastShip = Date.now();
      const native = startNativeVus({
        driver,
        target: data.target,
        seed: data.seed,
        warehouses: data.warehouses,
        activeVus: data.activeVus,
        opts: data.opts,
        vus: data.vus,
        shared: { counters: env.counters, states: env.states, control: env.control },
        interval: () => env.interval,
        log: env.log,
        onTick: () => {
          flushLogs();
          const now = Date.now();
          if (now - lastShip >= 1000) {
            lastShip = now;
            shipLatency();
          }
        },
        ...(data.pgVuAddonPath !== undefined ? { addonPath: data.pgVuAddonPath } : {}),
      });
      post({ t: 'ready' });
      profiles = await native.done;
    } else {
      timers.push(
        setInterval(() => {
          flushLogs();
          shipLatency();
        }, 1000),
        setInterval(flushLogs, 100),
      );
      post({ t: 'ready' });
      profiles = await Promise.all(data.vus.map((a) => runVu(env, a)));
    }
    shipLatency();
    flushLogs();
    post({ t: 'profile', vus: profiles });
  } finally {
    for (const t of timers) clearInterval(t);
  }
  post({ t: 'done' });
}

main().catch((e: unknown) => {
  flushLogs();
  post({ t: 'fatal', error: toSledgeError(e, 'SLEDGE_E_DB').toInfo() });
});
