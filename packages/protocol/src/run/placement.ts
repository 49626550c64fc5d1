import Type from 'typebox';
import { StringEnum } from '../util.js';

/** A replica's name: what `sledge replica --name` announces (also a NATS subject token). */
export const REPLICA_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$';
export const ReplicaName = Type.String({ pattern: REPLICA_NAME_PATTERN, description: 'letters, digits, - and _ (at most 63), starting with a letter or digit' });

/**
 * Where a run's virtual users run (a run job's `placement`). `local` (the
 * default): in this server's worker threads. `replicas`: on `sledge replica`
 * processes joined over NATS: the named ones (`replicas`), or every replica
 * ready when the job starts; `vus` gives each named replica its VU count
 * (the counts add up to the run's VUs), otherwise the VUs are spread evenly
 * (the first replicas, by name, take one more when they do not divide).
 */
export const Placement = Type.Object(
  {
    on: StringEnum(['local', 'replicas'] as const, { description: 'local: this server runs the VUs; replicas: replicas joined over NATS run them' }),
    replicas: Type.Optional(Type.Array(ReplicaName, { minItems: 1, maxItems: 1000, uniqueItems: true, description: 'the replicas to use (default: every replica ready when the job starts)' })),
    vus: Type.Optional(
      Type.Record(Type.String({ pattern: REPLICA_NAME_PATTERN }), Type.Integer({ minimum: 0 }), {
        description: 'VUs per replica by name (their sum is the run\'s VUs); default: an even spread',
      }),
    ),
  },
  { additionalProperties: false, $id: 'Placement' },
);
export type Placement = Type.Static<typeof Placement>;

/** What a run placed on replicas records per replica (result.replicas). */
export const ReplicaRunFields = Type.Object(
  {
    name: Type.String(),
    /** HammerDB VU positions (2..) this replica ran. */
    vus: Type.Array(Type.Integer()),
    /** Client-side commits + rollbacks in the measured window, and per minute of it. */
    transactions: Type.Integer(),
    clientTpm: Type.Integer({ description: 'client-side transactions per minute in the measured window (this replica\'s VUs)' }),
    /** VUs that ended normally (finished), of `vus`. */
    finishedVus: Type.Integer(),
    /** Set when the replica stopped heartbeating during the run: when (epoch ms), and the run went on without it. */
    lostAt: Type.Optional(Type.Number()),
    version: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type ReplicaRunFields = Type.Static<typeof ReplicaRunFields>;

/** Result fields of a run placed on replicas. */
export const PlacementResultFields = {
  replicas: Type.Optional(Type.Array(ReplicaRunFields, { description: 'runs placed on replicas: which replica ran which VUs, its client TPM, whether it was lost' })),
  vusFinished: Type.Optional(Type.Integer({ description: 'runs placed on replicas: VUs that finished (a lost replica\'s VUs did not)' })),
};
