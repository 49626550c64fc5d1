/**
 * A group of virtual users, for any workload: it imports the job's Workload
 * (data.workload) and runs its operations. It runs in a VU worker thread
 * (vu-worker.ts, posting to the main thread), or on the server's main thread
 * itself for a driver whose sessions must stay there
 * (DriverFeatures.mainThreadSessions: DuckDB's one instance per file per
 * thread), posting straight to the VU pool. Async drivers run many VUs here
 * as concurrent loops; synchronous drivers (SQLite) get one VU per group.
 * With a native loop (data.loop === 'native', chosen by the runner) the VUs
 * run on native threads started by the workload's native host (data.native)
 * and this group only drains their latency records and log lines. Counters
 * go to shared memory; interval latency histograms and log lines are posted.
 */
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { Driver, VuWorkload } from '@sledge/core';
import { toSledgeError } from '@sledge/protocol';
import { loadDriver } from '../shared/drivers.js';
import type { FromVuWorker, LogLine, ModuleRef, VuProfile, VuWorkerData } from '../shared/messages.js';
import type { NativeVuHost } from '../shared/native-host.js';
import { runVu } from './vu-loop.js';
import type { VuEnv } from './vu-session.js';
import { SparseHist, toPairs, type HistPairs } from '../shared/sparse-hist.js';

/**
 * The interval latency: one SparseHist per operation for the whole run, shipped as value, count pairs
 * every second and reset, instead of a new perf_hooks histogram per operation per second (each a
 * ~350 KB calloc'd counts array, transferred to the main thread and added there).
 */
const intervalHists = (ops: readonly string[]) => Object.fromEntries(ops.map((t) => [t, new SparseHist() as unknown as RecordableHistogram])) as Record<string, RecordableHistogram>;

async function importRef<T>(ref: ModuleRef): Promise<T> {
  const m = (await import(ref.specifier)) as Record<string, unknown>;
  const x = m[ref.export];
  if (x === undefined) throw new Error(`${ref.specifier} does not export "${ref.export}"`);
  return x as T;
}

class VuGroup {
  private pending: LogLine[] = [];

  constructor(
    private readonly data: VuWorkerData,
    private readonly post: (m: FromVuWorker) => void,
  ) {}

  readonly flushLogs = (): void => {
    if (this.pending.length) {
      this.post({ t: 'log', lines: this.pending });
      this.pending = [];
    }
  };

  /** A replica's VUs record every value (SparseHist: it crosses the network and merges exactly); local VUs use perf_hooks. */
  private readonly newHist = (): RecordableHistogram => (this.data.exactLatency ? (new SparseHist() as unknown as RecordableHistogram) : createHistogram());

  private makeEnv(driver: Driver, workload: VuWorkload): VuEnv {
    const { data } = this;
    return {
      driver,
      target: data.target,
      workload,
      seed: data.seed,
      options: data.options,
      params: data.params,
      plan: data.plan,
      activeVus: data.activeVus,
      ...(data.sessionTag ? { sessionTag: data.sessionTag } : {}),
      counters: new Int32Array(data.shared.counters),
      faults: new Int32Array(data.shared.faults),
      states: new Int32Array(data.shared.states),
      ash: new Int32Array(data.shared.ash),
      control: new Int32Array(data.shared.control),
      shape: new Int32Array(data.shared.shape),
      ...(data.shared.pool ? { pool: new Int32Array(data.shared.pool) } : {}),
      interval: intervalHists(workload.operations),
      newHist: this.newHist,
      log: (vu, text) => {
        this.pending.push({ vu, text });
        if (this.pending.length >= 500) this.flushLogs();
      },
    };
  }

  /** Post the interval latency of the operations that have records (value, count pairs), and reset it. */
  private shipper(env: VuEnv): () => void {
    const ops = env.workload.operations;
    return () => {
      let pairs: Partial<Record<string, HistPairs>> | null = null;
      for (const t of ops) {
        const h = env.interval[t] as unknown as SparseHist;
        if (h.count === 0) continue;
        (pairs ??= {})[t] = toPairs(h);
        h.reset();
      }
      if (pairs) this.post({ t: 'latency', ts: Date.now(), pairs });
    };
  }

  /** The VUs in a native loop: one timer, the native drain tick, flushes logs and ships latency once a second. */
  private async runNative(env: VuEnv, shipLatency: () => void): Promise<VuProfile[]> {
    const { data } = this;
    const start = await importRef<NativeVuHost>(data.native!);
    let lastShip = Date.now();
    // The threads start now and wait for CTRL_GO, like the TypeScript VUs.
    const native = start({
      driver: env.driver,
      target: data.target,
      seed: data.seed,
      options: data.options,
      params: data.params,
      plan: data.plan,
      activeVus: data.activeVus,
      vus: data.vus,
      ...(data.nativeThreads !== undefined ? { threads: data.nativeThreads } : {}),
      ...(data.sessionTag ? { sessionTag: data.sessionTag } : {}),
      shared: { counters: env.counters, states: env.states, control: env.control, faults: env.faults },
      interval: () => env.interval,
      newHist: this.newHist,
      log: env.log,
      onTick: () => {
        this.flushLogs();
        const now = Date.now();
        // Once a second: the native host ticks once a second (POLL_MS), and a tick that comes a little early still ships.
        if (now - lastShip >= 500) {
          lastShip = now;
          shipLatency();
        }
      },
      ...(data.pgVuAddonPath !== undefined ? { addonPath: data.pgVuAddonPath } : {}),
    });
    this.post({ t: 'ready' });
    return native.done;
  }

  async run(): Promise<void> {
    const { data } = this;
    const [driver, imported] = await Promise.all([loadDriver(data.engine), importRef<VuWorkload>(data.workload)]);
    // A workload whose operations depend on its options (VuWorkload.forOptions) runs as the job's instance.
    const workload = imported.forOptions ? imported.forOptions(data.options) : imported;
    const env = this.makeEnv(driver, workload);
    const shipLatency = this.shipper(env);
    const timers: NodeJS.Timeout[] = [];
    try {
      let profiles: VuProfile[];
      if (data.loop === 'native') profiles = await this.runNative(env, shipLatency);
      else {
        timers.push(
          setInterval(() => {
            this.flushLogs();
            shipLatency();
          }, 1000),
          setInterval(this.flushLogs, 100),
        );
        this.post({ t: 'ready' });
        profiles = await Promise.all(data.vus.map((a) => runVu(env, a)));
      }
      shipLatency();
      this.flushLogs();
      this.post({ t: 'profile', vus: profiles });
    } finally {
      for (const t of timers) clearInterval(t);
    }
    this.post({ t: 'done' });
  }
}

/** Run a group of VUs to their end, reporting through `post`; a failure is posted as 'fatal', never thrown. */
export async function runVuGroup(data: VuWorkerData, post: (m: FromVuWorker) => void): Promise<void> {
  const g = new VuGroup(data, post);
  try {
    await g.run();
  } catch (e) {
    g.flushLogs();
    post({ t: 'fatal', error: toSledgeError(e, 'SLEDGE_E_DB').toInfo() });
  }
}
