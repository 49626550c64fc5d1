import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { RunMonitor } from '@sledge/core';
import { SledgeError, parseThreshold, type ParsedThreshold, type ThresholdResult, type WorkloadConfig, type WorkloadDef } from '@sledge/protocol';
import { evaluateThreshold, type JudgedData } from '../engine/thresholds.js';
import type { CounterReader, Totals } from './counters.js';
import { windowRows } from './timings.js';
import type { VuHost } from './vu-host.js';

/** Seconds between two judgements of the `:abort` thresholds during the measured window. */
export const ABORT_EVAL_SEC = 5;

/** mm:ss of seconds into the window (00:42). */
export function clockText(sec: number): string {
  const s = Math.max(0, Math.floor(sec));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The first of the `:abort` conditions due that reads a value and fails it,
 * if any. A metric with nothing to read yet (an operation without calls so
 * far, no result field) does not stop a run.
 */
export function abortingThreshold(due: readonly ParsedThreshold[], data: JudgedData): ParsedThreshold | undefined {
  return due.find((t) => {
    const r = evaluateThreshold(t, data);
    return !r.ok && r.actual !== null;
  });
}

/** Why a run stopped early: the condition that failed, when, and every threshold judged on the window so far. */
export interface AbortVerdict {
  condition: string;
  atSec: number;
  /** The failed condition's message ("p95(neworder) 63.2 ms is not < 50 ms: fail"). */
  message: string;
  /** Every threshold of the job judged on the window up to the abort; the aborting one carries abortedAt. */
  results: ThresholdResult[];
}

/** What the watch reads: the workload, the monitor (field thresholds) and the run's counters. */
export interface AbortWatchSources {
  def: WorkloadDef;
  ops: readonly string[];
  labels: readonly string[];
  monitor: RunMonitor;
  counters: CounterReader;
  vus: number;
  /** Fields a run's result carries beside the monitor's (errors, retries by class ...), read now. */
  extra: () => Record<string, unknown>;
  mon: (text: string) => void;
}

/**
 * The thresholds marked `:abort` (k6's abortOnFail) judged during the
 * measured window: latency from the interval histograms gathered since the
 * window began, result fields from the monitor's reading now against the
 * window's start (the same arithmetic as the end of the run). Every
 * ABORT_EVAL_SEC seconds, once a condition's delay has passed, it is
 * judged; the first that reads a value and fails stops the run (`onFail`).
 * A metric with nothing to read yet (no calls so far) is not a failure here.
 */
export class AbortWatch {
  private readonly window: Record<string, RecordableHistogram> = {};
  private measuring = false;
  private t0 = 0;
  private start: unknown;
  private startClient: Totals | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  /** Set when a condition failed during the window. */
  verdict: AbortVerdict | null = null;

  private constructor(
    private readonly all: ParsedThreshold[],
    private readonly src: AbortWatchSources,
  ) {}

  /** A watch for the run's `:abort` thresholds, or null when it has none. */
  static of(cfg: WorkloadConfig, src: AbortWatchSources): AbortWatch | null {
    const all = (cfg.thresholds ?? []).map((e, i) => parseThreshold(e, src.def, `thresholds[${i}]`));
    return all.some((t) => t.abort) ? new AbortWatch(all, src) : null;
  }

  /** Every second's interval latency (RunSamplers.onTick): gathered while the window runs. */
  readonly onTick = (interval: VuHost['interval']): void => {
    if (!this.measuring) return;
    for (const op of this.src.ops) {
      const h = interval[op];
      if (h && h.count > 0) (this.window[op] ??= createHistogram()).add(h);
    }
  };

  /** The measured window began: its start reading and client totals; judging starts. */
  begin(start: unknown, startClient: Totals, onFail: () => void): void {
    this.start = start;
    this.startClient = startClient;
    this.t0 = performance.now();
    this.measuring = true;
    this.timer = setInterval(() => void this.check(onFail), ABORT_EVAL_SEC * 1000);
  }

  /** The window ended (or the run): no more judging; a check under way is discarded. */
  end(): void {
    this.measuring = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async check(onFail: () => void): Promise<void> {
    if (this.busy || !this.measuring || this.verdict) return;
    this.busy = true;
    try {
      const sec = (performance.now() - this.t0) / 1000;
      const due = this.all.filter((t) => t.abort && t.abort.delaySec <= sec);
      if (!due.length) return;
      const data = await this.figures(sec);
      if (!this.measuring) return;
      const failed = abortingThreshold(due, data);
      if (!failed) return;
      const results = this.all.map((t) => evaluateThreshold(t, data));
      const i = this.all.indexOf(failed);
      results[i] = { ...results[i]!, abortedAt: Math.round(sec * 10) / 10 };
      this.verdict = { condition: failed.condition, atSec: sec, message: results[i]!.message, results };
      this.src.mon(`Threshold ${failed.condition} failed at ${clockText(sec)} of the measured window (${results[i]!.message}): stopping the run`);
      this.end();
      onFail();
    } catch (e) {
      // A reading that fails (the monitor's connection) skips this judgement; the run's own error handling reports the cause.
      this.src.mon(`Abort thresholds not judged at this point: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.busy = false;
    }
  }

  /** The window so far as thresholds read it: the monitor's result now (when a field is judged) and the latency rows. */
  private async figures(sec: number): Promise<JudgedData> {
    const { def, ops, labels, monitor, counters, vus, extra } = this.src;
    const timings = windowRows(this.window, ops, labels, sec * 1000);
    const needsResult = this.all.some((t) => t.kind !== 'latency');
    if (!needsResult) return { def, timings };
    const end = await monitor.read();
    const clientOps = counters.totals().ops - (this.startClient?.ops ?? 0);
    const { result } = monitor.result({ start: this.start, end, seconds: sec, clientOps, vus });
    return { def, timings, result: { ...(result as Record<string, unknown>), ...extra() } };
  }

  /** The run's error once it stopped on a failed `:abort` condition. */
  error(): SledgeError {
    const v = this.verdict!;
    return new SledgeError('SLEDGE_E_THRESHOLD_ABORT', `aborted: threshold ${v.condition} failed at ${clockText(v.atSec)} of the measured window (${v.message.replace(/: fail$/, '')})`);
  }
}
