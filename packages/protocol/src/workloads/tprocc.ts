import Type from 'typebox';
import { SledgeError } from '../errors.js';
import { Target } from '../targets.js';
import { DatagenOptions, JobCommonFields, type JobConfigBase, type JobType } from '../job-base.js';
import { Problems, validate } from '../validate.js';
import { isEngineId, type EngineId } from '../engines.js';
import { TproccSchema, normalizeTproccSchema, parseTproccSchema } from './tprocc-schema.js';
import type { WorkloadDef } from './types.js';
import { applyTargetDefaults } from './target-defaults.js';
import type { ThemeColor } from '../palette.js';
import { LoadSteps, StepResult, checkSteps } from '../run/steps.js';
import { ArrivalOptions, ArrivalResult, checkArrival } from '../run/arrival.js';
import { CapacityOptions, CapacityResult, checkCapacity } from '../run/capacity.js';
import { PoolResultFields } from '../run/pool.js';
import { PlacementResultFields } from '../run/placement.js';
import { KeyThinkTable } from '../run/keythink.js';
import { FaultOptionFields, FaultResultFields } from '../run/errors.js';
import { Validity } from '../run/validity.js';

/** The five TPROC-C transactions, in HammerDB's report order. */
export const TX_TYPES = ['neworder', 'payment', 'delivery', 'stocklevel', 'orderstatus'] as const;
export type TxType = (typeof TX_TYPES)[number];
/** HammerDB's procedure names (time profile rows, JOBTIMING.procname). */
export const TX_PROC: Record<TxType, string> = {
  neworder: 'NEWORD',
  payment: 'PAYMENT',
  delivery: 'DELIVERY',
  stocklevel: 'SLEV',
  orderstatus: 'OSTAT',
};

/** Each transaction's colour in charts, light and dark (dashboard and HTML report). */
export const TX_COLORS: Record<TxType, ThemeColor> = {
  neworder: { light: '#2563eb', dark: '#60a5fa' },
  payment: { light: '#16a34a', dark: '#4ade80' },
  delivery: { light: '#d97706', dark: '#fbbf24' },
  stocklevel: { light: '#9333ea', dark: '#c084fc' },
  orderstatus: { light: '#0891b2', dark: '#22d3ee' },
};

/** The nine TPROC-C tables in load order. */
export const TPROCC_TABLES = [
  'item',
  'warehouse',
  'stock',
  'district',
  'customer',
  'history',
  'orders',
  'new_order',
  'order_line',
] as const;
export type TproccTable = (typeof TPROCC_TABLES)[number];

/** Valid TPROC-C warehouse count range (HammerDB: up to 100000). */
export const MAX_WAREHOUSES = 100000;
export const MAX_BUILD_VUS = 1024;
export const MAX_VUS = 10000;

const Minutes = (title: string, def: number, min: number) =>
  Type.Number({ title, default: def, minimum: min, maximum: 10080, description: 'minutes; fractions allowed (0.5 = 30 s)', 'x-group': 'driver' });

export const TproccMix = Type.Object(
  {
    neworder: Type.Integer({ minimum: 0, maximum: 1000, default: 10 }),
    payment: Type.Integer({ minimum: 0, maximum: 1000, default: 10 }),
    delivery: Type.Integer({ minimum: 0, maximum: 1000, default: 1 }),
    stocklevel: Type.Integer({ minimum: 0, maximum: 1000, default: 1 }),
    orderstatus: Type.Integer({ minimum: 0, maximum: 1000, default: 1 }),
  },
  {
    additionalProperties: false,
    title: 'Transaction mix weights',
    description: "Relative weights; HammerDB's mix is RandomNumber(1,23): 10/10/1/1/1.",
  },
);
export type TproccMix = Type.Static<typeof TproccMix>;
export const DEFAULT_MIX: TproccMix = { neworder: 10, payment: 10, delivery: 1, stocklevel: 1, orderstatus: 1 };

