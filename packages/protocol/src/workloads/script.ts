import Type from 'typebox';
import { Target } from '../targets.js';
import { JobCommonFields, type JobConfigBase, type JobType } from '../job-base.js';
import { Problems, validate } from '../validate.js';
import type { WorkloadDef } from './types.js';
import { applyTargetDefaults } from './target-defaults.js';
import { MAX_VUS } from './tprocc.js';
import { FaultOptionFields, FaultResultFields } from '../run/errors.js';
import { LoadSteps, StepResult, checkSteps } from '../run/steps.js';
import { ArrivalOptions, ArrivalResult, checkArrival } from '../run/arrival.js';
import { PlacementResultFields } from '../run/placement.js';

/**
 * The script workload (docs/script-workload.md): a user's pgbench scripts,
 * or pgbench's built-in ones, run unchanged by virtual users on any engine
 * with a parameter session (Driver.openParamSession). Each script is an
 * operation with its own counters, latency and errors; its name is the
 * operation's name. The scripts' syntax is checked by the server before the
 * job is stored (protocol imports no parser), with line and column.
 */

/** pgbench's built-in scripts (their text is in packages/sql/script/builtin/). */
export const BUILTIN_SCRIPTS = ['tpcb-like', 'simple-update', 'select-only'] as const;
export type BuiltinScript = (typeof BUILTIN_SCRIPTS)[number];

/** pgbench's tables, built by a script build job (pgbench -i). */
export const SCRIPT_TABLES = ['pgbench_accounts', 'pgbench_branches', 'pgbench_tellers', 'pgbench_history'] as const;

export const MAX_SCRIPTS = 32;
export const MAX_SCRIPT_CHARS = 256 * 1024;
export const MAX_SCRIPT_SCALE = 100000;

export const ScriptEntry = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.@-]+$', description: 'operation name (default: the built-in name, or script<N>)' })),
    text: Type.Optional(Type.String({ maxLength: MAX_SCRIPT_CHARS, description: "the script in pgbench's script language" })),
    builtin: Type.Optional(Type.Union(BUILTIN_SCRIPTS.map((b) => Type.Literal(b)), { description: "one of pgbench's built-in scripts" })),
    weight: Type.Integer({ minimum: 0, maximum: 1000000, default: 1, description: 'relative frequency (pgbench @weight)' }),
  },
  { additionalProperties: false },
);
export type ScriptEntry = Type.Static<typeof ScriptEntry>;

const Minutes = (title: string, def: number, min: number) =>
  Type.Number({ title, default: def, minimum: min, maximum: 10080, description: 'minutes; fractions allowed (0.5 = 30 s)', 'x-group': 'driver' });

export const ScriptOptions = Type.Object(
  {
    scripts: Type.Array(ScriptEntry, { minItems: 1, maxItems: MAX_SCRIPTS, default: [{ builtin: 'tpcb-like', weight: 1 }], description: 'scripts and their weights; each VU picks one per transaction by weight' }),
    vus: Type.Integer({ title: 'Virtual users (pgbench clients)', default: 1, minimum: 1, maximum: MAX_VUS, 'x-group': 'driver' }),
    rampup: Minutes('Rampup (minutes)', 0, 0),
    duration: Minutes('Duration (minutes)', 1, 0.01),
    scale: Type.Integer({ title: 'Scale', description: "build: pgbench's -s (100,000 accounts per unit); run: :scale (0 = the pgbench_branches row count, 1 without that table)", default: 0, minimum: 0, maximum: MAX_SCRIPT_SCALE }),
    workers: Type.Integer({ title: 'Worker threads (0 = automatic)', default: 0, minimum: 0, maximum: 1024, 'x-group': 'driver' }),
    // pgbench's -j: the native loop's threads, each driving several VUs' connections (absent or 0: one per core).
    threads: Type.Optional(
      Type.Integer({
        title: 'Native threads (0 = one per core)',
        description: "the native libpq loop's threads in each VU worker thread, each driving its share of the VUs' connections from one poll loop (pgbench's -j); 0 = one per core; never more than the VUs. The JavaScript loop does not use it",
        minimum: 0,
        maximum: MAX_VUS,
        'x-group': 'driver',
      }),
    ),
    // pgbench's --max-tries: a script run that failed on an error of a retryOn class runs again with the same random draws.
    maxTries: Type.Optional(FaultOptionFields.maxTries),
    retryOn: Type.Optional(FaultOptionFields.retryOn),
    steps: Type.Optional(LoadSteps),
    arrival: Type.Optional(ArrivalOptions),
  },
  { additionalProperties: false, $id: 'ScriptOptions', title: 'Script workload (pgbench scripts)' },
);
export type ScriptOptions = Type.Static<typeof ScriptOptions>;

/** One script's figures over the measured window. */
export const ScriptOpResult = Type.Object({
  name: Type.String(),
  weight: Type.Integer(),
  transactions: Type.Integer(),
  errors: Type.Integer(),
  tps: Type.Number(),
});
export type ScriptOpResult = Type.Static<typeof ScriptOpResult>;

export const ScriptResult = Type.Object(
  {
    /** Script executions per second over the window (pgbench's tps, without connection time). */
    tps: Type.Number(),
    transactions: Type.Integer(),
    /** Script executions that failed in the window (by class and script: `errors`, whole run). */
    failed: Type.Integer(),
    measuredSeconds: Type.Number(),
    activeVus: Type.Integer(),
    scale: Type.Integer(),
    scripts: Type.Array(ScriptOpResult),
    clientCpuMsPer1000: Type.Optional(Type.Number()),
    line: Type.String(),
    steps: Type.Optional(Type.Array(StepResult, { description: "step loads: each step's TPS (tps), transactions and latency per script (script.steps; nopm/tpm are 0)" })),
    arrival: Type.Optional(ArrivalResult),
    ...FaultResultFields,
    ...PlacementResultFields,
  },
  { $id: 'ScriptResult' },
);
export type ScriptResult = Type.Static<typeof ScriptResult>;

