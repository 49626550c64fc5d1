import Type from 'typebox';
import { StringEnum } from './util.js';

/** A replica as the primary sees it (GET /api/v1/replicas). */
export const ReplicaInfo = Type.Object(
  {
    name: Type.String(),
    key: Type.Optional(Type.String({ description: "fingerprint of the replica's signing key: one per replica process (a restarted replica has another); the primary accepts frames of a job only from the key it placed the job on" })),
    version: Type.String({ description: 'the replica\'s Sledge version' }),
    versionMatch: Type.Boolean({ description: 'false when the replica runs another Sledge version than this server (its numbers may not compare)' }),
    host: Type.String({ description: 'the replica\'s host name' }),
    cores: Type.Integer(),
    drivers: Type.Array(Type.String(), { description: 'engines whose client library loads on the replica' }),
    state: StringEnum(['ready', 'busy', 'lost', 'left'] as const, {
      description: "ready: idle; busy: running a job's VUs; lost: no heartbeat for the loss timeout (killed, cut off); left: it said it leaves (a clean stop: SIGTERM, SIGINT)",
    }),
    /** The job whose VUs it runs (busy). */
    jobId: Type.Union([Type.String(), Type.Null()]),
    /** CPU busy % of the replica's machine over its last heartbeat interval (all cores), and its process's own. */
    cpuPct: Type.Union([Type.Number(), Type.Null()]),
    processCpuPct: Type.Union([Type.Number(), Type.Null()]),
    joinedAt: Type.Number(),
    lastSeenAt: Type.Number(),
  },
  { $id: 'ReplicaInfo' },
);
export type ReplicaInfo = Type.Static<typeof ReplicaInfo>;

/** This server's own connection to NATS (nats.js status events): replicas can be reached only while it is connected. */
export const NatsConnectionState = Type.Object(
  {
    state: StringEnum(['connected', 'reconnecting', 'closed'] as const, {
      description: "connected; reconnecting: the connection was lost (NATS stopped, network cut) and the server keeps trying; closed: it ended for good (scale-out is off until this server restarts)",
    }),
    /** When it entered this state (epoch ms). */
    since: Type.Number(),
    /** Why, when it is not connected (the error nats.js reported, if any). */
    reason: Type.Optional(Type.String()),
  },
  { $id: 'NatsConnectionState' },
);
export type NatsConnectionState = Type.Static<typeof NatsConnectionState>;

/** GET /api/v1/replicas: whether scale-out is on (SLEDGE_NATS_URL), the NATS server, and the replicas. */
export const ReplicaList = Type.Object(
  {
    enabled: Type.Boolean(),
    /** The NATS URL without credentials, when enabled. */
    nats: Type.Union([Type.String(), Type.Null()]),
    /** Whether the connection to NATS authenticates (credentials go to replicas only when it does). */
    authenticated: Type.Boolean(),
    /** The connection's state now (absent when scale-out is off). */
    connection: Type.Optional(NatsConnectionState),
    version: Type.String({ description: 'this server\'s Sledge version' }),
    now: Type.Number({ description: "this server's clock (epoch ms) when it answered: a replica's heartbeat age is now - lastSeenAt, whatever the browser's clock says" }),
    replicas: Type.Array(ReplicaInfo),
  },
  { $id: 'ReplicaList' },
);
export type ReplicaList = Type.Static<typeof ReplicaList>;
