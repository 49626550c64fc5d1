import Type from 'typebox';
import { SledgeError } from '../errors.js';

/**
 * Arrival-rate mode (an open model, like k6's constant/ramping-arrival-rate):
 * transactions start at `rate` per second (ramping linearly to `rampTo` over
 * rampup + duration) whatever their response time, each on a free session of
 * at most `maxSessions`; an arrival finding every session busy is dropped.
 * Latency is measured from the intended start.
 */
export const ArrivalOptions = Type.Object(
  {
    rate: Type.Number({ exclusiveMinimum: 0, maximum: 1000000, description: 'transactions started per second' }),
    rampTo: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000000, description: 'rate at the end of rampup + duration, reached linearly' })),
    maxSessions: Type.Integer({ minimum: 1, maximum: 10000, default: 64, description: 'database sessions available to start arrivals on' }),
    graceMs: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 10000, description: 'an arrival no session can start within this many ms of its due time is dropped (default 25: the client\'s own scheduling delays)' }),
    ),
  },
  { additionalProperties: false, title: 'Arrival rate', 'x-group': 'driver' },
);
export type ArrivalOptions = Type.Static<typeof ArrivalOptions>;

export const ArrivalResult = Type.Object({
  targetRate: Type.Number({ description: 'scheduled arrivals per second over the measured window' }),
  achievedRate: Type.Number({ description: 'transactions completed (commit or rollback) per second over the measured window' }),
  sessionsUsed: Type.Integer({ description: 'most sessions running a transaction at once' }),
  maxSessions: Type.Integer(),
  dropped: Type.Integer({ description: 'arrivals in the measured window that found every session busy' }),
  scheduled: Type.Integer({ description: 'arrivals scheduled in the measured window' }),
  latencyFromIntended: Type.Literal(true),
});
export type ArrivalResult = Type.Static<typeof ArrivalResult>;

/** Checks across fields: arrival is for timed runs and cannot be combined with steps or asynchronous scaling. */
export function checkArrival(o: { driver: string; asyncScale: boolean; steps?: unknown; keyAndThink: boolean }, prefix = 'tprocc'): void {
  const f = `${prefix}.arrival`;
  if (o.driver !== 'timed') throw new SledgeError('SLEDGE_E_VALIDATION', `${f} applies to the timed driver: set ${prefix}.driver to "timed" or remove ${f}`, { field: f });
  if (o.steps !== undefined) throw new SledgeError('SLEDGE_E_VALIDATION', `${f} and ${prefix}.steps cannot be combined: the arrival rate decides the load`, { field: f });
  if (o.asyncScale) throw new SledgeError('SLEDGE_E_VALIDATION', `${f} cannot be combined with ${prefix}.asyncScale: maxSessions sets the sessions`, { field: f });
  if (o.keyAndThink) throw new SledgeError('SLEDGE_E_VALIDATION', `${f} cannot be combined with ${prefix}.keyAndThink: the arrival rate paces the transactions`, { field: f });
}
