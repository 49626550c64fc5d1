import { arrivalRateAt, meanArrivalRate, arrivalsBy, type ArrivalPlan } from '@sledge/core';
import { METRIC_KINDS, type ArrivalResult } from '@sledge/protocol';
import type { JobContext } from '../engine/job-context.js';
import { SH_DROPPED, SH_EPOCH_F64, SH_IN_USE, SH_PEAK, SH_STARTED, SH_TICK_PEAK, readSegment, segmentArrivalsBy, sharedNow, writeSegment } from '../shared/shape-layout.js';
import type { CounterReader } from './counters.js';

const r1 = (x: number) => Math.round(x * 10) / 10;

export interface Mark {
  sec: number;
  ops: number;
  dropped: number;
}

/**
 * The main thread's side of arrival-rate mode (the sessions run in
 * worker/arrival-loop.ts): sets the schedule's epoch before the VUs are
 * released, samples target vs achieved rate, sessions in use and dropped
 * arrivals every second (metric kind `shape`), and gives the measured
 * window's figures.
 */
export class ArrivalMeter {
  private readonly f64: Float64Array;
  private last: Mark | null = null;
  private windowStart: Mark | null = null;

  constructor(
    private readonly plan: ArrivalPlan,
    private readonly shape: Int32Array,
    private readonly counters: CounterReader,
    private readonly ctx: JobContext,
    private readonly mon: (text: string) => void,
  ) {
    this.f64 = new Float64Array(shape.buffer);
  }

  /** The schedule starts now (call right before releasing the VUs). */
  start(): void {
    const p = this.plan;
    if (p.steered) writeSegment(this.shape, { startSec: 0, k0: 0, rate: p.rate });
    this.f64[SH_EPOCH_F64] = sharedNow();
    this.mon(
      `Arrival rate: ${p.rate} transactions/s${p.rampTo !== undefined ? ` ramping to ${p.rampTo}/s over ${r1(p.spanSec / 60)} minutes` : p.steered ? ' to start with (the capacity search changes it)' : ''} on at most ${p.maxSessions} sessions; latency measured from the intended start`,
    );
  }

  /** A steered schedule's rate from now on (a capacity search's next probe). */
  setRate(rate: number): void {
    const sec = this.sec();
    writeSegment(this.shape, { startSec: sec, k0: segmentArrivalsBy(readSegment(this.shape), sec), rate });
  }

  /** The target rate at `sec` (a steered schedule: its current rate). */
  private rateAt(sec: number): number {
    return this.plan.steered ? readSegment(this.shape).rate : arrivalRateAt(this.plan, sec);
  }

  /** Arrivals due by `sec` (a steered schedule: counted from its current segment, so only for windows inside it). */
  private countBy(sec: number): number {
    return this.plan.steered ? segmentArrivalsBy(readSegment(this.shape), sec) : arrivalsBy(this.plan, sec);
  }

  private sec(): number {
    return (sharedNow() - this.f64[SH_EPOCH_F64]!) / 1000;
  }

  /** One live sample (every second, from RunSamplers). */
  tick(): void {
    const m = this.mark();
    const prev = this.last;
    this.last = m;
    if (!prev || m.sec <= prev.sec) return;
    const dt = m.sec - prev.sec;
    this.ctx.metric(METRIC_KINDS.shape, [
      {
        ts: Date.now(),
        data: {
          kind: 'arrival',
          target: r1(this.rateAt(m.sec)),
          achieved: r1((m.ops - prev.ops) / dt),
          // The most sessions busy at once during the second (an instant's count is mostly 0 for fast transactions).
          inUse: Atomics.exchange(this.shape, SH_TICK_PEAK, Atomics.load(this.shape, SH_IN_USE)),
          dropped: m.dropped - prev.dropped,
          started: Atomics.load(this.shape, SH_STARTED),
        },
      },
    ]);
  }

  /** The measured window starts: peak sessions count from here. */
  beginWindow(): void {
    Atomics.store(this.shape, SH_PEAK, Atomics.load(this.shape, SH_IN_USE));
    this.windowStart = this.mark();
  }

  /** A window's start (a capacity probe's). */
  mark(): Mark {
    return { sec: this.sec(), ops: this.counters.totals().ops, dropped: Atomics.load(this.shape, SH_DROPPED) };
  }

  /** The figures of the window from `start` to now. */
  figures(start: Mark): ArrivalResult {
    const end = this.mark();
    const secs = Math.max(0.001, end.sec - start.sec);
    const scheduled = this.countBy(end.sec) - this.countBy(start.sec);
    return {
      targetRate: r1(this.plan.steered ? scheduled / secs : meanArrivalRate(this.plan, start.sec, end.sec)),
      achievedRate: r1((end.ops - start.ops) / secs),
      sessionsUsed: Atomics.load(this.shape, SH_PEAK),
      maxSessions: this.plan.maxSessions,
      dropped: end.dropped - start.dropped,
      scheduled: Math.round(scheduled),
      latencyFromIntended: true,
    };
  }

  /** The measured window's figures. */
  endWindow(): ArrivalResult {
    const r = this.figures(this.windowStart ?? { sec: 0, ops: 0, dropped: 0 });
    this.mon(
      `Arrival rate: target ${r.targetRate}/s, achieved ${r.achievedRate}/s, ${r.sessionsUsed} of ${r.maxSessions} sessions used at most, ${r.dropped} of ${r.scheduled} arrivals dropped (every session busy)`,
    );
    return r;
  }
}
