import {
  ENGINES,
  JOB_ID_PATTERN,
  JOB_STATUSES,
  JOB_TYPES,
  JobListQuery,
  SledgeError,
  TERMINAL_STATUSES,
  WORKLOADS,
  DEFAULT_WORKLOAD,
  workloadDef,
  redact,
  secretFields,
  validate,
  type EngineId,
  type ErrorInfo,
  type Job,
  type JobStatus,
  type JobType,
  type TproccResult,
} from '@sledge/protocol';
import type { Statement } from 'better-sqlite3';
import { inTransaction, type Db } from './db.js';
import { likeContains, notFound, requireInteger, requireString } from './check.js';
import { fromJson, fromJsonOpt, toJson } from './json.js';
import { newJobId } from './ids.js';

export interface CreateJobInput {
  /** A 24-hex id made by newJobId(); a new one is made when omitted. */
  id?: string;
  type: JobType;
  workload: string;
  engine: EngineId;
  /** The job configuration, secrets already redacted by the caller (the store redacts again). */
  config: unknown;
  seed: number;
  label?: string;
  profileId: number;
  clientVersion: string;
  status?: 'queued';
}

/** A job's result document: TPROC-C's, or the own result of any registered workload. */
export type JobResultDoc = NonNullable<Job['result']> | Record<string, unknown>;

export type JobPatch = Partial<Pick<Job, 'status' | 'startedAt' | 'endedAt' | 'error' | 'engineVersion' | 'summary' | 'passed' | 'thresholdResults'>> & { result?: JobResultDoc };

/** A number column of a result: absent fields are NULL (another workload's result has no NOPM), others as before (non-numbers 0). */
const resultNumber = (v: unknown): number | null => (v === undefined || v === null ? null : Number(v) || 0);

/** Statuses a job can be in while something is (or was, before a crash) working on it. */
export const ACTIVE_STATUSES: readonly JobStatus[] = JOB_STATUSES.filter((s) => !TERMINAL_STATUSES.includes(s));

export const INTERRUPTED_ERROR: ErrorInfo = {
  code: 'SLEDGE_E_INTERRUPTED',
  message: 'the server stopped while the job was running',
};

interface JobRow {
  id: string;
  type: JobType;
  workload: string;
  engine: EngineId;
  status: JobStatus;
  label: string | null;
  profile_id: number;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  config: string;
  seed: number;
  engine_version: string | null;
  client_version: string;
  error: string | null;
  summary: string | null;
  passed: number | null;
  threshold_results: string | null;
  result: string | null;
}

const SELECT_JOB = 'SELECT j.*, r.data AS result FROM job j LEFT JOIN job_result r ON r.job_id = j.id';

function toJob(r: JobRow): Job {
  const job: Job = {
    id: r.id,
    type: r.type,
    workload: r.workload,
    engine: r.engine,
    status: r.status,
    profileId: r.profile_id,
    createdAt: r.created_at,
    config: fromJson<unknown>(r.config),
    seed: r.seed,
    clientVersion: r.client_version,
  };
  if (r.label !== null) job.label = r.label;
  if (r.started_at !== null) job.startedAt = r.started_at;
  if (r.ended_at !== null) job.endedAt = r.ended_at;
  if (r.engine_version !== null) job.engineVersion = r.engine_version;
  const result = fromJsonOpt<TproccResult>(r.result);
  if (result !== undefined) job.result = result;
  const error = fromJsonOpt<ErrorInfo>(r.error);
  if (error !== undefined) job.error = error;
  if (r.summary !== null) job.summary = r.summary;
  if (r.passed !== null && r.passed !== undefined) job.passed = r.passed === 1;
  const thresholdResults = fromJsonOpt<NonNullable<Job['thresholdResults']>>(r.threshold_results ?? null);
  if (thresholdResults !== undefined) job.thresholdResults = thresholdResults;
  return job;
}

const oneOf = <T extends string>(v: unknown, allowed: readonly T[], field: string): T => {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be one of ${allowed.join(', ')}`, { field });
  }
  return v as T;
};

const isoDate = (v: unknown, field: string): string => {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be an ISO date-time string`, { field });
  }
  return v;
};

/** The job table (HammerDB's JOBMAIN) and the typed result beside it. */
export class JobsRepo {
  /** Ids known to exist, so hot appends do not look the job up every time. */
  private readonly known = new Set<string>();

  constructor(private readonly db: Db) {}

