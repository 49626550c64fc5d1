import type { RunMonitor } from '@sledge/core';
import { FAULT_METRICS, type ClientSample, type EngineSample, type ErrorsSample } from '@sledge/protocol';
import type { JobContext } from '../engine/job-context.js';
import type { CounterReader, Totals } from './counters.js';
import { DisruptionTimeline, type FaultReader } from './faults.js';
import { latencySample } from './timings.js';
import type { VuHost } from './vu-host.js';

const rate = (d: number, dt: number) => Math.round((d / dt) * 10) / 10;

/**
 * The live samplers of a run: every second the client rates per operation,
 * the interval latency and the VU grid; every `intervalSec` the monitor's
 * live reading (the engine chart). Timers stop with stop(); a monitor
 * reading still under way then is dropped when it ends, and its error (the
 * stop closes the monitor, which cuts the reading) is not shown.
 */
export class RunSamplers {
  phase: ClientSample['phase'];
  private prev: Totals;
  private prevTs = Date.now();
  private readonly timers: NodeJS.Timeout[] = [];
  private counterErrorShown = false;
  private monitorBusy = false;
  private stopped = false;
  /** Sessions lost and back, for the result and the charts' marks. */
  readonly disruptions = new DisruptionTimeline();
  private lastFaults = '';
  /** The monitor's live samples taken while the measured window ran (a timed run's validity checks read them). */
  readonly measured: unknown[] = [];
  /** Called every second with the interval latency before it is reset (run shapes: steps.ts, arrival-meter.ts). */
  readonly onTick: ((interval: VuHost['interval']) => void)[] = [];

  constructor(
    private readonly ctx: JobContext,
    private readonly ops: readonly string[],
    private readonly counters: CounterReader,
    private readonly pool: VuHost,
    phase: ClientSample['phase'],
    private readonly faults?: FaultReader,
    private readonly mon?: (text: string) => void,
  ) {
    this.phase = phase;
    this.prev = counters.totals();
  }

  /** One client sample: rates since the last one, the interval latency, the VU grid. */
  clientTick(): void {
    const now = Date.now();
    const cur = this.counters.totals();
    const prev = this.prev;
    const dt = Math.max(0.001, (now - this.prevTs) / 1000);
    const rates = Object.fromEntries(this.ops.map((t, i) => [t, rate(cur.perOp[i]! - prev.perOp[i]!, dt)])) as ClientSample['rates'];
    const phase = this.phase;
    this.ctx.clientSample({
      ts: now,
      rates,
      commits: rate(cur.commits - prev.commits, dt),
      rollbacks: rate(cur.rollbacks - prev.rollbacks, dt),
      errors: rate(cur.errors - prev.errors, dt),
      ...(phase ? { phase } : {}),
    });
    this.prev = cur;
    this.prevTs = now;
    const lat = latencySample(now, this.pool.interval, this.ops);
    if (lat) this.ctx.latency(lat);
    for (const l of this.onTick) l(this.pool.interval);
    for (const t of this.ops) this.pool.interval[t]?.reset();
    this.ctx.vus(this.counters.perVu());
    this.faultTick(now);
  }

  /** Errors and retries by class (a sample when they changed) and the disruptions of the last second. */
  private faultTick(now: number): void {
    if (!this.faults) return;
    const f = this.faults.totals();
    for (const d of this.disruptions.tick(f, now)) {
      this.ctx.metric(FAULT_METRICS.disruption, [{ ts: d.at, data: d }]);
      this.mon?.(d.kind === 'drop' ? `${d.sessions} session(s) lost their connection` : `${d.sessions} session(s) reconnected`);
    }
    const data: ErrorsSample = { errors: f.errors.byClass, retries: f.retries.byClass, byOp: f.errors.byOp, drops: f.drops, backs: f.backs };
    const key = JSON.stringify(data);
    if (key === this.lastFaults) return;
    this.lastFaults = key;
    this.ctx.metric(FAULT_METRICS.errors, [{ ts: now, data }]);
  }

  private async monitorTick(monitor: RunMonitor, intervalSec: number, mon: (text: string) => void): Promise<void> {
    if (this.monitorBusy) return;
    this.monitorBusy = true;
    try {
      const reading = await monitor.read();
      if (this.stopped) return;
      const phase = this.phase;
      const sample = monitor.live(reading, Date.now(), this.counters.totals().ops, intervalSec);
      if (phase === 'measuring' && this.phase === 'measuring') this.measured.push(sample);
      // A workload without an engine transaction counter (the script workload: its rates are the client's samples) has no tpm/nopm to store.
      if (Number.isFinite(sample.tpm) && Number.isFinite(sample.nopm)) this.ctx.engineSample(sample as unknown as EngineSample);
    } catch (e) {
      if (this.stopped) return;
      if (!this.counterErrorShown) mon(`Transaction counter error: ${e instanceof Error ? e.message : String(e)}`);
      this.counterErrorShown = true;
    } finally {
      this.monitorBusy = false;
    }
  }

  start(monitor: RunMonitor, intervalSec: number, mon: (text: string) => void): void {
    this.timers.push(setInterval(() => this.clientTick(), 1000));
    void this.monitorTick(monitor, intervalSec, mon);
    this.timers.push(setInterval(() => void this.monitorTick(monitor, intervalSec, mon), intervalSec * 1000));
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.splice(0)) clearInterval(t);
  }
}
