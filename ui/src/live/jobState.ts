import type {
  BuildProgress,
  CheckItem,
  ClientSample,
  EngineSample,
  Job,
  JobStreamFrame,
  LatencySample,
  OutputLine,
  Snapshot,
  TimingRow,
  VuStatus,
} from '@sledge/protocol';

/** Output lines kept in memory per job; older ones are paged through REST. */
export const MAX_LIVE_OUTPUT = 50_000;
/**
 * Metric samples (ASH, CPU ...) kept in memory per kind. Beyond it the oldest
 * quarter is dropped at once (so trimming is rare); the metrics view reads
 * what was dropped from the REST reports.
 */
export const MAX_LIVE_METRIC = 120_000;
/** Build-progress points kept to compute rows/s. */
const PROGRESS_TRAIL = 60;

export interface ProgressPoint {
  ts: number;
  rows: number;
}

/** Everything the UI shows about one job, built from a snapshot and the frames after it. */
export interface LiveJob {
  job: Job;
  /** The last frame applied (snapshot.seq, then +1 per frame). */
  seq: number;
  output: OutputLine[];
  /** Lines the job has in total (the window above holds the newest). */
  outputTotal: number;
  engine: EngineSample[];
  client: ClientSample[];
  latency: LatencySample[];
  vus: VuStatus[];
  progress: BuildProgress | undefined;
  progressTrail: ProgressPoint[];
  timings: TimingRow[];
  metrics: Record<string, unknown[]>;
  /** Samples dropped from the front of `metrics[kind]` to keep memory bounded. */
  metricsDropped: Record<string, number>;
  /** checkschema results (check jobs; stored jobs carry them in the snapshot). */
  check: CheckItem[] | undefined;
}

export const isTerminalStatus = (s: Job['status']): boolean => s === 'completed' || s === 'failed' || s === 'stopped' || s === 'interrupted';

export function totalRows(p: BuildProgress): number {
  let n = 0;
  for (const w of p.workers) for (const v of Object.values(w.rows)) n += v;
  return n;
}

export function fromSnapshot(s: Snapshot): LiveJob {
  return {
    job: s.job,
    seq: s.seq,
    output: s.output.length > MAX_LIVE_OUTPUT ? s.output.slice(-MAX_LIVE_OUTPUT) : s.output,
    outputTotal: Math.max(s.outputTotal, s.output.length),
    engine: s.engine,
    client: s.client,
    latency: s.latency,
    vus: s.vus,
    progress: s.progress,
    progressTrail: s.progress ? [{ ts: s.progress.ts, rows: totalRows(s.progress) }] : [],
    timings: s.timings,
    metrics: s.metrics,
    metricsDropped: {},
    check: s.check,
  };
}

/** Append items whose key is beyond the last one kept: replays never duplicate points. */
export function appendAfter<T>(list: T[], items: readonly T[], key: (x: T) => number): T[] {
  if (!items.length) return list;
  const last = list.length ? key(list[list.length - 1]!) : -Infinity;
  const fresh = items.filter((x) => key(x) > last);
  return fresh.length ? list.concat(fresh) : list;
}

export type ApplyResult =
  | { kind: 'applied'; state: LiveJob }
  /** seq <= state.seq: already applied (a replay after a resume). */
  | { kind: 'duplicate'; state: LiveJob }
  /** seq > state.seq + 1: frames are missing; the caller must resubscribe. */
  | { kind: 'gap'; state: LiveJob };

/** Apply one numbered frame. Pure: returns a new state, never mutates the old one. */
export function applyFrame(state: LiveJob, f: JobStreamFrame): ApplyResult {
  if (f.seq <= state.seq) return { kind: 'duplicate', state };
  if (f.seq > state.seq + 1) return { kind: 'gap', state };
  const s: LiveJob = { ...state, seq: f.seq };
  switch (f.t) {
    case 'status': {
      const job: Job = { ...s.job, status: f.status };
      const at = new Date(f.ts).toISOString();
      if (f.error) job.error = f.error;
      if (!job.startedAt && f.status !== 'queued') job.startedAt = at;
      if (!job.endedAt && isTerminalStatus(f.status)) job.endedAt = at;
      s.job = job;
      break;
    }
    case 'output': {
      const before = s.output.length;
      let out = appendAfter(s.output, f.lines, (l) => l.seq);
      const added = out.length - before;
      if (out.length > MAX_LIVE_OUTPUT) out = out.slice(out.length - MAX_LIVE_OUTPUT);
      s.output = out;
      s.outputTotal = state.outputTotal + added;
      break;
    }
    case 'tcount':
      s.engine = appendAfter(s.engine, f.engine, (x) => x.ts);
      s.client = appendAfter(s.client, f.client, (x) => x.ts);
      break;
    case 'latency':
      s.latency = appendAfter(s.latency, f.samples, (x) => x.ts);
      break;
    case 'vus':
      s.vus = f.vus;
      break;
    case 'progress': {
      s.progress = f.progress;
      const trail = s.progressTrail.concat({ ts: f.progress.ts, rows: totalRows(f.progress) });
      s.progressTrail = trail.length > PROGRESS_TRAIL ? trail.slice(-PROGRESS_TRAIL) : trail;
      break;
    }
    case 'result':
      s.job = { ...s.job, result: f.result };
      s.timings = f.timings;
      break;
    case 'metric': {
      let list = (s.metrics[f.kind] ?? []).concat(f.samples);
      if (list.length > MAX_LIVE_METRIC) {
        const drop = list.length - Math.floor(MAX_LIVE_METRIC * 0.75);
        list = list.slice(drop);
        s.metricsDropped = { ...s.metricsDropped, [f.kind]: (s.metricsDropped[f.kind] ?? 0) + drop };
      }
      s.metrics = { ...s.metrics, [f.kind]: list };
      break;
    }
  }
  return { kind: 'applied', state: s };
}

/**
 * Merge a job record from the job-list feed. The feed can lag behind the
 * job's own status frames, so a terminal status is never replaced by an
 * active one.
 */
export function mergeJob(state: LiveJob, job: Job): LiveJob {
  if (job.id !== state.job.id) return state;
  const keepStatus = isTerminalStatus(state.job.status) && !isTerminalStatus(job.status);
  return { ...state, job: { ...state.job, ...job, ...(keepStatus ? { status: state.job.status, endedAt: state.job.endedAt } : {}), result: job.result ?? state.job.result } };
}
