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
import { dirname, resolve } from 'node:path';
import { BUSY_TIMEOUT_MS, JobStoreOpenError, inTransaction, openDatabase, prepareDirectory, type Db } from './db.js';
import { isStorageError, storageError } from './faults.js';
import { storeFiles, type StoreFiles } from './files.js';
import { StoreLock } from './lock.js';
import { ensureReserve, releaseReserve } from './reserve.js';
import { SecretBox, SecretKeyError, isSealed, loadSecretKey, type KeySource } from './secrets.js';
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
import { HammerdbSessionRepo, type HammerdbSessionDoc } from './hammerdb-session.js';
import { SharesRepo } from './shares.js';

export interface JobStoreOptions {
  /** How often buffered appends are written, in ms (default 1000). A crash loses at most this much. */
  flushMs?: number;
  /**
   * Called when a timed flush fails (rows stay buffered for the next try):
   * once per run of failures, not every second. Default: a process warning.
   */
  onFlushError?: (err: Error) => void;
  /** The key that encrypts saved secrets, base64 of 32 bytes (SLEDGE_SECRET_KEY). Default: the key file secret.key beside the store, created on first use. */
  secretKey?: string;
  /** How often the WAL is checkpointed and truncated, in ms (default 60000). */
  checkpointMs?: number;
}

