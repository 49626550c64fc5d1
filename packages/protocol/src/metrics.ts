import Type from 'typebox';
import { StringEnum } from './util.js';

/**
 * One cross-engine set of wait classes. Every engine's own events map into
 * these (the engine's event names are kept for drilldown). Colours are fixed
 * per class across engines: CPU green, IO blue, Lock red, latch pink,
 * network/client yellow, other grey (ecosystem.md §3.2). CPU stacks at the bottom.
 */
export const WAIT_CLASSES = [
  'CPU',
  'Scheduler',
  'IO',
  'Commit',
  'Lock',
  'Latch',
  'Network',
  'Client',
  'IPC',
  'Timeout',
  'Configuration',
  'Other',
] as const;
export type WaitClass = (typeof WAIT_CLASSES)[number];
export const WaitClassSchema = StringEnum(WAIT_CLASSES);

export const WAIT_CLASS_COLORS: Record<WaitClass, { light: string; dark: string; description: string }> = {
  CPU: { light: '#00cc00', dark: '#50fa7b', description: 'on CPU (running, no wait)' },
  Scheduler: { light: '#9acd32', dark: '#b8e986', description: 'runnable, waiting for a CPU (CPU wait, SOS_SCHEDULER_YIELD)' },
  IO: { light: '#004ae7', dark: '#4d8dff', description: 'data file reads and writes' },
  Commit: { light: '#e46800', dark: '#ffa24d', description: 'log/WAL writes and flushes at commit' },
  Lock: { light: '#c02800', dark: '#ff5555', description: 'row/table locks (application contention)' },
  Latch: { light: '#f06eaa', dark: '#ff79c6', description: 'latches, LWLocks, mutexes, buffer pins' },
  Network: { light: '#d4b000', dark: '#f1fa8c', description: 'network I/O to the client' },
  Client: { light: '#8a6d00', dark: '#ffdc64', description: 'waiting for the client (idle in transaction, COPY data)' },
  IPC: { light: '#7b3fb5', dark: '#bd93f9', description: 'inter-process communication, parallel query, replication' },
  Timeout: { light: '#717354', dark: '#a9ab8a', description: 'sleeps and timeouts' },
  Configuration: { light: '#5c440b', dark: '#c9a66b', description: 'configuration limits (log file switch, checkpoint not complete)' },
  Other: { light: '#9e9e9e', dark: '#b4b4b4', description: 'everything else' },
};

/** One active session at one sampling instant (or a weighted slice of a second for client-side sampling). */
export const AshSample = Type.Object({
  ts: Type.Number({ description: 'unix ms of the sample' }),
  session: Type.String({ description: 'pid / session id / thread id / VU' }),
  vu: Type.Optional(Type.Integer({ description: 'Sledge VU position when the session belongs to one' })),
  user: Type.Optional(Type.String()),
  program: Type.Optional(Type.String({ description: 'application_name / program' })),
  waitClass: WaitClassSchema,
  event: Type.String({ description: "the engine's own event name; 'CPU' when on CPU" }),
  engineClass: Type.Optional(Type.String({ description: "the engine's own class (wait_event_type, wait_class, ...)" })),
  sqlId: Type.Optional(Type.String()),
  sql: Type.Optional(Type.String({ description: 'statement text, truncated' })),
  blocking: Type.Optional(Type.String({ description: 'session blocking this one' })),
  background: Type.Optional(Type.Boolean()),
  idle: Type.Optional(Type.Boolean({ description: 'a background process in a deliberate sleep (checkpointer write delay, vacuum delay): kept only with metrics.ashBackgroundIdle' })),
  weight: Type.Optional(Type.Number({ description: 'fraction of the interval this sample stands for (client-side sampling); default 1' })),
  outside: Type.Optional(
    Type.Boolean({ description: "a session outside the target's database and roles, sampled only with metrics.ashScope 'server': left out of share links and HTML reports" }),
  ),
});
export type AshSample = Type.Static<typeof AshSample>;

