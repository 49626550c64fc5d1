import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { CapacitySearch, type CapacityPhase, type RunMonitor } from '@sledge/core';
import { METRIC_KINDS, parseSlo, type CapacityOptions, type CapacityProbe, type CapacityResult, type ParsedThreshold, type TimingRow, type WorkloadDef } from '@sledge/protocol';
import type { JobContext } from '../engine/job-context.js';
import type { StopToken } from '../engine/stop.js';
import { evaluateThreshold, type JudgedData } from '../engine/thresholds.js';
import type { ArrivalMeter } from './arrival-meter.js';
import type { CounterReader } from './counters.js';
import type { FaultReader } from './faults.js';
import { windowRows } from './timings.js';
import type { VuHost } from './vu-host.js';

/** Seconds at the start of each probe that settle after the rate changed and are not judged: 20% of the probe, at most this. */
export const SETTLE_MAX_SEC = 5;

/** What a capacity search reads: the workload, the arrival meter it steers, the monitor (result-field conditions), the counters. */
export interface CapacitySources {
  def: WorkloadDef;
  ops: readonly string[];
  labels: readonly string[];
  meter: ArrivalMeter;
  monitor: RunMonitor;
  counters: CounterReader;
  faults: FaultReader;
  vus: number;
  ctx: JobContext;
  stop: StopToken;
  mon: (text: string) => void;
  /** Seconds since the VUs were released. */
  sinceRelease: () => number;
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Per-operation p50/p95/p99 (ms) and calls from time-profile summary rows. */
export function latencyOf(rows: readonly TimingRow[], ops: readonly string[], labels: readonly string[]): CapacityResult['latency'] {
  const out: CapacityResult['latency'] = {};
  ops.forEach((op, i) => {
    const row = rows.find((r) => r.vu === 0 && r.proc === labels[i]);
    if (row && row.calls > 0) out[op] = { p50: r3(row.p50Ms), p95: r3(row.p95Ms), p99: r3(row.p99Ms), calls: row.calls };
  });
  return out;
}

/**
 * A probe's verdict: every SLO condition on its figures, and the rate
 * sustained (no more than `maxDropped` of its arrivals dropped).
 */
export function judgeProbe(conds: readonly ParsedThreshold[], data: JudgedData, arrivals: { scheduled: number; dropped: number }, maxDropped: number): { passed: boolean; checks: CapacityProbe['checks'] } {
  const checks: CapacityProbe['checks'] = conds.map((t) => {
    const r = evaluateThreshold(t, data);
    return { expr: t.condition, actual: r.actual, ok: r.ok, message: r.message };
  });
  const share = arrivals.scheduled > 0 ? arrivals.dropped / arrivals.scheduled : 0;
  const sustained = share <= maxDropped;
  checks.push({
    expr: `dropped<=${r1(maxDropped * 100)}%`,
    actual: r3(share * 100),
    ok: sustained,
    message: `${arrivals.dropped} of ${arrivals.scheduled} arrivals dropped (${r1(share * 100)}%)${sustained ? '' : ' is over maxDropped: every session was busy, the rate was not sustained'}`,
  });
  return { passed: checks.every((c) => c.ok), checks };
}

/** One probe's window as it runs: interval latency gathered, the start readings. */
class ProbeWindow {
  readonly hists: Record<string, RecordableHistogram> = {};
  readonly t0 = performance.now();
  constructor(
    readonly startSec: number,
    readonly mark: ReturnType<ArrivalMeter['mark']>,
    readonly reading: unknown,
    readonly clientOps: number,
    readonly errors: number,
  ) {}
}

/**
 * The capacity search of an arrival-rate run (tprocc.capacity): probes one
 * rate after another on the running sessions (the arrival meter steers the
 * schedule), judges each with the SLO, and leaves the found rate running for
 * the hold, which the runner measures as its window.
 */
export class CapacityRun {
  private readonly conds: ParsedThreshold[];
  private readonly search: CapacitySearch;
  private readonly needsResult: boolean;
  private window: ProbeWindow | null = null;
  readonly probes: CapacityProbe[] = [];

  constructor(
    private readonly opts: CapacityOptions,
    startRate: number,
    private readonly src: CapacitySources,
    field: string,
  ) {
    this.conds = parseSlo(opts.slo, src.def, field);
    this.needsResult = this.conds.some((t) => t.kind !== 'latency');
    this.search = new CapacitySearch({ startRate, ...(opts.maxRate !== undefined ? { maxRate: opts.maxRate } : {}), tolerance: opts.tolerance });
  }