/**
 * HammerDB's standard mix: weights in the proportions 10/10/1/1/1 (43.48% new
 * order, 43.48% payment, 4.35% each of the rest). 20/20/2/2/2 draws the same
 * shares and counts as standard; any other table does not, and its NOPM is not
 * comparable with HammerDB's standard runs.
 */
export function isStandardMix(mix: TproccMix): boolean {
  const unit = mix.delivery;
  return unit > 0 && TX_TYPES.every((t) => mix[t] === DEFAULT_MIX[t] * unit);
}

/** "neworder 100, payment 0, ..." in TX_TYPES order: the mix as a result line or a note names it. */
export function mixText(mix: TproccMix): string {
  return TX_TYPES.map((t) => `${t} ${mix[t]}`).join(', ');
}

/**
 * "neworder=45,payment=43,delivery=4" (the CLI's --mix): the whole weight
 * table, the types left out at 0, so "neworder=100" is a new-order-only mix.
 * Throws an Error naming the part at fault; the server checks the weights'
 * ranges and that one of them is above 0.
 */
export function parseMixSpec(spec: string): TproccMix {
  const out: TproccMix = { neworder: 0, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 };
  const parts = spec.split(',').map((s) => s.trim()).filter(Boolean);
  if (!parts.length) throw new Error(`it needs TYPE=WEIGHT pairs with TYPE one of ${TX_TYPES.join(', ')} (e.g. neworder=100)`);
  const seen = new Set<string>();
  for (const part of parts) {
    const m = /^([a-z]+)\s*=\s*(\d+)$/i.exec(part);
    const type = m?.[1]!.toLowerCase();
    if (!m || !(TX_TYPES as readonly string[]).includes(type!)) {
      throw new Error(`"${part}" is not TYPE=WEIGHT with TYPE one of ${TX_TYPES.join(', ')} and WEIGHT a whole number (e.g. neworder=100)`);
    }
    if (seen.has(type!)) throw new Error(`${type!} is given twice: give each type once`);
    seen.add(type!);
    out[type as TxType] = Number(m[2]);
  }
  return out;
}

/**
 * TPROC-C options: schema (build) and driver (run). Names follow HammerDB's
 * keys without the engine prefix (count_ware -> warehouses, num_vu ->
 * buildVus, ...). Defaults are HammerDB's.
 */
