import Type from 'typebox';
import { StringEnum } from '../util.js';

/**
 * Error classes of a run: every engine's error codes map into these (the
 * driver's classifyError). serialization includes deadlocks; timeout is a
 * lock wait or statement timeout; connection is a lost or refused session.
 */
export const ERROR_CLASSES = ['serialization', 'connection', 'timeout', 'constraint', 'other'] as const;
export type ErrorClassName = (typeof ERROR_CLASSES)[number];
export const ErrorClassSchema = StringEnum(ERROR_CLASSES);

/** Failover options of a run (tprocc.reconnect, tprocc.maxTries, tprocc.retryOn). */
export const FaultOptionFields = {
  reconnect: Type.Boolean({
    title: 'Reconnect lost sessions',
    description: 'On a lost or refused connection a VU closes its session, backs off (0.5 s doubling to 5 s) and reconnects; off: the VU ends',
    default: true,
    'x-group': 'driver',
  }),
  maxTries: Type.Integer({
    title: 'Max tries per transaction',
    description: "Tries of one transaction on an error of a retryOn class (pgbench's --max-tries); 1 = no retry",
    default: 1,
    minimum: 1,
    maximum: 100,
    'x-group': 'driver',
  }),
  retryOn: Type.Array(ErrorClassSchema, {
    title: 'Retry on error classes',
    description: 'Classes whose errors are retried up to maxTries, comma-separated: serialization (includes deadlocks), connection, timeout, constraint, other',
    default: ['serialization'],
    uniqueItems: true,
    maxItems: ERROR_CLASSES.length,
    'x-group': 'driver',
  }),
};

const ByClass = Type.Record(Type.String(), Type.Integer(), { description: 'count per error class' });
const ByOpClass = Type.Record(Type.String(), ByClass, { description: 'per operation: count per error class' });
const Counted = Type.Object({ total: Type.Integer(), byClass: ByClass, byOp: ByOpClass });
export type ErrorCounts = Type.Static<typeof Counted>;

export const Disruption = Type.Object({
  at: Type.Number({ description: 'unix ms' }),
  kind: Type.Union([Type.Literal('drop'), Type.Literal('back')]),
  sessions: Type.Integer({ description: 'sessions lost (drop) or reconnected (back) in that second' }),
});
export type Disruption = Type.Static<typeof Disruption>;

/** What a run survived: errors and retries by class, first-try commits, the timeline of dropped and restored sessions. */
export const FaultResultFields = {
  errors: Type.Optional(Counted),
  retries: Type.Optional(Counted),
  firstTryCommits: Type.Optional(Type.Integer({ description: 'commits (and expected rollbacks) that needed no retry, whole run' })),
  disruptions: Type.Optional(Type.Array(Disruption)),
  monitorReconnects: Type.Optional(Type.Integer({ description: "times the monitor's own session was lost and reopened" })),
  survived: Type.Optional(Type.String({ description: 'one line: what the run survived' })),
};

/** Job metric kinds of a run's faults: `errors` (cumulative counts, one sample per second they change) and `disruption` (the timeline marks). */
export const FAULT_METRICS = { errors: 'errors', disruption: 'disruption' } as const;

/** One `errors` metric sample: cumulative counts since the run started. */
export const ErrorsSample = Type.Object({
  errors: Type.Record(Type.String(), Type.Integer()),
  retries: Type.Record(Type.String(), Type.Integer()),
  byOp: Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer())),
  drops: Type.Integer(),
  backs: Type.Integer(),
});
export type ErrorsSample = Type.Static<typeof ErrorsSample>;