  create(input: CreateJobInput): Job {
    const jobId = input.id ?? newJobId();
    if (!new RegExp(JOB_ID_PATTERN).test(jobId)) {
      throw new SledgeError('SLEDGE_E_VALIDATION', 'id must be 24 uppercase hex characters (use newJobId())', { field: 'id' });
    }
    const type = oneOf(input.type, JOB_TYPES, 'type');
    const workload = oneOf(input.workload, WORKLOADS, 'workload');
    const engine = oneOf(input.engine, ENGINES, 'engine');
    const seed = requireInteger(input.seed, 'seed', 0);
    if (seed > 4294967295) throw new SledgeError('SLEDGE_E_VALIDATION', 'seed must be an integer from 0 to 4294967295', { field: 'seed' });
    const profileId = requireInteger(input.profileId, 'profileId', 0);
    const clientVersion = requireString(input.clientVersion, 'clientVersion', { nonEmpty: true });
    if (input.label !== undefined) requireString(input.label, 'label');
    if (input.status !== undefined && input.status !== 'queued') {
      throw new SledgeError('SLEDGE_E_VALIDATION', 'a new job starts as "queued"', { field: 'status' });
    }
    const config = toJson(redact(input.config, secretFields(engine)), 'config');
    const conflict = () => new SledgeError('SLEDGE_E_CONFLICT', `job ${jobId} already exists`, { field: 'id' });
    if (this.exists(jobId)) throw conflict();
    try {
      this.db
        .prepare(
          `INSERT INTO job (id, type, workload, engine, status, label, profile_id, created_at, config, seed, client_version)
           VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)`,
        )
        .run(jobId, type, workload, engine, input.label ?? null, profileId, new Date().toISOString(), config, seed, clientVersion);
    } catch (e) {
      // Another process may have created the same id since the check.
      if ((e as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw conflict();
      throw e;
    }
    this.known.add(jobId);
    return this.require(jobId);
  }

  /** Apply the fields present in `patch` (undefined ones are left alone); a result replaces the previous one. */
  update(id: string, patch: JobPatch): Job {
    const sets: string[] = [];
    const params: (string | number | null)[] = [];
    const set = (col: string, v: string | number | null) => {
      sets.push(`${col} = ?`);
      params.push(v);
    };
    if (patch.status !== undefined) set('status', oneOf(patch.status, JOB_STATUSES, 'status'));
    if (patch.startedAt !== undefined) set('started_at', isoDate(patch.startedAt, 'startedAt'));
    if (patch.endedAt !== undefined) set('ended_at', isoDate(patch.endedAt, 'endedAt'));
    if (patch.engineVersion !== undefined) set('engine_version', requireString(patch.engineVersion, 'engineVersion'));
    if (patch.summary !== undefined) set('summary', requireString(patch.summary, 'summary'));
    if (patch.passed !== undefined) {
      if (typeof patch.passed !== 'boolean') throw new SledgeError('SLEDGE_E_VALIDATION', 'passed must be true or false', { field: 'passed' });
      set('passed', patch.passed ? 1 : 0);
    }
    if (patch.thresholdResults !== undefined) {
      if (!Array.isArray(patch.thresholdResults)) throw new SledgeError('SLEDGE_E_VALIDATION', 'thresholdResults must be a list', { field: 'thresholdResults' });
      set('threshold_results', toJson(patch.thresholdResults, 'thresholdResults'));
    }
    if (patch.error !== undefined) {
      const e: unknown = patch.error;
      if (e === null || typeof e !== 'object' || typeof (e as ErrorInfo).code !== 'string' || typeof (e as ErrorInfo).message !== 'string') {
        throw new SledgeError('SLEDGE_E_VALIDATION', 'error must be an object with a code and a message', { field: 'error' });
      }
      set('error', toJson(e, 'error'));
    }
    const result = patch.result;
    if (result !== undefined && (result === null || typeof result !== 'object')) {
      throw new SledgeError('SLEDGE_E_VALIDATION', 'result must be a result object', { field: 'result' });
    }
    inTransaction(this.db, () => {
      if (!this.exists(id)) throw notFound('job', id);
      if (sets.length > 0) this.db.prepare(`UPDATE job SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
      if (result !== undefined) this.writeResult(id, result as Record<string, unknown>);
    });
    return this.require(id);
  }

  /**
   * Store a result: its workload (the job's), its headline figure as that
   * workload declares it (TPROC-C: NOPM), the NOPM/TPM/active-VU columns
   * when the result has them, and the document itself.
   */
  private writeResult(id: string, result: Record<string, unknown>): void {
    const { workload } = this.db.prepare('SELECT workload FROM job WHERE id = ?').get(id) as { workload: string };
    const headline = (workloadDef(workload) ?? workloadDef(DEFAULT_WORKLOAD)!).headline;
    this.db
      .prepare(
        `INSERT INTO job_result (job_id, workload, metric, value, unit, nopm, tpm, active_vus, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (job_id) DO UPDATE SET workload = excluded.workload, metric = excluded.metric, value = excluded.value, unit = excluded.unit,
           nopm = excluded.nopm, tpm = excluded.tpm, active_vus = excluded.active_vus, data = excluded.data`,
      )
      .run(
        id,
        workload,
        headline.field,
        Number(result[headline.field]) || 0,
        headline.unit,
        resultNumber(result['nopm']),
        resultNumber(result['tpm']),
        resultNumber(result['activeVus']),
        toJson(result, 'result'),
      );
  }

  /** Prepared on first use: GET /jobs/:id is what a client polls during a run. */
  private getStmt: Statement<unknown[]> | null = null;

  get(id: string): Job | undefined {
    this.getStmt ??= this.db.prepare(`${SELECT_JOB} WHERE j.id = ?`);
    const row = this.getStmt.get(id) as JobRow | undefined;
    return row === undefined ? undefined : toJob(row);
  }

  require(id: string): Job {
    const job = this.get(id);
    if (!job) throw notFound('job', id);
    return job;
  }

  exists(id: string): boolean {
    if (this.known.has(id)) return true;
    const found = this.db.prepare('SELECT 1 FROM job WHERE id = ?').get(id) !== undefined;
    if (found) this.known.add(id);
    return found;
  }

  /** Throw SLEDGE_E_NOT_FOUND unless the job exists. */
  assertExists(id: string): void {
    if (!this.exists(id)) throw notFound('job', id);
  }

  /** Forget a deleted job in the existence cache. */
  forget(id: string): void {
    this.known.delete(id);
  }

  /** Filters and text search (id, label, summary, engine), newest first. */
  list(query: JobListQuery = {}): { jobs: Job[]; total: number } {
    const q = validate(JobListQuery, query);
    const where: string[] = [];
    const params: (string | number)[] = [];
    const eq = (col: string, v: string | number | undefined) => {
      if (v === undefined) return;
      where.push(`j.${col} = ?`);
      params.push(v);
    };
    eq('engine', q.engine);
    eq('type', q.type);
    eq('status', q.status);
    eq('workload', q.workload);
    eq('profile_id', q.profileId);
    const text = q.q?.trim();
    if (text) {
      const cols = ['id', 'label', 'summary', 'engine'];
      where.push(`(${cols.map((c) => `j.${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
      for (let i = 0; i < cols.length; i++) params.push(likeContains(text));
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT count(*) AS n FROM job j ${clause}`).get(...params) as { n: number }).n;
    const rows = this.db
      .prepare(`${SELECT_JOB} ${clause} ORDER BY j.created_at DESC, j.rowid DESC LIMIT ? OFFSET ?`)
      .all(...params, q.limit ?? 100, q.offset ?? 0) as JobRow[];
    return { jobs: rows.map(toJob), total };
  }

  /**
   * Mark every job left in an active status as interrupted (the previous
   * server died). Its end is its last recorded sign of life (lastSignOfLife),
   * not the time of this restart, which may be hours later.
   */
  interruptActive(): string[] {
    const marks = ACTIVE_STATUSES.map(() => '?').join(', ');
    const now = Date.now();
    return inTransaction(this.db, () => {
      const jobs = this.db.prepare(`SELECT id, created_at, started_at FROM job WHERE status IN (${marks})`).all(...ACTIVE_STATUSES) as {
        id: string;
        created_at: string;
        started_at: string | null;
      }[];
      const update = this.db.prepare(`UPDATE job SET status = 'interrupted', error = ?, ended_at = ? WHERE id = ?`);
      const error = toJson(INTERRUPTED_ERROR, 'error');
      for (const j of jobs) {
        const since = Date.parse(j.started_at ?? j.created_at);
        const last = this.lastSignOfLife(j.id);
        const end = Math.min(now, Math.max(Number.isFinite(since) ? since : 0, last ?? 0));
        update.run(error, new Date(end > 0 ? end : now).toISOString(), j.id);
      }
      return jobs.map((j) => j.id).sort();
    });
  }

  /**
   * The newest moment a job is known to have been alive (unix ms): its
   * latest stored output line, sample (engine and client counters,
   * latency, metrics such as ASH and CPU) or state snapshot (VU grid, build
   * progress). Undefined when it stored none.
   */
  lastSignOfLife(jobId: string): number | undefined {
    const r = this.db
      .prepare(
        `SELECT max(t) AS t FROM (
           SELECT (SELECT ts FROM job_output WHERE job_id = @id ORDER BY seq DESC LIMIT 1) AS t
           UNION ALL SELECT max(ts) FROM job_tcount WHERE job_id = @id
           UNION ALL SELECT max(ts) FROM job_client_rate WHERE job_id = @id
           UNION ALL SELECT max(ts) FROM job_latency WHERE job_id = @id
           UNION ALL SELECT max(ts) FROM job_metric WHERE job_id = @id
         )`,
      )
      .get({ id: jobId }) as { t: number | null };
    const state = this.db.prepare('SELECT max(updated_at) AS u FROM job_state WHERE job_id = ?').get(jobId) as { u: string | null };
    const stateMs = state.u ? Date.parse(state.u) : NaN;
    const best = Math.max(r.t ?? -Infinity, Number.isFinite(stateMs) ? stateMs : -Infinity);
    return Number.isFinite(best) ? best : undefined;
  }
}