export const ScriptJobCreate = Type.Object(
  {
    type: JobCommonFields.type,
    workload: Type.Literal('script'),
    target: Target,
    script: Type.Optional(Type.Partial(ScriptOptions)),
    seed: JobCommonFields.seed,
    label: JobCommonFields.label,
    profileId: JobCommonFields.profileId,
    metrics: JobCommonFields.metrics,
    configId: JobCommonFields.configId,
    thresholds: JobCommonFields.thresholds,
    baseline: JobCommonFields.baseline,
    placement: JobCommonFields.placement,
  },
  { additionalProperties: false, title: 'Script (pgbench) job' },
);
export type ScriptJobCreate = Type.Static<typeof ScriptJobCreate>;

/** A resolved script: built-ins have their text filled in by the server before the job is stored. */
export interface ResolvedScriptEntry {
  name: string;
  text: string;
  weight: number;
  builtin?: BuiltinScript;
}

/** A script job with every default filled in (server side). */
export interface ScriptJobConfig extends JobConfigBase {
  workload: 'script';
  script: Omit<ScriptOptions, 'scripts'> & { scripts: ResolvedScriptEntry[] };
}

/** Its own database and file, so a pgbench build never drops another workload's schema. */
export const SCRIPT_TARGET_DEFAULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  sqlite: { file: 'pgbench.sqlite' },
  postgresql: { database: 'pgbench' },
  mysql: { database: 'pgbench' },
  mariadb: { database: 'pgbench' },
  mssql: { database: 'pgbench' },
  db2: { database: 'pgbench' },
  duckdb: { file: 'pgbench.duckdb' },
};

function normalizeScriptBody<B>(body: B): B {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const r = body as Record<string, unknown>;
  if (r['target'] === null || typeof r['target'] !== 'object' || Array.isArray(r['target'])) return body;
  return { ...r, target: applyTargetDefaults(SCRIPT_TARGET_DEFAULTS[String((r['target'] as Record<string, unknown>)['engine'])], r['target']) } as B;
}

/** The `script` options with defaults, each entry's name settled; every field error reported. */
export function parseScriptOptions(value: unknown, p: Problems, prefix = 'script'): ScriptJobConfig['script'] | undefined {
  const o = p.check(() => validate(ScriptOptions, value ?? {}, prefix));
  if (!o) return undefined;
  const seen = new Map<string, number>();
  const scripts = o.scripts.map((s, i) => {
    const f = `${prefix}.scripts[${i}]`;
    if ((s.text === undefined) === (s.builtin === undefined)) p.add(f, `${f} needs exactly one of text (a pgbench script) or builtin (${BUILTIN_SCRIPTS.join(', ')})`);
    if (s.text !== undefined && s.text.trim() === '') p.add(`${f}.text`, `${f}.text is empty`);
    const name = s.name ?? s.builtin ?? `script${i + 1}`;
    const before = seen.get(name);
    if (before !== undefined) p.add(`${f}.name`, `script name "${name}" is used by ${prefix}.scripts[${before}] too: give each script its own name`);
    seen.set(name, i);
    return { name, text: s.text ?? '', weight: s.weight, ...(s.builtin ? { builtin: s.builtin } : {}) };
  });
  if (o.scripts.every((s) => s.weight === 0)) p.add(`${prefix}.scripts`, 'every script has weight 0: give at least one a weight above 0');
  if (o.steps !== undefined) p.check(() => checkSteps(o.steps!, o.rampup, o.duration, prefix));
  if (o.arrival !== undefined) p.check(() => checkArrival({ driver: 'timed', asyncScale: false, keyAndThink: false, steps: o.steps }, prefix));
  return { ...o, scripts };
}

function parseScriptJob(b: Record<string, unknown>, type: JobType | undefined, p: Problems): Record<string, unknown> | undefined {
  if (type === 'datagen') p.add('type', 'the script workload has no datagen job: build pgbench tables with type "build"');
  const script = parseScriptOptions(b['script'], p);
  if (!script || p.any) return undefined;
  return { script };
}

/** The script workload as protocol knows it. Its operations are the job's script names (counted per job). */
export const SCRIPT: WorkloadDef = {
  id: 'script',
  display: 'Script (pgbench)',
  optionsKey: 'script',
  operations: [],
  options: ScriptOptions,
  result: ScriptResult,
  headline: { field: 'tps', unit: 'TPS' },
  summary: (r) => `${Number(r['tps']).toFixed(1)} TPS, ${String(r['transactions'])} transactions, ${String(r['activeVus'])} VU`,
  body: ScriptJobCreate,
  parsedFields: ['script'],
  parse: parseScriptJob,
  normalize: normalizeScriptBody,
  targetDefaults: SCRIPT_TARGET_DEFAULTS,
  tables: SCRIPT_TABLES,
  replicas: true,
  measuredWindow: () => true,
  jobOperations: (o) => ((o as Partial<ScriptJobConfig['script']> | undefined)?.scripts ?? []).map((s, i) => s.name ?? s.builtin ?? `script${i + 1}`),
  opCounts: (r) => Object.fromEntries((isScriptResult(r) ? r.scripts : []).map((s) => [s.name, { transactions: s.transactions, errors: s.errors }])),
};

/** A script workload result. */
export function isScriptResult(r: unknown): r is ScriptResult {
  return !!r && typeof r === 'object' && 'tps' in r && 'scripts' in r && Array.isArray((r as { scripts: unknown }).scripts);
}