  /** Every second's interval latency (RunSamplers.onTick), gathered into the probe that runs. */
  readonly onTick = (interval: VuHost['interval']): void => {
    const w = this.window;
    if (!w) return;
    for (const op of this.src.ops) {
      const h = interval[op];
      if (h && h.count > 0) (w.hists[op] ??= createHistogram()).add(h);
    }
  };

  /**
   * Probe rates until the search holds one: returns the rate to hold (already
   * running), or null when no rate met the SLO or the run was stopped.
   */
  async searchRate(): Promise<{ rate: number } | { rate: null; reason: string } | 'stopped'> {
    const { mon, meter, stop } = this.src;
    mon(`Capacity search: SLO ${this.opts.slo}; probes of ${this.opts.stepSeconds} s from ${this.search.next().kind === 'probe' ? (this.search.next() as { rate: number }).rate : '?'}/s${this.opts.maxRate !== undefined ? ` up to ${this.opts.maxRate}/s` : ''}, tolerance ${r1(this.opts.tolerance * 100)}%, hold ${this.opts.holdSeconds} s`);
    for (;;) {
      const step = this.search.next();
      if (step.kind === 'done') {
        mon(`Capacity search: no rate met the SLO: ${step.reason}`);
        return { rate: null, reason: step.reason };
      }
      meter.setRate(step.rate);
      // After a rate change the sessions and the database settle before anything is judged (the hold too).
      const settle = Math.min(SETTLE_MAX_SEC, this.opts.stepSeconds * 0.2);
      if (await stop.sleep(settle * 1000)) return 'stopped';
      if (step.phase === 'hold') return { rate: step.rate };
      await this.begin();
      if (await stop.sleep((this.opts.stepSeconds - settle) * 1000)) return 'stopped';
      const probe = await this.end(step.phase, step.rate);
      this.search.record(probe.passed);
    }
  }

  /** A probe's (or the hold's) window starts now. */
  async begin(): Promise<void> {
    const { meter, monitor, counters, faults, sinceRelease } = this.src;
    const reading = this.needsResult ? await monitor.read() : undefined;
    this.window = new ProbeWindow(sinceRelease(), meter.mark(), reading, counters.totals().ops, faults.totals().errors.total);
  }

  /** The window ends: its figures, the verdict, a line and a live sample. */
  async end(phase: CapacityPhase, rate: number): Promise<CapacityProbe> {
    const { def, ops, labels, meter, monitor, counters, faults, vus, ctx, mon } = this.src;
    const w = this.window!;
    const sec = (performance.now() - w.t0) / 1000;
    const arrival = meter.figures(w.mark);
    this.window = null;
    const timings = windowRows(w.hists, ops, labels, sec * 1000);
    let data: JudgedData = { def, timings };
    if (this.needsResult) {
      const endReading = await monitor.read();
      const { result } = monitor.result({ start: w.reading, end: endReading, seconds: sec, clientOps: counters.totals().ops - w.clientOps, vus });
      // Errors of this probe's window only (the run's fault counters are cumulative).
      data = { ...data, result: { ...(result as Record<string, unknown>), errors: faults.totals().errors.total - w.errors } };
    }
    const verdict = judgeProbe(this.conds, data, arrival, this.opts.maxDropped);
    const probe: CapacityProbe = {
      index: this.probes.length + 1,
      phase,
      rate,
      startSec: r1(w.startSec),
      seconds: r1(sec),
      achievedRate: arrival.achievedRate,
      scheduled: arrival.scheduled,
      dropped: arrival.dropped,
      passed: verdict.passed,
      checks: verdict.checks,
      latency: latencyOf(timings, ops, labels),
    };
    this.probes.push(probe);
    mon(`Capacity probe ${probe.index} (${phase}) at ${rate}/s: achieved ${probe.achievedRate}/s; ${verdict.checks.map((c) => c.message).join('; ')}: ${verdict.passed ? 'PASS' : 'FAIL'}`);
    ctx.metric(METRIC_KINDS.shape, [{ ts: Date.now(), data: { kind: 'capacity', ...probe } }]);
    return probe;
  }

  /** The hold's verdict: the search ends; the result for the job. */
  finish(hold: CapacityProbe): CapacityResult {
    const done = this.search.record(hold.passed);
    const reason = done.kind === 'done' ? done.reason : '';
    this.src.mon(`Capacity at SLO ${this.opts.slo}: ${hold.rate}/s, ${hold.passed ? 'held' : 'NOT held'} for ${hold.seconds} s (${reason})`);
    return { slo: this.opts.slo, rate: hold.rate, held: hold.passed, probes: this.probes, latency: hold.latency, reason };
  }
}
