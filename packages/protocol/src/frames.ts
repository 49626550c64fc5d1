import Type from 'typebox';
import { ErrorInfo } from './errors.js';
import {
  BuildProgress,
  CheckItem,
  ClientSample,
  EngineSample,
  Job,
  JobResult,
  JobStatusSchema,
  LatencySample,
  OutputLine,
  TimingRow,
  VuStatus,
} from './jobs.js';

/**
 * WebSocket `/api/v1/ws`. One socket carries every live stream.
 *
 * Client -> server: `subscribe` (a job, optionally `since` a sequence number to
 * resume without gaps or duplicates), `unsubscribe`, `jobs` (job list changes).
 * Server -> client: per job a `snapshot` first (everything so far, with the
 * sequence number it is complete up to), then frames whose `seq` increases by
 * one per frame. A client that reconnects sends the last `seq` it applied.
 */
export const ClientFrame = Type.Union(
  [
    Type.Object({ t: Type.Literal('subscribe'), jobId: Type.String(), since: Type.Optional(Type.Integer({ minimum: 0 })) }),
    Type.Object({ t: Type.Literal('unsubscribe'), jobId: Type.String() }),
    Type.Object({ t: Type.Literal('jobs'), on: Type.Boolean() }),
    Type.Object({ t: Type.Literal('ping') }),
  ],
  { $id: 'ClientFrame' },
);
export type ClientFrame = Type.Static<typeof ClientFrame>;

const base = { jobId: Type.String(), seq: Type.Integer() };

export const StatusFrame = Type.Object({ t: Type.Literal('status'), ...base, status: JobStatusSchema, ts: Type.Number(), error: Type.Optional(ErrorInfo) });
export const OutputFrame = Type.Object({ t: Type.Literal('output'), ...base, lines: Type.Array(OutputLine) });
export const TcountFrame = Type.Object({ t: Type.Literal('tcount'), ...base, engine: Type.Array(EngineSample), client: Type.Array(ClientSample) });
export const LatencyFrame = Type.Object({ t: Type.Literal('latency'), ...base, samples: Type.Array(LatencySample) });
export const VusFrame = Type.Object({ t: Type.Literal('vus'), ...base, vus: Type.Array(VuStatus) });
export const ProgressFrame = Type.Object({ t: Type.Literal('progress'), ...base, progress: BuildProgress });
export const ResultFrame = Type.Object({ t: Type.Literal('result'), ...base, result: JobResult, timings: Type.Array(TimingRow) });
/** Extension point for samplers (ASH, CPU agent): the payload is typed by `kind`. */
export const MetricFrame = Type.Object({ t: Type.Literal('metric'), ...base, kind: Type.String(), samples: Type.Array(Type.Unknown()) });

export const Snapshot = Type.Object({
  job: Job,
  seq: Type.Integer({ description: 'the snapshot includes every frame up to and including this seq' }),
  output: Type.Array(OutputLine),
  outputTotal: Type.Integer(),
  engine: Type.Array(EngineSample),
  client: Type.Array(ClientSample),
  latency: Type.Array(LatencySample),
  vus: Type.Array(VuStatus),
  progress: Type.Optional(BuildProgress),
  timings: Type.Array(TimingRow),
  metrics: Type.Record(Type.String(), Type.Array(Type.Unknown())),
  check: Type.Optional(Type.Array(CheckItem)),
});
export type Snapshot = Type.Static<typeof Snapshot>;

export const SnapshotFrame = Type.Object({ t: Type.Literal('snapshot'), jobId: Type.String(), snapshot: Snapshot });
/** A job record changed (status, engine version, summary, result): sent for every job after {t:'jobs',on:true}, else for the jobs the socket subscribed to. */
export const JobFrame = Type.Object({ t: Type.Literal('job'), job: Job });
export const ErrorFrame = Type.Object({ t: Type.Literal('error'), error: ErrorInfo, jobId: Type.Optional(Type.String()) });
export const PongFrame = Type.Object({ t: Type.Literal('pong'), ts: Type.Number() });

export const ServerFrame = Type.Union(
  [StatusFrame, OutputFrame, TcountFrame, LatencyFrame, VusFrame, ProgressFrame, ResultFrame, MetricFrame, SnapshotFrame, JobFrame, ErrorFrame, PongFrame],
  { $id: 'ServerFrame' },
);
export type ServerFrame = Type.Static<typeof ServerFrame>;
export type JobStreamFrame = Extract<ServerFrame, { seq: number }>;
export type StatusFrame = Type.Static<typeof StatusFrame>;
export type OutputFrame = Type.Static<typeof OutputFrame>;
export type TcountFrame = Type.Static<typeof TcountFrame>;
export type LatencyFrame = Type.Static<typeof LatencyFrame>;
export type VusFrame = Type.Static<typeof VusFrame>;
export type ProgressFrame = Type.Static<typeof ProgressFrame>;
export type ResultFrame = Type.Static<typeof ResultFrame>;
export type MetricFrame = Type.Static<typeof MetricFrame>;
export type TimingRowT = Type.Static<typeof TimingRow>;
