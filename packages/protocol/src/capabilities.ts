import Type from 'typebox';
import { EngineIdSchema } from './engines.js';

/** What a driver can do; shared code branches on these, never on engine names. */
export const DriverFeatures = Type.Object({
  /** Transactions run as stored procedures/functions in the database. */
  storedProcedures: Type.Boolean(),
  /** Where the TPM figure comes from. */
  tpmSource: Type.Union([Type.Literal('engine'), Type.Literal('client')]),
  /** Bulk path used by schema builds. */
  bulkFormat: Type.String(),
  /** A session may be used by several concurrent async VUs? false = one VU per worker thread. */
  asyncSessions: Type.Boolean(),
  /** The engine needs a superuser to create the database and user. */
  createsDatabase: Type.Boolean(),
  partition: Type.Boolean(),
  /**
   * The engine runs inside this process with one instance of a database file
   * per thread (DuckDB): the server keeps every session of a job on its main
   * thread, VUs included (async loops there, never worker threads or replicas),
   * so the file has one owner. Absent: VUs run on worker threads.
   */
  mainThreadSessions: Type.Optional(Type.Boolean()),
});
export type DriverFeatures = Type.Static<typeof DriverFeatures>;

/** Which loop runs this engine's TPROC-C virtual users by default (vuLoop auto), and what the JavaScript one costs. */
export const VuLoopCapability = Type.Object({
  active: Type.Union([Type.Literal('native'), Type.Literal('javascript')]),
  /** The native loop's name, e.g. "the native libpq loop" (engines whose driver has one). */
  name: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String({ description: 'why the JavaScript loop is in use (and how to get the native one)' })),
  cost: Type.Optional(Type.String({ description: "what the JavaScript loop costs against the native one (measured, docs/benchmarks.md)" })),
});
export type VuLoopCapability = Type.Static<typeof VuLoopCapability>;

export const EngineCapability = Type.Object({
  engine: EngineIdSchema,
  displayName: Type.String(),
  available: Type.Boolean(),
  library: Type.String({ description: 'npm package that talks to the engine' }),
  libraryVersion: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String({ description: 'why the driver does not load' })),
  install: Type.Optional(Type.String({ description: 'exact steps to make it load' })),
  features: Type.Optional(DriverFeatures),
  workloads: Type.Array(Type.String()),
  vuLoop: Type.Optional(VuLoopCapability),
  notOffered: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: 'workloads this engine deliberately does not run, each with the reason (DuckDB: TPROC-C)',
    }),
  ),
  limited: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description:
        'workloads this engine offers in part (they are in `workloads`), each with what it leaves out and why (DuckDB: TPROC-C builds, checks and deletes its schema but runs no transactions; CH-benCHmark runs its analytic streams alone, tprocc.vus 0)',
    }),
  ),
  workloadFeatures: Type.Optional(
    Type.Record(Type.String(), Type.Record(Type.String(), Type.Boolean()), {
      description: "per workload, what this engine does with its options (tproch.dop: a per-session degree of parallelism; false: the option is ignored)",
    }),
  ),
});
export type EngineCapability = Type.Static<typeof EngineCapability>;

export const Capabilities = Type.Object(
  {
    version: Type.String(),
    node: Type.String(),
    engines: Type.Array(EngineCapability),
    generator: Type.Object({
      active: Type.Union([Type.Literal('native'), Type.Literal('typescript')]),
      reason: Type.Optional(Type.String()),
    }),
    cpus: Type.Integer(),
  },
  { $id: 'Capabilities' },
);
export type Capabilities = Type.Static<typeof Capabilities>;

/** Whether an engine's driver does what a workload option asks (capabilities' workloadFeatures, e.g. tproch.dop); false when unknown. */
export function workloadFeature(caps: Capabilities | undefined, engine: string, workload: string, feature: string): boolean {
  return caps?.engines.find((e) => e.engine === engine)?.workloadFeatures?.[workload]?.[feature] === true;
}
