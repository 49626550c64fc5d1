import { isStorageError, type JobStore } from '@sledge/jobstore';
import {
  scrub,
  type BuildProgress,
  type CheckItem,
  type ClientSample,
  type EngineSample,
  type ErrorInfo,
  type Job,
  type JobStatus,
  type LatencySample,
  type TimingRow,
  type ThresholdEvaluation,
  type ThresholdResult,
  type JobResult,
  type VuStatus,
  workloadDef,
} from '@sledge/protocol';
import type { JobStream } from './stream.js';

type JobUpdate = Parameters<JobStore['updateJob']>[1];

/**
 * Everything a running job produces goes through here: one call writes the
 * job store and emits the matching frame, in the same synchronous step, so
 * a snapshot taken at seq N holds exactly the frames up to N.
 *
 * A write the disk refuses (SLEDGE_E_STORAGE_FULL / _IO) never throws out of
 * here: the job store has told the engine, which stops the job and fails it
 * with that reason. The frame is still emitted; a refused change of the job
 * row is kept in memory (`current`) and written by persistPending() when
 * there is room again.
 */
export class JobContext<R extends JobResult = JobResult> {
  private job: Job;
  private pending: JobUpdate | null = null;
  /**
   * Thresholds judged while the run ran (a `:abort` condition failed and
   * stopped it): the engine stores these as the job's verdict instead of
   * judging the stored job, which has no result.
   */
  runningVerdict: ThresholdResult[] | null = null;
  /** The latest live values, for the Prometheus endpoint. */
  readonly latest: { engine?: EngineSample; client?: ClientSample; latency?: LatencySample; vus?: VuStatus[] } = {};
  /** Called after each status change (the statement-statistics window starts at 'measuring'). A listener must not throw. */
  readonly statusListeners: ((status: JobStatus) => void)[] = [];

  constructor(
    job: Job,
    private readonly store: JobStore,
    readonly stream: JobStream,
    private readonly onJobChange: (job: Job) => void,
    /** Secret values (passwords) scrubbed from every output line. */
    private readonly secrets: readonly string[],
  ) {
    this.job = job;
  }

  get id(): string {
    return this.job.id;
  }

  get current(): Job {
    return this.job;
  }

  /** A change of the job row the disk refused, waiting for persistPending(). */
  get hasPending(): boolean {
    return this.pending !== null;
  }

  /** Write the job-row changes the disk refused earlier. True when nothing is left pending. */
  persistPending(): boolean {
    if (!this.pending) return true;
    try {
      this.job = this.store.updateJob(this.job.id, this.pending);
      this.pending = null;
      return true;
    } catch (e) {
      if (isStorageError(e)) return false;
      throw e;
    }
  }

