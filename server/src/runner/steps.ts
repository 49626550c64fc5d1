import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { RunMonitor, StepPlan } from '@sledge/core';
import { METRIC_KINDS, type StepResult } from '@sledge/protocol';
import type { JobContext } from '../engine/job-context.js';
import type { StopToken } from '../engine/stop.js';
import { SH_ACTIVE } from '../shared/shape-layout.js';
import type { CounterReader } from './counters.js';

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Step loads for any workload (HammerDB's steprun as one schedule): at each
 * step's start the runner sets the active VU slots (VUs beyond them idle,
 * worker/step-gate.ts) and reads the workload's monitor; at its end it reads
 * the monitor again and sets the slots to 0. Each step's figures come from
 * the monitor (windowFigures: NOPM/TPM for TPROC-C), its latency from the
 * VUs' interval histograms merged while the step ran.
 */
export class StepRunner {
  private readonly results: StepResult[] = [];
  private current: Partial<Record<string, RecordableHistogram>> | null = null;
  private done: Promise<void> = Promise.resolve();
  private t0 = 0;
  private ended = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly steps: readonly StepPlan[],
    private readonly shape: Int32Array,
    private readonly monitor: RunMonitor,
    private readonly counters: CounterReader,
    private readonly ops: readonly string[],
    private readonly ctx: JobContext,
    private readonly stop: StopToken,
    private readonly mon: (text: string) => void,
  ) {
    // No VU runs before the first step.
    this.setActive(0);
  }

  /** VUs placed elsewhere (replicas) hear of each step's VU count here: the run's VUs with index < n may run. */
  onActive: ((n: number) => void) | null = null;

  private setActive(n: number): void {
    Atomics.store(this.shape, SH_ACTIVE, n);
    Atomics.notify(this.shape, SH_ACTIVE);
    this.onActive?.(n);
  }

  /** The VUs' latency of the last second (RunSamplers), merged into the running step's. */
  addInterval(hists: Partial<Record<string, RecordableHistogram>>): void {
    if (!this.current) return;
    for (const [op, h] of Object.entries(hists)) if (h && h.count > 0) (this.current[op] ??= createHistogram()).add(h);
  }

  /** Start the schedule now (the VUs were just released). */
  start(): void {
    this.t0 = performance.now();
    this.mon(`Step load: ${this.steps.length} steps, ${this.steps.map((s) => `${s.vus} VU from ${s.startSec} s to ${s.endSec} s`).join(', ')}`);
    this.done = this.run().catch((e: unknown) => {
      this.mon(`Step load ended early: ${e instanceof Error ? e.message : String(e)}`);
      this.setActive(0);
    });
  }

  /** Sleep until `sec` after the start; false on a stop, or when the run ended another way (close). */
  private async until(sec: number): Promise<boolean> {
    if (this.ended) return false;
    const woken = new Promise<void>((r) => (this.wake = r));
    await Promise.race([this.stop.sleep(Math.max(0, this.t0 + sec * 1000 - performance.now())), woken]);
    this.wake = null;
    return !this.ended && !this.stop.requested;
  }

  /** The run ended (failed, or every VU ended): the schedule stops where it is, reading the monitor no more. */
  async close(): Promise<void> {
    this.ended = true;
    this.wake?.();
    this.setActive(0);
    await this.done;
  }

  private async run(): Promise<void> {
    for (const s of this.steps) {
      if (!(await this.until(s.startSec))) return;
      this.setActive(s.vus);
      const start = await this.monitor.read();
      const startOps = this.counters.totals().ops;
      const tStart = performance.now();
      this.current = {};
      this.mon(`Step ${s.index}: ${s.vus} Active Virtual Users for ${r3((s.endSec - s.startSec) / 60)} minutes`);
      this.ctx.metric(METRIC_KINDS.shape, [{ ts: Date.now(), data: { kind: 'step-start', index: s.index, vus: s.vus } }]);
      if (!(await this.until(s.endSec))) return;
      const end = await this.monitor.read();
      if (this.ended) return;
      const clientOps = this.counters.totals().ops - startOps;
      const seconds = (performance.now() - tStart) / 1000;
      this.setActive(0);
      const hists = this.current;
      this.current = null;
      const figures = this.monitor.windowFigures?.({ start, end, seconds, clientOps, vus: s.vus }) ?? {};
      const latency: StepResult['latency'] = {};
      for (const op of this.ops) {
        const h = hists[op];
        if (h && h.count > 0) latency[op] = { p50: r3(h.percentile(50) / 1000), p95: r3(h.percentile(95) / 1000), p99: r3(h.percentile(99) / 1000) };
      }
      const r: StepResult = {
        index: s.index,
        vus: s.vus,
        startSec: s.startSec,
        endSec: s.endSec,
        nopm: Math.round(figures['nopm'] ?? 0),
        tpm: Math.round(figures['tpm'] ?? 0),
        transactions: clientOps,
        tps: Math.round((clientOps / Math.max(seconds, 1e-3)) * 100) / 100,
        latency,
      };
      this.results.push(r);
      // A workload without engine counters (the script workload) has its client-side TPS as the step's figure.
      const figure = this.monitor.windowFigures ? `${r.nopm} NOPM, ${r.tpm} TPM` : `${r.tps} TPS`;
      this.mon(`Step ${s.index} complete: ${s.vus} VU, ${figure} (${clientOps} transactions in ${seconds.toFixed(1)} s)`);
      this.ctx.metric(METRIC_KINDS.shape, [{ ts: Date.now(), data: { kind: 'step', ...r } }]);
    }
  }

  /** The steps that completed, once the schedule has ended (or the run stopped). */
  async finish(): Promise<StepResult[]> {
    await this.done;
    return this.results;
  }
}
