import Type from 'typebox';

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
 * TPROC-C options: schema (build) and driver (run). Names follow HammerDB's
 * keys without the engine prefix (count_ware -> warehouses, num_vu ->
 * buildVus, ...). Defaults are HammerDB's.
 */
export const TproccOptions = Type.Object(
  {
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
    workers: Type.Integer({
      title: 'Worker threads',
      description: 'Threads hosting the VUs; 0 = min(VUs, CPU cores)',
      default: 0,
      minimum: 0,
      maximum: 256,
      'x-group': 'driver',
    }),
    mix: TproccMix,
  },
  { additionalProperties: false, $id: 'TproccOptions', title: 'TPROC-C' },
);
export type TproccOptions = Type.Static<typeof TproccOptions>;