const TproccOptionFields = {
    warehouses: Type.Integer({ title: 'Warehouses', default: 1, minimum: 1, maximum: MAX_WAREHOUSES, 'x-group': 'schema' }),
    buildVus: Type.Integer({
      title: 'Build virtual users',
      description: 'Parallel build workers; at most the number of warehouses',
      default: 1,
      minimum: 1,
      maximum: MAX_BUILD_VUS,
      'x-group': 'schema',
    }),
    driver: Type.Union([Type.Literal('test'), Type.Literal('timed')], { title: 'Driver', default: 'timed', 'x-group': 'driver' }),
    vus: Type.Integer({ title: 'Virtual users', default: 1, minimum: 1, maximum: MAX_VUS, 'x-group': 'driver' }),
    rampup: Minutes('Rampup (minutes)', 2, 0),
    duration: Minutes('Duration (minutes)', 5, 0.05),
    totalIterations: Type.Integer({
      title: 'Total iterations',
      description: 'Transactions per VU before it stops (the timed driver stops at the end of the window first)',
      default: 10000000,
      minimum: 1,
      maximum: 2000000000,
      'x-group': 'driver',
    }),
    keyAndThink: Type.Boolean({ title: 'Keying and thinking time', default: false, 'x-group': 'driver' }),
    keyThink: KeyThinkTable,
    allWarehouse: Type.Boolean({ title: 'Use all warehouses', default: false, 'x-group': 'driver' }),
    timeProfile: Type.Boolean({
      title: 'Per-VU time profile',
      description: 'Latency histograms are always kept; this adds per-VU rows to the time profile',
      default: false,
      'x-group': 'driver',
    }),
    raiseError: Type.Boolean({ title: 'Raise errors (stop the VU on a database error)', default: false, 'x-group': 'driver' }),
    userDelayMs: Type.Integer({ title: 'User delay (ms between VU starts)', default: 500, minimum: 0, maximum: 600000, 'x-group': 'driver' }),
    repeatDelayMs: Type.Integer({ title: 'Repeat delay (ms)', default: 500, minimum: 0, maximum: 600000, 'x-group': 'driver' }),
    iterations: Type.Integer({ title: 'Iterations (script repeats per VU)', default: 1, minimum: 1, maximum: 1000000, 'x-group': 'driver' }),
    tcRefreshSec: Type.Integer({ title: 'Transaction counter interval (s)', default: 10, minimum: 1, maximum: 59, 'x-group': 'driver' }),
    asyncScale: Type.Boolean({ title: 'Asynchronous scaling', default: false, 'x-group': 'driver' }),
    asyncClients: Type.Integer({ title: 'Async clients per VU', default: 10, minimum: 1, maximum: 1000, 'x-group': 'driver' }),
    asyncDelayMs: Type.Integer({ title: 'Async client login delay (ms)', default: 1000, minimum: 0, maximum: 600000, 'x-group': 'driver' }),
    asyncVerbose: Type.Boolean({ title: 'Log every async client step', description: "HammerDB's async_verbose: each client's login, keying, transaction and thinking", default: false, 'x-group': 'driver' }),
    workers: Type.Integer({
      title: 'Worker threads',
      description: 'Threads hosting the VUs; 0 = min(VUs, CPU cores)',
      default: 0,
      minimum: 0,
      maximum: 256,
      'x-group': 'driver',
    }),
    mix: TproccMix,
    verify: Type.Optional(
      Type.Boolean({
        title: 'Verify consistency after the run',
        description: "Run checkschema's TPROC-C consistency conditions (C1-C4) on the schema after the measured window; the outcome is a check of the run's validity verdict",
        'x-group': 'driver',
      }),
    ),
    ...FaultOptionFields,
    steps: Type.Optional(LoadSteps),
    arrival: Type.Optional(ArrivalOptions),
    capacity: Type.Optional(CapacityOptions),
};
/** The options checked alike whatever the engine (schema options are checked against the target's engine). */
const TproccCommonOptions = Type.Object(TproccOptionFields, { additionalProperties: false });
export const TproccOptions = Type.Object(
  { ...TproccOptionFields, schema: TproccSchema },
  { additionalProperties: false, $id: 'TproccOptions', title: 'TPROC-C' },
);
export type TproccOptions = Omit<Type.Static<typeof TproccOptions>, 'schema'> & { schema: TproccSchema };

export const TproccResult = Type.Object(
  {
    nopm: Type.Integer(),
    tpm: Type.Integer(),
    activeVus: Type.Integer(),
    sessions: Type.Optional(Type.Integer({ description: 'database sessions configured: VUs x async clients (VUs without async scaling)' })),
    tpmSource: Type.Union([Type.Literal('engine'), Type.Literal('client')], {
      description: "engine = the database's own commit+rollback counter; client = counted by Sledge (SQLite)",
    }),
    line: Type.String({ description: 'TEST RESULT : System achieved <NOPM> NOPM from <TPM> <Engine> TPM' }),
    tpmCounterReset: Type.Optional(
      Type.Boolean({
        description:
          "the engine's commit+rollback counter was reset in the measured window (a server restart, a stats reset): TPM is the sum of the monitor's non-negative per-interval deltas, not end - start",
      }),
    ),
    measuredSeconds: Type.Number(),
    clientCpuMsPer1000Tx: Type.Optional(Type.Number()),
    transactions: Type.Optional(Type.Integer({ description: 'client-side commits+rollbacks in the measured window' })),
    warehouses: Type.Optional(Type.Integer({ description: "warehouses in the schema the run used (a run uses the schema's, not tprocc.warehouses)" })),
    steps: Type.Optional(Type.Array(StepResult, { description: 'step loads: each step\'s NOPM/TPM and latency (tprocc.steps)' })),
    arrival: Type.Optional(ArrivalResult),
    capacity: Type.Optional(CapacityResult),
    validity: Type.Optional(Validity),
    mix: Type.Optional(TproccMix),
    standardMix: Type.Optional(
      Type.Boolean({ description: "false when the mix is not HammerDB's standard 10/10/1/1/1 (in proportion): NOPM is then not comparable with HammerDB's standard runs" }),
    ),
    ...PoolResultFields,
    ...FaultResultFields,
    ...PlacementResultFields,
  },
  { $id: 'TproccResult' },
);
export type TproccResult = Type.Static<typeof TproccResult>;

