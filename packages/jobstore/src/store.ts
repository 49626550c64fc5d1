import type {
  BuildProgress,
  CheckItem,
  ClientSample,
  EngineSample,
  Job,
  JobListQuery,
  LatencySample,
  SavedConfig,
  SavedConfigInput,
  TimingRow,
  VuStatus,
} from '@sledge/protocol';
import { SledgeError } from '@sledge/protocol';
import { resolve } from 'node:path';
import { inTransaction, openDatabase, type Db } from './db.js';
import { migrate } from './migrate.js';
import { WriteBuffer } from './buffer.js';
import { JobsRepo, type CreateJobInput, type JobPatch } from './jobs.js';
import { ProfilesRepo, type ProfilePoint, type ProfileSummary } from './profiles.js';
import { OutputRepo, type OutputInput, type OutputPage, type OutputQuery, type SeqRange } from './output.js';
import { SeriesRepo } from './series.js';
import { TimingsRepo } from './timings.js';
import { StateRepo } from './state.js';
import { MetricsRepo, type MetricQuery, type MetricSample } from './metrics.js';
import { SystemRepo } from './system.js';
import { ConfigsRepo } from './configs.js';
import { SharesRepo } from './shares.js';

export interface JobStoreOptions {
  /** How often buffered appends are written, in ms (default 1000). A crash loses at most this much. */
  flushMs?: number;
  /** Called when a timed flush fails (rows stay buffered for the next try). Default: a process warning. */
  onFlushError?: (err: Error) => void;
}

export const DEFAULT_FLUSH_MS = 1000;

/** Every per-job table other than `job` itself; deleteJob empties them all. */
export const JOB_TABLES = [
  'job_result',
  'job_output',
  'job_tcount',
  'job_client_rate',
  'job_latency',
  'job_timing',
  'job_state',
  'job_metric',
  'job_system',
  'share_link',
] as const;

/**
 * Sledge's job store: one SQLite file (WAL) holding every job and everything
 * it produced. Job rows are written at once; appends (output, samples,
 * metrics) are buffered and written in one transaction every `flushMs`, on
 * flush() and on close(). Reads of appended data flush first.
 */
export class JobStore {
  /** Absolute path of the SQLite file. */
  readonly path: string;
  /** Jobs found in an active status at open (the previous server stopped under them), now `interrupted`. */
  readonly interruptedOnOpen: string[];

  private readonly db: Db;
  private readonly buffer: WriteBuffer;
  private readonly jobs: JobsRepo;
  private readonly profilesRepo: ProfilesRepo;
  private readonly output: OutputRepo;
  private readonly series: SeriesRepo;
  private readonly timings: TimingsRepo;
  private readonly state: StateRepo;
  private readonly metrics: MetricsRepo;
  private readonly system: SystemRepo;
  private readonly configs: ConfigsRepo;
  private readonly shares: SharesRepo;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  private constructor(path: string, db: Db, opts: JobStoreOptions) {
    this.path = path;
    this.db = db;
    this.buffer = new WriteBuffer(db);
    this.jobs = new JobsRepo(db);
    this.profilesRepo = new ProfilesRepo(db);
    this.output = new OutputRepo(db, this.jobs, this.buffer);
    this.series = new SeriesRepo(db, this.jobs, this.buffer);
    this.timings = new TimingsRepo(db, this.jobs);
    this.state = new StateRepo(db, this.jobs);
    this.metrics = new MetricsRepo(db, this.jobs, this.buffer);
    this.system = new SystemRepo(db, this.jobs);
    this.configs = new ConfigsRepo(db);
    this.shares = new SharesRepo(db, this.jobs);
    this.interruptedOnOpen = this.jobs.interruptActive();
    const onError = opts.onFlushError ?? ((e: Error) => process.emitWarning(`job store flush failed, will retry: ${e.message}`, 'SledgeJobStoreWarning'));
    this.timer = setInterval(() => {
      try {
        this.buffer.flush();
      } catch (e) {
        onError(e instanceof Error ? e : new Error(String(e)));
      }
    }, opts.flushMs ?? DEFAULT_FLUSH_MS);
    this.timer.unref();
  }

