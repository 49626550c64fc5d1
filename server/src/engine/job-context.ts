import type { JobStore } from '@sledge/jobstore';
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
  type TproccResult,
  type VuStatus,
} from '@sledge/protocol';
import type { JobStream } from './stream.js';

/**
 * Everything a running job produces goes through here: one call writes the
 * job store and emits the matching frame, in the same synchronous step, so
 * a snapshot taken at seq N holds exactly the frames up to N.
 */
export class JobContext {
  private job: Job;
  /** The latest live values, for the Prometheus endpoint. */
  readonly latest: { engine?: EngineSample; client?: ClientSample; latency?: LatencySample; vus?: VuStatus[] } = {};

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

  update(patch: Partial<Pick<Job, 'startedAt' | 'endedAt' | 'engineVersion' | 'summary' | 'result' | 'error'>>): void {
    this.job = this.store.updateJob(this.job.id, patch);
    this.onJobChange(this.job);
  }

  status(status: JobStatus, error?: ErrorInfo): void {
    const patch: Parameters<JobStore['updateJob']>[1] = { status };
    if (error) patch.error = { ...error, message: scrub(error.message, this.secrets) };
    this.job = this.store.updateJob(this.job.id, patch);
    const frame = { t: 'status' as const, jobId: this.job.id, status, ts: Date.now(), ...(patch.error ? { error: patch.error } : {}) };
    this.stream.emit(frame, true);
    if (status === 'running' || status === 'rampup' || status === 'measuring' || status === 'stopping') this.phase(status);
    this.onJobChange(this.job);
  }

  /** A phase marker on the job's time axis (rampup, measuring, build phases...). */
  phase(label: string): void {
    const ts = Date.now();
    this.metric('phase', [{ ts, data: { ts, label } }]);
  }

  engineSample(s: EngineSample): void {
    this.latest.engine = s;
    this.store.appendEngineSamples(this.job.id, [s]);
    this.stream.emit({ t: 'tcount', jobId: this.job.id, engine: [s], client: [] });
  }

  clientSample(s: ClientSample): void {
    this.latest.client = s;
    this.store.appendClientSamples(this.job.id, [s]);
    this.stream.emit({ t: 'tcount', jobId: this.job.id, engine: [], client: [s] });
  }

  latency(s: LatencySample): void {
    this.latest.latency = s;
    this.store.appendLatency(this.job.id, [s]);
    this.stream.emit({ t: 'latency', jobId: this.job.id, samples: [s] });
  }

  vus(list: VuStatus[]): void {
    this.latest.vus = list;
    this.store.setVus(this.job.id, list);
    this.stream.emit({ t: 'vus', jobId: this.job.id, vus: list });
  }

  private lastBuildPhase = '';

  progress(p: BuildProgress): void {
    if (p.phase !== this.lastBuildPhase) {
      this.lastBuildPhase = p.phase;
      this.phase(`build: ${p.phase}`);
    }
    this.store.setProgress(this.job.id, p);
    this.stream.emit({ t: 'progress', jobId: this.job.id, progress: p });
  }

  check(items: CheckItem[]): void {
    this.store.setCheck(this.job.id, items);
  }

  result(result: TproccResult, timings: TimingRow[]): void {
    this.store.setTimings(this.job.id, timings);
    this.job = this.store.updateJob(this.job.id, { result, summary: `${result.nopm} NOPM, ${result.tpm} TPM, ${result.activeVus} VU` });
    this.stream.emit({ t: 'result', jobId: this.job.id, result, timings }, true);
    this.onJobChange(this.job);
  }

  timings(rows: TimingRow[]): void {
    this.store.setTimings(this.job.id, rows);
  }

  metric(kind: string, samples: { ts: number; source?: string; data: unknown }[]): void {
    if (!samples.length) return;
    this.store.appendMetrics(this.job.id, kind, samples);
    this.stream.emit({ t: 'metric', jobId: this.job.id, kind, samples });
  }

  system(source: string, info: Record<string, unknown>): void {
    this.store.setSystem(this.job.id, source, info);
  }
}