/** TPROC-C's POST /jobs body: `workload` may be left out (a body without it is TPROC-C, as before workloads were an axis). */
export const TproccJobCreate = Type.Object(
  {
    type: JobCommonFields.type,
    workload: Type.Optional(Type.Literal('tprocc')),
    target: Target,
    tprocc: Type.Optional(Type.Partial(TproccOptions)),
    seed: JobCommonFields.seed,
    label: JobCommonFields.label,
    profileId: JobCommonFields.profileId,
    metrics: JobCommonFields.metrics,
    configId: JobCommonFields.configId,
    thresholds: JobCommonFields.thresholds,
    baseline: JobCommonFields.baseline,
    placement: JobCommonFields.placement,
    datagen: Type.Optional(DatagenOptions),
  },
  { additionalProperties: false, title: 'TPROC-C job' },
);
export type TproccJobCreate = Type.Static<typeof TproccJobCreate>;

/** A TPROC-C job body with every default filled in and secrets kept (server side only). */
export interface TproccJobConfig extends JobConfigBase {
  workload: 'tprocc';
  tprocc: TproccOptions;
  /** Present exactly when type is 'datagen' (the target then only labels the job). */
  datagen?: DatagenOptions;
}

/** The options of a TPROC-C job (workload 'tprocc'). */
export function isTproccConfig(cfg: { workload: string }): cfg is TproccJobConfig {
  return cfg.workload === 'tprocc';
}

/**
 * Validate TPROC-C options, apply defaults, and check the rules that span
 * fields. `schema` is checked against the target's engine (`engine`); left
 * out, it is checked as any engine's (the form's check before it knows it).
 */