/** Sampler status stored with the job: what was sampled, or why not and what to grant or enable. */
export const SamplerStatus = Type.Object({
  ts: Type.Number(),
  sampler: Type.String({ description: 'ash | cpu:<label>' }),
  ok: Type.Boolean(),
  source: Type.Optional(Type.String({ description: 'e.g. pg_stat_activity, pgsentinel, performance_schema' })),
  reason: Type.Optional(Type.String()),
  fix: Type.Optional(Type.String({ description: 'what to grant or enable' })),
});
export type SamplerStatus = Type.Static<typeof SamplerStatus>;

/** GET /jobs/{id}/ash?from&to: load by class over time plus the tops for the range. */
export const AshReport = Type.Object({
  from: Type.Number(),
  to: Type.Number(),
  bucketMs: Type.Integer(),
  /** Average active sessions per class per bucket. */
  series: Type.Array(Type.Object({ ts: Type.Number(), aas: Type.Record(Type.String(), Type.Number()) })),
  topEvents: Type.Array(Type.Object({ event: Type.String(), waitClass: Type.String(), aas: Type.Number(), pct: Type.Number() })),
  topSql: Type.Array(
    Type.Object({ sqlId: Type.String(), sql: Type.String(), aas: Type.Number(), pct: Type.Number(), byClass: Type.Record(Type.String(), Type.Number()) }),
  ),
  topSessions: Type.Array(
    Type.Object({ session: Type.String(), vu: Type.Optional(Type.Integer()), user: Type.Optional(Type.String()), program: Type.Optional(Type.String()), aas: Type.Number(), pct: Type.Number(), byClass: Type.Record(Type.String(), Type.Number()) }),
  ),
  phases: Type.Array(Type.Object({ ts: Type.Number(), label: Type.String() })),
  status: Type.Array(SamplerStatus),
  vcpus: Type.Optional(Type.Integer()),
  hidden: Type.Optional(
    Type.Integer({ description: "samples left out of this view: sessions outside the target's database and roles (metrics.ashScope 'server'), which only the job's own REST and page show" }),
  ),
});
export type AshReport = Type.Static<typeof AshReport>;

/** One CPU line: per-core or 'all', percentages of the interval. */
export const CpuLine = Type.Object({
  cpu: Type.String({ description: "'all' or the core number" }),
  usr: Type.Number(),
  sys: Type.Number(),
  iowait: Type.Number(),
  irq: Type.Number(),
  soft: Type.Number(),
  steal: Type.Number(),
  idle: Type.Number(),
});
export type CpuLine = Type.Static<typeof CpuLine>;

export const CpuSample = Type.Object({
  ts: Type.Number(),
  cpus: Type.Array(CpuLine),
  iops: Type.Number(),
  mbps: Type.Number(),
});
export type CpuSample = Type.Static<typeof CpuSample>;

export const SystemInfo = Type.Object({
  hostname: Type.String(),
  cpuModel: Type.String(),
  cpuCount: Type.Integer(),
  memoryBytes: Type.Number(),
  os: Type.String(),
  kernel: Type.String(),
});
export type SystemInfo = Type.Static<typeof SystemInfo>;

/** CPU agent <-> server, WebSocket /api/v1/agent. */
export const AgentFrame = Type.Union([
  Type.Object({ t: Type.Literal('hello'), label: Type.String({ minLength: 1, maxLength: 100 }), system: SystemInfo }),
  Type.Object({ t: Type.Literal('cpu'), sample: CpuSample }),
]);
export type AgentFrame = Type.Static<typeof AgentFrame>;

/** Metric kinds stored with a job (job store `metrics` by kind). */
export const METRIC_KINDS = { ash: 'ash', cpu: 'cpu', sampler: 'sampler', phase: 'phase', run: 'run', shape: 'shape' } as const;

/**
 * What a run found when it started (metric kind `run`, one sample): the
 * schema's warehouses (a run uses the schema's, not tprocc.warehouses), the
 * virtual users and their worker threads.
 */
export const RunInfo = Type.Object({
  warehouses: Type.Integer(),
  vus: Type.Integer(),
  workers: Type.Integer(),
});
export type RunInfo = Type.Static<typeof RunInfo>;