  /**
   * Open or create the store at `path` (parent directories are created), run
   * pending migrations and mark jobs left active by a previous process as
   * interrupted. Throws JobStoreOpenError naming the path and the reason.
   */
  static open(path: string, opts: JobStoreOptions = {}): JobStore {
    const flushMs = opts.flushMs ?? DEFAULT_FLUSH_MS;
    if (!Number.isFinite(flushMs) || flushMs < 1 || flushMs > 2 ** 31 - 1) {
      throw new SledgeError('SLEDGE_E_VALIDATION', 'flushMs must be a number of milliseconds >= 1', { field: 'flushMs' });
    }
    const file = resolve(path);
    const db = openDatabase(file);
    try {
      migrate(db);
      return new JobStore(file, db, { ...opts, flushMs });
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /** Write every buffered row now, in one transaction. Returns how many rows were written. */
  flush(): number {
    this.assertOpen();
    return this.buffer.flush();
  }

  /** Rows waiting in the write buffer. */
  get pendingRows(): number {
    return this.buffer.size;
  }

  /** Flush and close. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    clearInterval(this.timer);
    try {
      this.buffer.flush();
    } finally {
      this.closed = true;
      this.db.close();
    }
  }

  // Jobs

  createJob(input: CreateJobInput): Job {
    this.assertOpen();
    return this.jobs.create(input);
  }

  updateJob(id: string, patch: JobPatch): Job {
    this.assertOpen();
    return this.jobs.update(id, patch);
  }

  getJob(id: string): Job | undefined {
    this.assertOpen();
    return this.jobs.get(id);
  }

  listJobs(q: JobListQuery = {}): { jobs: Job[]; total: number } {
    this.assertOpen();
    return this.jobs.list(q);
  }

  /** Remove the job and every row it owns in all tables, buffered rows included, in one transaction. */
  deleteJob(id: string): boolean {
    this.assertOpen();
    const existed = inTransaction(this.db, () => {
      for (const t of JOB_TABLES) this.db.prepare(`DELETE FROM ${t} WHERE job_id = ?`).run(id);
      return this.db.prepare('DELETE FROM job WHERE id = ?').run(id).changes > 0;
    });
    // Committed (and synchronous, so no append came in between): drop what is still buffered and the caches.
    this.buffer.discard(id);
    this.output.forget(id);
    this.jobs.forget(id);
    return existed;
  }

  /** Highest-NOPM completed run per engine: { engine: jobId }. */
  bestJobs(): Record<string, string> {
    this.assertOpen();
    return this.profilesRepo.bestJobs();
  }

  profiles(): ProfileSummary[] {
    this.assertOpen();
    return this.profilesRepo.profiles();
  }

  profileJobs(profileId: number): ProfilePoint[] {
    this.assertOpen();
    return this.profilesRepo.profileJobs(profileId);
  }

  // Output

  /** Buffer output lines; returns the seqs assigned to them (synchronously). */
  appendOutput(jobId: string, lines: readonly OutputInput[]): SeqRange {
    this.assertOpen();
    return this.output.append(jobId, lines);
  }

  getOutput(jobId: string, q: OutputQuery = {}): OutputPage {
    this.assertOpen();
    this.buffer.flush();
    return this.output.read(jobId, q);
  }

  // Series

  appendEngineSamples(jobId: string, samples: readonly EngineSample[]): void {
    this.assertOpen();
    this.series.appendEngine(jobId, samples);
  }

  appendClientSamples(jobId: string, samples: readonly ClientSample[]): void {
    this.assertOpen();
    this.series.appendClient(jobId, samples);
  }

  appendLatency(jobId: string, samples: readonly LatencySample[]): void {
    this.assertOpen();
    this.series.appendLatency(jobId, samples);
  }

  getTcount(jobId: string): { engine: EngineSample[]; client: ClientSample[] } {
    this.assertOpen();
    this.buffer.flush();
    return this.series.tcount(jobId);
  }

  getLatency(jobId: string): LatencySample[] {
    this.assertOpen();
    this.buffer.flush();
    return this.series.latency(jobId);
  }

  // Timings

  /** Replace the job's time profile. */
  setTimings(jobId: string, rows: readonly TimingRow[]): void {
    this.assertOpen();
    this.timings.set(jobId, rows);
  }

  getTimings(jobId: string, opts: { vu?: number } = {}): TimingRow[] {
    this.assertOpen();
    return this.timings.get(jobId, opts);
  }

  // VU status, build progress, check results

  setVus(jobId: string, vus: readonly VuStatus[]): void {
    this.assertOpen();
    this.state.setVus(jobId, vus);
  }

  getVus(jobId: string): VuStatus[] {
    this.assertOpen();
    return this.state.getVus(jobId);
  }

  setProgress(jobId: string, progress: BuildProgress): void {
    this.assertOpen();
    this.state.setProgress(jobId, progress);
  }

  getProgress(jobId: string): BuildProgress | undefined {
    this.assertOpen();
    return this.state.getProgress(jobId);
  }

  setCheck(jobId: string, items: readonly CheckItem[]): void {
    this.assertOpen();
    this.state.setCheck(jobId, items);
  }

  getCheck(jobId: string): CheckItem[] {
    this.assertOpen();
    return this.state.getCheck(jobId);
  }

  // Metrics and system information

  appendMetrics(jobId: string, kind: string, samples: readonly MetricSample[]): void {
    this.assertOpen();
    this.metrics.append(jobId, kind, samples);
  }

  getMetrics(jobId: string, kind: string, q: MetricQuery = {}): MetricSample[] {
    this.assertOpen();
    this.buffer.flush();
    return this.metrics.get(jobId, kind, q);
  }

  metricKinds(jobId: string): string[] {
    this.assertOpen();
    this.buffer.flush();
    return this.metrics.kinds(jobId);
  }

  setSystem(jobId: string, source: string, info: Record<string, unknown>): void {
    this.assertOpen();
    this.system.set(jobId, source, info);
  }

  getSystem(jobId: string): Record<string, Record<string, unknown>> {
    this.assertOpen();
    return this.system.get(jobId);
  }

  // Saved configurations

  saveConfig(input: SavedConfigInput): SavedConfig {
    this.assertOpen();
    return this.configs.save(input);
  }

  /** Replace a saved configuration; a secret sent as "********" keeps its stored value. */
  updateConfig(id: number, input: SavedConfigInput): SavedConfig {
    this.assertOpen();
    return this.configs.update(id, input);
  }

  listConfigs(): SavedConfig[] {
    this.assertOpen();
    return this.configs.list();
  }

  getConfig(id: number, opts: { withSecrets?: boolean } = {}): SavedConfig | undefined {
    this.assertOpen();
    return this.configs.get(id, opts);
  }

  deleteConfig(id: number): boolean {
    this.assertOpen();
    return this.configs.delete(id);
  }

  // Share links

  createShare(jobId: string): { token: string } {
    this.assertOpen();
    return this.shares.create(jobId);
  }

  resolveShare(token: string): string | undefined {
    this.assertOpen();
    return this.shares.resolve(token);
  }

  revokeShare(token: string): boolean {
    this.assertOpen();
    return this.shares.revoke(token);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`the job store at ${this.path} is closed`);
  }
}