export function parseTproccOptions(value: unknown, prefix = 'tprocc', engine?: EngineId): TproccOptions {
  const v = value === undefined ? {} : value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix} must be an object`, { field: prefix });
  }
  const { schema: rawSchema, ...raw } = v as Record<string, unknown>;
  if (raw['mix'] === undefined) raw['mix'] = { ...DEFAULT_MIX };
  const p = new Problems();
  const common = p.check(() => validate(TproccCommonOptions, raw, prefix));
  const schema = p.check(() => (engine ? parseTproccSchema(engine, rawSchema, `${prefix}.schema`) : validate(TproccSchema, rawSchema ?? {}, `${prefix}.schema`)));
  p.throwIfAny();
  const o: TproccOptions = { ...common!, schema: schema! };
  if (o.buildVus > o.warehouses) {
    throw new SledgeError(
      'SLEDGE_E_VALIDATION',
      `${prefix}.buildVus (${o.buildVus}) must not exceed ${prefix}.warehouses (${o.warehouses}): each build VU loads at least one warehouse`,
      { field: `${prefix}.buildVus` },
    );
  }
  if (o.steps !== undefined) {
    if (o.driver !== 'timed') throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix}.steps applies to the timed driver: set ${prefix}.driver to "timed" or remove ${prefix}.steps`, { field: `${prefix}.steps` });
    checkSteps(o.steps, o.rampup, o.duration, prefix);
  }
  if (o.arrival !== undefined) checkArrival(o, prefix);
  if (o.capacity !== undefined) checkCapacity(o, prefix);
  const m = o.mix;
  if (m.neworder + m.payment + m.delivery + m.stocklevel + m.orderstatus <= 0) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix}.mix must give at least one transaction a weight above 0`, { field: `${prefix}.mix` });
  }
  return o;
}

/** datagen options: required for (and only for) datagen jobs; workers <= warehouses as HammerDB's dgset. */
function parseDatagen(type: JobType, value: unknown, warehouses: number): DatagenOptions | undefined {
  if (type !== 'datagen') {
    if (value !== undefined) throw new SledgeError('SLEDGE_E_VALIDATION', `datagen applies only to jobs of type "datagen": remove it`, { field: 'datagen' });
    return undefined;
  }
  if (value === undefined) {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'datagen is required for a datagen job: give { dir, workers }', { field: 'datagen' });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'datagen must be an object { dir, workers }', { field: 'datagen' });
  }
  const d = validate(DatagenOptions, value, 'datagen');
  if (d.dir.trim() === '' || d.dir.includes('\0')) {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'datagen.dir must name a directory', { field: 'datagen.dir' });
  }
  if (d.workers > warehouses) {
    throw new SledgeError(
      'SLEDGE_E_VALIDATION',
      `datagen.workers (${d.workers}) must not exceed tprocc.warehouses (${warehouses}): each worker writes at least one warehouse`,
      { field: 'datagen.workers' },
    );
  }
  return d;
}

/** TPROC-C's part of a job configuration: { tprocc, datagen? }. */
function parseTproccJob(b: Record<string, unknown>, type: JobType | undefined, p: Problems): Record<string, unknown> | undefined {
  if (type === 'run' && b['tprocc'] === undefined) {
    // Deliberate: a run is never started on defaults nobody asked for (HammerDB's are a 7-minute timed run).
    p.add('tprocc', 'tprocc is required for a run: set tprocc.vus, tprocc.rampup and tprocc.duration (minutes), or send {} to accept the defaults (1 VU, a timed run of 2 + 5 = 7 minutes)');
  }
  const engine = isRecord(b['target']) && isEngineId(b['target']['engine']) ? b['target']['engine'] : undefined;
  const tprocc = p.check(() => parseTproccOptions(b['tprocc'], 'tprocc', engine));
  const datagen = type && tprocc ? p.check(() => parseDatagen(type, b['datagen'], tprocc.warehouses)) : undefined;
  if (!tprocc) return undefined;
  return datagen ? { tprocc, datagen } : { tprocc };
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * TPROC-C's own target defaults: a DuckDB TPROC-C schema (built for
 * CH-benCHmark, no transactions) lives in tprocc.duckdb, not in the DuckDB
 * target's default tproch.duckdb. Other engines keep their target schema's.
 */
export const TPROCC_TARGET_DEFAULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  duckdb: { file: 'tprocc.duckdb' },
};

/** TPROC-C's body normalization: the schema options' older shapes, then TPROC-C's target defaults. */
function normalizeTproccBody<B>(body: B): B {
  const b = normalizeTproccSchema(body);
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return b;
  const r = b as Record<string, unknown>;
  const t = r['target'];
  if (t === null || typeof t !== 'object' || Array.isArray(t)) return b;
  return { ...r, target: applyTargetDefaults(TPROCC_TARGET_DEFAULTS[String((t as Record<string, unknown>)['engine'])], t) } as B;
}

/** TPROC-C as protocol knows it. */
export const TPROCC: WorkloadDef = {
  id: 'tprocc',
  display: 'TPROC-C',
  optionsKey: 'tprocc',
  operations: TX_TYPES,
  options: TproccOptions,
  result: TproccResult,
  headline: { field: 'nopm', unit: 'NOPM' },
  timingNames: TX_PROC,
  summary: (r) => `${String(r['nopm'])} NOPM, ${String(r['tpm'])} TPM, ${String(r['activeVus'])} VU${r['standardMix'] === false ? ', non-standard mix' : ''}`,
  body: TproccJobCreate,
  parsedFields: ['tprocc', 'datagen'],
  parse: parseTproccJob,
  normalize: normalizeTproccBody,
  targetDefaults: TPROCC_TARGET_DEFAULTS,
  connectPool: true,
  replicas: true,
  tables: TPROCC_TABLES,
  operationColor: (op) => TX_COLORS[op as TxType],
  measuredWindow: (o) => ((o as Partial<TproccOptions> | undefined)?.driver === 'test' ? 'a test-driver run (tprocc.driver "test") has no measured window: use the timed driver' : true),
};