  /** Run a store write; a storage fault is swallowed (the engine was told by the store). */
  private write(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      if (!isStorageError(e)) throw e;
    }
  }

  private updateRow(patch: JobUpdate): void {
    const merged = { ...(this.pending ?? {}), ...patch };
    try {
      this.job = this.store.updateJob(this.job.id, merged);
      this.pending = null;
    } catch (e) {
      if (!isStorageError(e)) throw e;
      this.pending = merged;
      this.job = { ...this.job, ...patch } as Job;
    }
  }

  output(vu: number, text: string): void {
    this.outputMany([{ vu, text }]);
  }

  outputMany(lines: readonly { vu: number; text: string }[]): void {
    if (!lines.length) return;
    const ts = Date.now();
    const rows = lines.map((l) => ({ vu: l.vu, ts, text: scrub(l.text, this.secrets) }));
    const { firstSeq: first } = this.store.appendOutput(this.job.id, rows);
    this.stream.emit({
      t: 'output',
      jobId: this.job.id,
      lines: rows.map((r, i) => ({ seq: first + i, vu: r.vu, ts: r.ts, text: r.text })),
    });
  }

  update(patch: Partial<Pick<Job, 'startedAt' | 'endedAt' | 'engineVersion' | 'summary' | 'result' | 'error' | 'passed' | 'thresholdResults'>>): void {
    this.updateRow(patch);
    this.onJobChange(this.job);
  }

  status(status: JobStatus, error?: ErrorInfo): void {
    const patch: JobUpdate = { status };
    if (error) patch.error = { ...error, message: scrub(error.message, this.secrets) };
    this.updateRow(patch);
    const frame = { t: 'status' as const, jobId: this.job.id, status, ts: Date.now(), ...(patch.error ? { error: patch.error } : {}) };
    this.stream.emit(frame, true);
    if (status === 'running' || status === 'rampup' || status === 'measuring' || status === 'stopping') this.phase(status);
    this.onJobChange(this.job);
    for (const l of this.statusListeners) l(status);
  }

  /** A phase marker on the job's time axis (rampup, measuring, build phases...). */
  phase(label: string): void {
    const ts = Date.now();
    this.metric('phase', [{ ts, data: { ts, label } }]);
  }

  engineSample(s: EngineSample): void {
    this.latest.engine = s;
    this.write(() => this.store.appendEngineSamples(this.job.id, [s]));
    this.stream.emit({ t: 'tcount', jobId: this.job.id, engine: [s], client: [] });
  }

  clientSample(s: ClientSample): void {
    this.latest.client = s;
    this.write(() => this.store.appendClientSamples(this.job.id, [s]));
    this.stream.emit({ t: 'tcount', jobId: this.job.id, engine: [], client: [s] });
  }

  latency(s: LatencySample): void {
    this.latest.latency = s;
    this.write(() => this.store.appendLatency(this.job.id, [s]));
    this.stream.emit({ t: 'latency', jobId: this.job.id, samples: [s] });
  }

  vus(list: VuStatus[]): void {
    this.latest.vus = list;
    this.write(() => this.store.setVus(this.job.id, list));
    this.stream.emit({ t: 'vus', jobId: this.job.id, vus: list });
  }

  private lastBuildPhase = '';

  progress(p: BuildProgress): void {
    if (p.phase !== this.lastBuildPhase) {
      this.lastBuildPhase = p.phase;
      this.phase(`build: ${p.phase}`);
    }
    this.write(() => this.store.setProgress(this.job.id, p));
    this.stream.emit({ t: 'progress', jobId: this.job.id, progress: p });
  }

  check(items: CheckItem[]): void {
    this.write(() => this.store.setCheck(this.job.id, items));
  }

  /** The job's result: its workload's document (R), and the time profile rows when the workload keeps them. */
  result(result: R, timings: TimingRow[]): void {
    this.write(() => this.store.setTimings(this.job.id, timings));
    this.updateRow({ result, summary: resultSummary(this.job.workload, result) });
    this.stream.emit({ t: 'result', jobId: this.job.id, result, timings }, true);
    this.onJobChange(this.job);
  }

  /** The job's threshold evaluation: stored with the job and written to its log, one line per condition. */
  judged(ev: ThresholdEvaluation): void {
    this.outputMany([
      ...ev.thresholdResults.map((r) => ({ vu: 0, text: `Threshold ${r.ok ? 'PASSED' : 'FAILED'}: ${r.expr}: ${r.message}` })),
      { vu: 0, text: `Thresholds ${ev.passed ? 'PASSED' : 'FAILED'} (${ev.thresholdResults.filter((r) => r.ok).length} of ${ev.thresholdResults.length} held)` },
    ]);
    this.update({ passed: ev.passed, thresholdResults: ev.thresholdResults });
  }

  timings(rows: TimingRow[]): void {
    this.write(() => this.store.setTimings(this.job.id, rows));
  }

  metric(kind: string, samples: { ts: number; source?: string; data: unknown }[]): void {
    if (!samples.length) return;
    this.write(() => this.store.appendMetrics(this.job.id, kind, samples));
    this.stream.emit({ t: 'metric', jobId: this.job.id, kind, samples });
  }

  system(source: string, info: Record<string, unknown>): void {
    this.write(() => this.store.setSystem(this.job.id, source, info));
  }
}

/** A result's one-line outcome, as its workload words it (default: the headline's value and unit). */
function resultSummary(workload: string, result: JobResult): string {
  const def = workloadDef(workload);
  if (!def) return '';
  const doc: Record<string, unknown> = result;
  return def.summary ? def.summary(doc) : `${String(doc[def.headline.field])} ${def.headline.unit}`;
}