export const DEFAULT_FLUSH_MS = 1000;
export const DEFAULT_CHECKPOINT_MS = 60_000;

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
  /** Saved configurations whose plain-text secrets were encrypted at this open (a store from before encryption). */
  readonly sealedOnOpen: number;
  /** Where the secrets key came from. */
  readonly keySource: KeySource;
  /** The store's files (database, companions, lock, reserve, key). */
  readonly files: StoreFiles;

  private readonly db: Db;
  private readonly lock: StoreLock;
  private readonly faultListeners = new Set<(err: SledgeError) => void>();
  private readonly checkpointTimer: NodeJS.Timeout;
  private flushFailing = false;
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
  private readonly hammerdb: HammerdbSessionRepo;
  private readonly shares: SharesRepo;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  private readonly box: SecretBox;

  private constructor(path: string, db: Db, lock: StoreLock, box: SecretBox, keySource: KeySource, opts: JobStoreOptions) {
    this.box = box;
    this.path = path;
    this.files = storeFiles(path);
    this.db = db;
    this.lock = lock;
    this.keySource = keySource;
    this.buffer = new WriteBuffer(db);
    this.jobs = new JobsRepo(db);
    this.profilesRepo = new ProfilesRepo(db);
    this.output = new OutputRepo(db, this.jobs, this.buffer);
    this.series = new SeriesRepo(db, this.jobs, this.buffer);
    this.timings = new TimingsRepo(db, this.jobs);
    this.state = new StateRepo(db, this.jobs);
    this.metrics = new MetricsRepo(db, this.jobs, this.buffer);
    this.system = new SystemRepo(db, this.jobs);
    this.configs = new ConfigsRepo(db, box);
    this.hammerdb = new HammerdbSessionRepo(db, box);
    this.shares = new SharesRepo(db, this.jobs);
    this.sealedOnOpen = this.configs.sealPlainSecrets();
    // Plain-text secrets were just overwritten (secure_delete); fold the WAL that held the old pages back and truncate it.
    if (this.sealedOnOpen > 0) this.checkpoint();
    this.interruptedOnOpen = this.jobs.interruptActive();
    const onError = opts.onFlushError ?? ((e: Error) => process.emitWarning(`job store flush failed, will retry: ${e.message}`, 'SledgeJobStoreWarning'));
    this.timer = setInterval(() => {
      try {
        this.guard(() => this.buffer.flush());
        this.flushFailing = false;
      } catch (e) {
        if (!this.flushFailing) onError(e instanceof Error ? e : new Error(String(e)));
        this.flushFailing = true;
      }
    }, opts.flushMs ?? DEFAULT_FLUSH_MS);
    this.timer.unref();
    this.checkpointTimer = setInterval(() => this.checkpoint(), opts.checkpointMs ?? DEFAULT_CHECKPOINT_MS);
    this.checkpointTimer.unref();
  }

  /**
   * Open or create the store at `path` (parent directories are created), run
   * pending migrations and mark jobs left active by a previous process as
   * interrupted. Throws JobStoreOpenError naming the path and the reason.
   */
  static open(path: string, opts: JobStoreOptions = {}): JobStore {
    for (const [name, v, dflt] of [['flushMs', opts.flushMs, DEFAULT_FLUSH_MS], ['checkpointMs', opts.checkpointMs, DEFAULT_CHECKPOINT_MS]] as const) {
      const ms = v ?? dflt;
      if (!Number.isFinite(ms) || ms < 1 || ms > 2 ** 31 - 1) {
        throw new SledgeError('SLEDGE_E_VALIDATION', `${name} must be a number of milliseconds >= 1`, { field: name });
      }
    }
    const file = resolve(path);
    const files = storeFiles(file);
    prepareDirectory(file);
    // One writer per store, taken before anything reads or changes the file (WAL recovery, migrations, interrupting jobs).
    let lock: StoreLock;
    try {
      lock = StoreLock.acquire(files.lock, file);
    } catch (e) {
      if (e instanceof Error && e.name === 'JobStoreLockedError') throw e;
      throw new JobStoreOpenError(file, `cannot take the lock ${files.lock}: ${e instanceof Error ? e.message : String(e)}`, e);
    }
    let db: Db | undefined;
    try {
      const { key, source } = loadKey(opts.secretKey, files.key, file);
      db = openDatabase(file);
      migrate(db);
      ensureReserve(files.reserve);
      return new JobStore(file, db, lock, new SecretBox(key), source, opts);
    } catch (e) {
      db?.close();
      lock.release();
      throw e;
    }
  }

  /**
   * Listen for writes the disk refused (SLEDGE_E_STORAGE_FULL / _IO), from
   * any caller and from the timed flush. Returns the unsubscribe function.
   */
  onStorageFault(listener: (err: SledgeError) => void): () => void {
    this.faultListeners.add(listener);
    return () => this.faultListeners.delete(listener);
  }

  /**
   * Check that the data directory has room before new work: the reserve file
   * (space kept for recording a failure) is put back if a full disk used it.
   * Throws SLEDGE_E_STORAGE_FULL when there is still no room.
   */
  assertWritable(): void {
    this.assertOpen();
    let ok: boolean;
    try {
      ok = ensureReserve(this.files.reserve);
    } catch (e) {
      throw new SledgeError('SLEDGE_E_STORAGE_IO', `the data directory ${dirname(this.path)} cannot be written (${(e as NodeJS.ErrnoException).code ?? String(e)} on ${this.files.reserve})`, { cause: e });
    }
    if (!ok) {
      throw new SledgeError(
        'SLEDGE_E_STORAGE_FULL',
        `the data directory ${dirname(this.path)} is full (no room for ${this.files.reserve}): free space there before starting a job`,
      );
    }
  }

  /**
   * Cap the store file at `bytes` (SQLite's max_page_count; never below the
   * current size). Writes that would grow it further fail with
   * SLEDGE_E_STORAGE_FULL. Returns the cap in effect, in bytes.
   */
  setMaxBytes(bytes: number): number {
    this.assertOpen();
    const page = Number(this.db.pragma('page_size', { simple: true }));
    const pages = Number(this.db.pragma(`max_page_count = ${Math.max(1, Math.floor(bytes / page))}`, { simple: true }));
    return pages * page;
  }

  /**
   * Fold the WAL back into the database and truncate it (the writer's
   * periodic checkpoint, so the WAL stays bounded even when readers starve
   * SQLite's automatic one). Never waits for a reader: a busy checkpoint is
   * simply tried again next time. Returns SQLite's [busy, log, checkpointed].
   */
  checkpoint(): { busy: boolean; walPages: number; checkpointed: number } | undefined {
    if (this.closed) return undefined;
    try {
      this.db.pragma('busy_timeout = 0');
      const r = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
      const row = r[0] ?? { busy: 1, log: -1, checkpointed: -1 };
      return { busy: row.busy !== 0, walPages: row.log, checkpointed: row.checkpointed };
    } catch (e) {
      const err = storageError(e, this.path, dirname(this.path));
      if (err) this.fault(err);
      return undefined;
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  /** Run a write; a write the disk refuses becomes a typed storage error, told to the fault listeners. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (isStorageError(e)) throw e;
      const err = storageError(e, this.path, dirname(this.path));
      if (!err) throw e;
      this.fault(err);
      throw err;
    }
  }

  private fault(err: SledgeError): void {
    // A full disk: give the reserve's room back so that the failure itself can be recorded.
    if (err.code === 'SLEDGE_E_STORAGE_FULL') releaseReserve(this.files.reserve);
    for (const l of this.faultListeners) {
      try {
        l(err);
      } catch {
        // a listener's own failure must not hide the storage error
      }
    }
  }

  /** Reads first write what is buffered; a disk that refuses it leaves the rows buffered and the read goes on. */
  private flushForRead(): void {
    try {
      this.guard(() => this.buffer.flush());
    } catch (e) {
      if (!isStorageError(e)) throw e;
    }
  }

  /** Write every buffered row now, in one transaction. Returns how many rows were written. */
  flush(): number {
    this.assertOpen();
    return this.guard(() => this.buffer.flush());
  }

  /** Rows waiting in the write buffer. */
  get pendingRows(): number {
    return this.buffer.size;
  }

  /** Flush and close. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    clearInterval(this.timer);
    clearInterval(this.checkpointTimer);
    try {
      this.guard(() => this.buffer.flush());
      this.checkpoint();
    } catch (e) {
      // A full disk at shutdown: the buffered rows cannot be kept; everything committed stays intact.
      if (!isStorageError(e)) throw e;
    } finally {
      this.closed = true;
      this.db.close();
      this.lock.release();
    }
  }

  // Jobs

  createJob(input: CreateJobInput): Job {
    this.assertOpen();
    return this.guard(() => this.jobs.create(input));
  }

  updateJob(id: string, patch: JobPatch): Job {
    this.assertOpen();
    return this.guard(() => this.jobs.update(id, patch));
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
    const existed = this.guard(() =>
      inTransaction(this.db, () => {
        for (const t of JOB_TABLES) this.db.prepare(`DELETE FROM ${t} WHERE job_id = ?`).run(id);
        return this.db.prepare('DELETE FROM job WHERE id = ?').run(id).changes > 0;
      }),
    );
    // Committed (and synchronous, so no append came in between): drop what is still buffered and the caches.
    this.buffer.discard(id);
    this.output.forget(id);
    this.jobs.forget(id);
    return existed;
  }

  /** Highest-headline completed run per engine of one workload (default TPROC-C: the highest NOPM): { engine: jobId }. */
  bestJobs(workload?: string): Record<string, string> {
    this.assertOpen();
    return this.profilesRepo.bestJobs(workload);
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
    this.flushForRead();
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
    this.flushForRead();
    return this.series.tcount(jobId);
  }

  getLatency(jobId: string): LatencySample[] {
    this.assertOpen();
    this.flushForRead();
    return this.series.latency(jobId);
  }

  // Timings

  /** Replace the job's time profile. */
  setTimings(jobId: string, rows: readonly TimingRow[]): void {
    this.assertOpen();
    this.guard(() => this.timings.set(jobId, rows));
  }

  getTimings(jobId: string, opts: { vu?: number } = {}): TimingRow[] {
    this.assertOpen();
    return this.timings.get(jobId, opts);
  }

  // The HammerDB-compatible API's session

  /** Keep the HammerDB session (its passwords sealed) for the next start. */
  saveHammerdbSession(doc: HammerdbSessionDoc): void {
    this.assertOpen();
    this.guard(() => this.hammerdb.save(doc));
  }

  /** The HammerDB session saved last, or undefined; `unreadable` names passwords the current key cannot open. */
  loadHammerdbSession(): (HammerdbSessionDoc & { unreadable: string[] }) | undefined {
    this.assertOpen();
    return this.hammerdb.load();
  }

  // Secrets kept in files beside the store (connect pool files), sealed like saved configurations'

  /** `plain` encrypted with the store's key (AES-256-GCM, `label` authenticated): "sledge-enc:v1:...". A sealed value is returned as is. */
  sealSecret(plain: string, label: string): string {
    return isSealed(plain) ? plain : this.box.seal(plain, label);
  }

  /** The plain value of a sealed one (a plain value is returned as is); SLEDGE_E_SECRET_UNREADABLE on `field` when the key does not open it. */
  openSecret(stored: string, label: string, field: string): string {
    return isSealed(stored) ? this.box.open(stored, label, field) : stored;
  }

  // VU status, build progress, check results

  setVus(jobId: string, vus: readonly VuStatus[]): void {
    this.assertOpen();
    this.guard(() => this.state.setVus(jobId, vus));
  }

  getVus(jobId: string): VuStatus[] {
    this.assertOpen();
    return this.state.getVus(jobId);
  }

  setProgress(jobId: string, progress: BuildProgress): void {
    this.assertOpen();
    this.guard(() => this.state.setProgress(jobId, progress));
  }

  getProgress(jobId: string): BuildProgress | undefined {
    this.assertOpen();
    return this.state.getProgress(jobId);
  }

  setCheck(jobId: string, items: readonly CheckItem[]): void {
    this.assertOpen();
    this.guard(() => this.state.setCheck(jobId, items));
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
    this.flushForRead();
    return this.metrics.get(jobId, kind, q);
  }

  metricKinds(jobId: string): string[] {
    this.assertOpen();
    this.flushForRead();
    return this.metrics.kinds(jobId);
  }

  setSystem(jobId: string, source: string, info: Record<string, unknown>): void {
    this.assertOpen();
    this.guard(() => this.system.set(jobId, source, info));
  }

  getSystem(jobId: string): Record<string, Record<string, unknown>> {
    this.assertOpen();
    return this.system.get(jobId);
  }

  // Saved configurations

  saveConfig(input: SavedConfigInput): SavedConfig {
    this.assertOpen();
    return this.guard(() => this.configs.save(input));
  }

  /** Replace a saved configuration; a secret sent as "********" keeps its stored value. */
  updateConfig(id: number, input: SavedConfigInput): SavedConfig {
    this.assertOpen();
    return this.guard(() => this.configs.update(id, input));
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
    return this.guard(() => this.configs.delete(id));
  }

  // Share links

  createShare(jobId: string): { token: string } {
    this.assertOpen();
    return this.guard(() => this.shares.create(jobId));
  }

  resolveShare(token: string): string | undefined {
    this.assertOpen();
    return this.shares.resolve(token);
  }

  /** Revoke one share link; with `jobId`, only a link of that job. True when it existed. */
  revokeShare(token: string, jobId?: string): boolean {
    this.assertOpen();
    return this.guard(() => this.shares.revoke(token, jobId));
  }

  /** The job's share links, oldest first. */
  listShares(jobId: string): { token: string; createdAt: string }[] {
    this.assertOpen();
    return this.shares.list(jobId);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`the job store at ${this.path} is closed`);
  }
}

function loadKey(envKey: string | undefined, keyFile: string, storePath: string): { key: Buffer; source: KeySource } {
  try {
    return loadSecretKey({ ...(envKey !== undefined ? { key: envKey } : {}), keyFile });
  } catch (e) {
    if (e instanceof SecretKeyError) throw new JobStoreOpenError(storePath, e.message, e);
    throw new JobStoreOpenError(storePath, `cannot read or create the secrets key ${keyFile}: ${e instanceof Error ? e.message : String(e)}`, e);
  }
}
