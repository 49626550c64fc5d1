import type {
  AshReport,
  BestJobs,
  Capabilities,
  CheckItem,
  Job,
  JobChanges,
  JobCreate,
  JobList,
  JobListQuery,
  LatencySample,
  OutputLine,
  ProfileDetail,
  ProfileScalability,
  ProfileSummary,
  ScriptBuiltins,
  ScriptCheck,
  ScriptCheckBody,
  ReplicaList,
  SavedConfig,
  SavedConfigInput,
  ShareInfo,
  ShareLink,
  Snapshot,
  TargetTestResult,
  Tcount,
  TimingRow,
} from '@sledge/protocol';
import { API, qs, request, withToken } from './http.js';
import type { AgentInfo, CpuReport, TargetAshSample } from './types.js';

/** A job body as POST /jobs takes it: `configId` fills "********" secrets from that saved configuration. */
export type JobCreateBody = JobCreate & { configId?: number };

export interface RangeQuery {
  from?: number | undefined;
  to?: number | undefined;
}

/** JSON Schema of one engine's target, as GET /targets/schema returns it. */
export interface TargetJsonSchema {
  title?: string;
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
}

export interface OutputPage {
  lines: OutputLine[];
  total: number;
}

export interface OutputQuery {
  vu?: number;
  afterSeq?: number;
  limit?: number;
  q?: string;
}

/** Every REST call the UI makes, typed with @sledge/protocol. */
export const api = {
  capabilities: () => request<Capabilities>('GET', '/capabilities'),
  targetSchemas: () => request<Record<string, TargetJsonSchema>>('GET', '/targets/schema'),
  testTarget: (target: unknown, configId?: number, workload?: string) =>
    request<TargetTestResult>('POST', '/targets/test', { target, ...(configId === undefined ? {} : { configId }), ...(workload === undefined ? {} : { workload }) }),
  targetAsh: (target: unknown, configId?: number) => request<TargetAshSample>('POST', '/targets/ash', configId === undefined ? { target } : { target, configId }),

  /** Script workload: pgbench's built-in scripts with their text, and a check of scripts as a job would parse them. */
  scriptBuiltins: () => request<ScriptBuiltins>('GET', '/scripts/builtins'),
  checkScripts: (body: ScriptCheckBody) => request<ScriptCheck>('POST', '/scripts/validate', body),

  createJob: (body: JobCreateBody) => request<Job>('POST', '/jobs', body),
  listJobs: (q: JobListQuery = {}) => request<JobList>('GET', '/jobs' + qs({ ...q })),
  job: (id: string) => request<Job>('GET', `/jobs/${encodeURIComponent(id)}`),
  stopJob: (id: string) => request<Job>('POST', `/jobs/${encodeURIComponent(id)}/stop`),
  deleteJob: (id: string) => request<void>('DELETE', `/jobs/${encodeURIComponent(id)}`),
  output: (id: string, q: OutputQuery = {}) => request<OutputPage>('GET', `/jobs/${encodeURIComponent(id)}/output` + qs({ ...q })),
  tcount: (id: string) => request<Tcount>('GET', `/jobs/${encodeURIComponent(id)}/tcount`),
  timing: (id: string) => request<TimingRow[]>('GET', `/jobs/${encodeURIComponent(id)}/timing`),
  latency: (id: string) => request<LatencySample[]>('GET', `/jobs/${encodeURIComponent(id)}/latency`),
  check: (id: string) => request<CheckItem[]>('GET', `/jobs/${encodeURIComponent(id)}/check`),
  /** TPROC-H: the EXPLAIN plan of each query stored with the job. */
  plans: (id: string) => request<{ query: number | string; plan: string; sql?: string }[]>('GET', `/jobs/${encodeURIComponent(id)}/plans`),
  /** What changed from run A to run B: settings, statement times, plan shapes, verdict. */
  changes: (a: string, b: string) => request<JobChanges>('GET', `/compare/changes` + qs({ jobs: `${a},${b}` })),
  ash: (id: string, r: RangeQuery = {}) => request<AshReport>('GET', `/jobs/${encodeURIComponent(id)}/ash` + qs({ from: r.from !== undefined ? Math.floor(r.from) : undefined, to: r.to !== undefined ? Math.ceil(r.to) : undefined })),
  cpu: (id: string, r: RangeQuery & { source?: string } = {}) => request<CpuReport>('GET', `/jobs/${encodeURIComponent(id)}/cpu` + qs({ from: r.from, to: r.to, source: r.source })),
  agents: () => request<AgentInfo[]>('GET', '/agents'),
  snapshot: (id: string) => request<Snapshot>('GET', `/jobs/${encodeURIComponent(id)}/snapshot`),
  share: (id: string) => request<ShareLink>('POST', `/jobs/${encodeURIComponent(id)}/share`),
  /** A job's share links (newest last as the server lists them). */
  shares: (id: string) => request<ShareInfo[]>('GET', `/jobs/${encodeURIComponent(id)}/share`),
  revokeShare: (id: string, token: string) => request<void>('DELETE', `/jobs/${encodeURIComponent(id)}/share/${encodeURIComponent(token)}`),
  shared: (token: string) => request<Snapshot>('GET', `/shared/${encodeURIComponent(token)}`),

  configs: () => request<SavedConfig[]>('GET', '/configs'),
  saveConfig: (c: SavedConfigInput) => request<SavedConfig>('POST', '/configs', c),
  updateConfig: (id: number, c: SavedConfigInput) => request<SavedConfig>('PUT', `/configs/${id}`, c),
  deleteConfig: (id: number) => request<void>('DELETE', `/configs/${id}`),

  profiles: () => request<ProfileSummary[]>('GET', '/profiles'),
  profile: (id: number) => request<ProfileDetail>('GET', `/profiles/${id}`),
  /** The USL fit, latency knee and wait growth of a profile (409 under 3 VU counts). */
  profileScalability: (id: number) => request<ProfileScalability>('GET', `/profiles/${id}/scalability`),
  best: () => request<BestJobs>('GET', '/best'),
  /** Scale-out: whether this server is on NATS, and the replicas that joined it. */
  replicas: () => request<ReplicaList>('GET', '/replicas'),
};

export const EXPORT_SERIES = ['tcount', 'client', 'timing', 'latency', 'output', 'vus', 'thresholds'] as const;
export type ExportSeries = (typeof EXPORT_SERIES)[number];

/** Download links (the browser fetches them itself, so a token goes in the query). */
export function exportUrl(id: string, format: 'json' | 'csv', series?: ExportSeries): string {
  return withToken(`${API}/jobs/${encodeURIComponent(id)}/export` + qs({ format, series: format === 'csv' ? series : undefined }));
}
