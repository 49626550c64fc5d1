import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import type { ErrorInfo } from '@sledge/protocol';
import { CTRL_GO, CTRL_PHASE, CTRL_RUN, RUN_ABORT, RUN_STOP, VU_STATE } from '../shared/layout.js';
import type { FromVuWorker, LogLine, VuAssignment, VuProfile, VuWorkerData } from '../shared/messages.js';
import { VU_WORKER, startWorker } from './workers.js';
import { runVuGroup } from '../worker/vu-group.js';
import type { VuHost } from './vu-host.js';
import { SparseHist, mergePairs, recordPairs } from '../shared/sparse-hist.js';

interface WorkerHandle {
  /** The group's worker thread; absent for a group on this thread (mainThread). */
  worker?: Worker;
  exited: Promise<unknown>;
  done: boolean;
}

/** Distribute VUs round-robin over worker threads; VU k starts k·userDelay ms after the first. */
export function assignVus(vus: number, workers: number, userDelayMs: number): VuAssignment[][] {
  const out: VuAssignment[][] = Array.from({ length: workers }, () => []);
  for (let i = 0; i < vus; i++) out[i % workers]!.push({ index: i, position: i + 2, startDelayMs: i * userDelayMs });
  return out;
}

/** VUs whose thread was terminated, or that never started, end as finished (failed ones stay failed). */
export function settleVuStates(states: Int32Array, vus: number): void {
  for (let i = 0; i < vus; i++) {
    const st = Atomics.load(states, i);
    if (st !== VU_STATE.finished && st !== VU_STATE.failed) Atomics.store(states, i, VU_STATE.finished);
  }
}

/** Where the pool sends what its workers report. */
export interface VuPoolSink {
  output(lines: LogLine[]): void;
}

/**
 * The VU worker threads of one run: started together, released together
 * (CTRL_GO) once every one has loaded its driver, stopped through the
 * control word. Collects their interval latency, profiles and first failure.
 * With `mainThread` (DriverFeatures.mainThreadSessions: DuckDB) the groups
 * run on this thread instead, as async loops beside the server, reporting
 * the same messages without a thread between.
 */
export class VuPool implements VuHost {
  private readonly handles: WorkerHandle[] = [];
  private readonly control: Int32Array;
  private ready = 0;
  private resolveReady!: () => void;
  private resolveAllDone!: () => void;
  readonly allReady = new Promise<void>((r) => (this.resolveReady = r));
  /** Every worker ended (or was marked done after a crash or fatal error). */
  readonly allDone = new Promise<void>((r) => (this.resolveAllDone = r));
  readonly profiles: VuProfile[] = [];
  failure: ErrorInfo | null = null;
  /** Interval latency histograms by operation name, since the last sample. */
  readonly interval: Partial<Record<string, RecordableHistogram>> = {};
  /** exact: the workers record SparseHists (a replica's VUs): interval latency gathers here instead, and profiles hold SparseHists. */
  readonly exactInterval: Partial<Record<string, SparseHist>> = {};

  constructor(
    control: SharedArrayBuffer,
    private readonly states: Int32Array,
    private readonly sink: VuPoolSink,
    private readonly exact = false,
    private readonly mainThread = false,
  ) {
    this.control = new Int32Array(control);
  }

  /** Tell the VUs which phase the run is in (rampup, measuring, done): they profile the measured window only. */
  setPhase(p: number): void {
    Atomics.store(this.control, CTRL_PHASE, p);
  }

  setRun(v: number): void {
    Atomics.store(this.control, CTRL_RUN, v);
    Atomics.notify(this.control, CTRL_RUN);
  }

  private markDone(h: WorkerHandle): void {
    if (h.done) return;
    h.done = true;
    if (this.handles.every((x) => x.done)) this.resolveAllDone();
  }

  private fail(h: WorkerHandle, e: ErrorInfo): void {
    this.failure ??= e;
    this.setRun(RUN_ABORT);
    this.markDone(h);
  }

  private onMessage(h: WorkerHandle, groups: number, m: FromVuWorker): void {
    switch (m.t) {
      case 'ready':
        if (++this.ready === groups) this.resolveReady();
        break;
      case 'log':
        this.sink.output(m.lines);
        break;
      case 'latency':
        for (const [op, pairs] of Object.entries(m.pairs)) {
          if (!pairs) continue;
          if (this.exact) mergePairs((this.exactInterval[op] ??= new SparseHist()), pairs);
          else recordPairs((this.interval[op] ??= createHistogram()), pairs);
        }
        break;
      case 'profile':
        this.profiles.push(...m.vus);
        break;
      case 'done':
        this.markDone(h);
        break;
      case 'fatal':
        this.fail(h, m.error);
        break;
    }
  }

  /** Start one worker per data (each hosting its `vus`), or with `mainThread` one group per data on this thread. */
  start(datas: VuWorkerData[]): void {
    for (const data of datas) {
      const handle = { done: false } as WorkerHandle;
      if (this.mainThread) {
        // The group's first await (loading the driver) comes before any message: every handle is in the list by then.
        handle.exited = runVuGroup(data, (m) => this.onMessage(handle, datas.length, m));
        void handle.exited.then(() => this.markDone(handle));
        this.handles.push(handle);
        continue;
      }
      const { worker, exited } = startWorker<VuWorkerData, FromVuWorker>(VU_WORKER, data, (m) => this.onMessage(handle, datas.length, m));
      Object.assign(handle, { worker, exited });
      worker.on('error', (e) => this.fail(handle, { code: 'SLEDGE_E_INTERNAL', message: `a VU worker crashed: ${e.message}` }));
      void exited.then(() => this.markDone(handle));
      this.handles.push(handle);
    }
  }

  /** Release the VUs: their start delays count from now. */
  go(): void {
    Atomics.store(this.control, CTRL_GO, 1);
    Atomics.notify(this.control, CTRL_GO);
  }

  /** End a group still running: terminate its thread; a group on this thread is told to abort (RUN_ABORT) and left to end after its current operation. */
  private async end(h: WorkerHandle): Promise<void> {
    if (h.done) return;
    if (h.worker) {
      await h.worker.terminate();
      return;
    }
    this.setRun(RUN_ABORT);
    this.markDone(h);
  }

  /** Wait for every worker to end; after graceMs, terminate the ones still running. */
  async waitWorkers(graceMs: number): Promise<void> {
    const t = setTimeout(() => {
      for (const h of this.handles) void this.end(h);
    }, graceMs);
    await this.allDone;
    clearTimeout(t);
  }

  /** Ask the VUs to stop after their current operation and wait for them (bounded by graceMs). */
  async stop(graceMs: number): Promise<void> {
    this.setRun(RUN_STOP);
    await this.waitWorkers(graceMs);
  }

  /** VUs whose thread was terminated, or that never started, end as finished. */
  settleStates(vus: number): void {
    settleVuStates(this.states, vus);
  }

  /** Abort every VU and terminate the threads still running. */
  async abort(): Promise<void> {
    this.setRun(RUN_ABORT);
    await Promise.all(this.handles.map((h) => this.end(h)));
  }
}
