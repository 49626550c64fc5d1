import Type from 'typebox';
import { SledgeError } from './errors.js';
import { Target } from './targets.js';
import { TproccOptions } from './workloads/tprocc.js';
import { BUILTIN_WORKLOADS, DEFAULT_WORKLOAD, WORKLOADS, workloadDef, type WorkloadDef } from './workloads/index.js';
import { Problems, show, validate } from './validate.js';
import { parseTarget } from './parse-target.js';
import { checkPoolOps } from './run/pool-check.js';
import type { ConnectPool } from './run/pool.js';
import { didYouMean } from './suggest.js';

const WORKLOAD_DOC = `the workload the options are for: a registered workload id (shipped: ${BUILTIN_WORKLOADS.join(', ')}); "${DEFAULT_WORKLOAD}" when left out`;
const OPTIONS_DOC =
  "the workload's options as its job bodies carry them under the workload's key (TPROC-C: `tprocc`, TPROC-H: `tproch`, CH-benCHmark: `chbench`, with the TPROC-C options of its transactional VUs under options.tprocc); defaults fill what is left out";
const TPROCC_DOC = 'Deprecated: the older shape of a TPROC-C configuration, taken as workload "tprocc" with these options. Send workload and options instead.';

/**
 * A saved configuration: a target, a workload and that workload's options,
 * reusable from the UI and the API. The older shape { name, target, tprocc }
 * is still accepted (workload "tprocc").
 */
export const SavedConfigInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    target: Target,
    workload: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9]*$', description: WORKLOAD_DOC })),
    options: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: OPTIONS_DOC })),
    tprocc: Type.Optional(Type.Partial(TproccOptions, { deprecated: true, description: TPROCC_DOC })),
  },
  { additionalProperties: false, $id: 'SavedConfigInput' },
);
export type SavedConfigInput = Type.Static<typeof SavedConfigInput>;

export const SavedConfig = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    /** Secrets are never returned: they read "********"; sending "********" back keeps the stored value. */
    target: Type.Unknown({ description: 'secrets read "********"; sending "********" back keeps the stored value' }),
    workload: Type.String({ description: 'the workload the options are for (tprocc, tproch, chbench ...)' }),
    options: Type.Unknown({ description: OPTIONS_DOC }),
    tprocc: Type.Optional(Type.Unknown({ deprecated: true, description: 'Deprecated: the same object as options, present only when workload is "tprocc" (what replies carried before saved configurations named their workload). Read options.' })),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { $id: 'SavedConfig' },
);
export type SavedConfig = Type.Static<typeof SavedConfig>;

/** A saved configuration as it is stored: name trimmed, target and options checked with their defaults filled. */
export interface SavedConfigParsed {
  name: string;
  target: Target;
  workload: string;
  options: Record<string, unknown>;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

const INPUT_FIELDS = ['name', 'target', 'workload', 'options', 'tprocc'];
const Name = Type.String({ minLength: 1, maxLength: 100 });

/**
 * The job body keys a saved configuration's options stand for: the options
 * under the workload's `optionsKey`, and each of its `optionParts` (options.tprocc
 * of a CH-benCHmark configuration) under its own key. The workload must be registered.
 */
export function savedOptionsToBody(workload: string, options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const def = requireDef(workload);
  const main: Record<string, unknown> = { ...options };
  const parts: Record<string, unknown> = {};
  for (const part of def.optionParts ?? []) {
    if (part in main) parts[part] = main[part];
    delete main[part];
  }
  return { [def.optionsKey]: main, ...parts };
}

/** A saved configuration's options from a job body's (or a job configuration's) option keys: the inverse of savedOptionsToBody. */
export function savedOptionsFromBody(workload: string, body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const def = requireDef(workload);
  const main = body[def.optionsKey];
  const parts = (def.optionParts ?? []).filter((k) => body[k] !== undefined).map((k) => [k, body[k]] as const);
  return { ...(isRecord(main) ? main : {}), ...Object.fromEntries(parts) };
}

/** A job body's option path (tprocc.vus; CH-benCHmark's chbench.dop, tprocc.vus) as a saved configuration names it (options.vus; options.dop, options.tprocc.vus). Other paths as they are. */
export function savedOptionPath(workload: string, path: string): string {
  const def = workloadDef(workload);
  if (!def) return path;
  const [head, ...rest] = path.split('.');
  if (head === def.optionsKey) return ['options', ...rest].join('.');
  if (head !== undefined && def.optionParts?.includes(head)) return `options.${path}`;
  return path;
}

function requireDef(workload: string): WorkloadDef {
  const def = workloadDef(workload);
  if (!def) throw new SledgeError('SLEDGE_E_VALIDATION', `workload ${show(workload)} must be one of ${WORKLOADS.join(', ')}${didYouMean(workload, WORKLOADS)}`, { field: 'workload' });
  return def;
}

/**
 * The deprecated reply field: a TPROC-C configuration's options also as
 * `tprocc`, what replies carried before configurations named their workload.
 * None for another workload.
 */
export function deprecatedSavedFields(workload: string, options: unknown): { tprocc?: unknown } {
  return workload === DEFAULT_WORKLOAD ? { tprocc: options } : {};
}

/**
 * A stored configuration of an older shape in today's (the workload's
 * normalize: TPROC-C schema options saved under the target move to
 * options.schema). One of a workload no longer registered is returned as stored.
 */
export function normalizeSavedConfig(workload: string, target: unknown, options: unknown): { target: unknown; options: unknown } {
  const def = workloadDef(workload);
  if (!def?.normalize || !isRecord(options)) return { target, options };
  const b = def.normalize({ target, ...savedOptionsToBody(workload, options) });
  return { target: b['target'], options: savedOptionsFromBody(workload, b) };
}

/**
 * A field path and message of the workload's option checks (which name the
 * body keys: tprocc.warehouses) as the configuration's (options.warehouses;
 * a CH-benCHmark part: options.tprocc.driver).
 */
function renamer(def: WorkloadDef): (s: string) => string {
  const to = new Map<string, string>([[def.optionsKey, 'options'], ...(def.optionParts ?? []).map((k) => [k, `options.${k}`] as [string, string])]);
  const keys = [...to.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const re = new RegExp(`(?<![\\w."'-])(${keys})(?=\\.[A-Za-z]|\\s|:|$)`, 'g');
  return (s) => s.replace(re, (k) => to.get(k) ?? k);
}

/**
 * Check a saved configuration (POST and PUT /configs) into what is stored:
 * the name trimmed, the target and the options with their defaults filled
 * as a job of the workload gets them (its target defaults, e.g. TPROC-H's
 * database, its options' checks, a connect pool only for a workload whose
 * runs use one). Takes the older shape { name, target, tprocc } as workload
 * "tprocc" with those options, and TPROC-C schema options under the target.
 * Every field at fault in one error, named as sent (options.vus, or
 * tprocc.vus in the older shape). `restore` gets the target before it is
 * checked (the job store puts kept secrets back).
 */
export function parseSavedConfig(input: unknown, restore?: (target: Record<string, unknown>) => Record<string, unknown>): SavedConfigParsed {
  if (!isRecord(input)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'the configuration must be an object with name, target, workload and options', { field: 'body' });
  }
  const p = new Problems();
  for (const k of Object.keys(input)) if (!INPUT_FIELDS.includes(k)) p.add(k, `unknown field ${k}: remove it or check its spelling`);
  const name = typeof input['name'] === 'string' ? input['name'].trim() : input['name'];
  if (name === undefined) p.add('name', 'name is required: the name to save the configuration under');
  else p.check(() => validate(Name, name, 'name'));

  // The older shape: TPROC-C options under `tprocc`, no workload.
  const older = input['tprocc'] !== undefined;
  const workload = input['workload'] ?? DEFAULT_WORKLOAD;
  if (older && input['options'] !== undefined) p.add('tprocc', 'tprocc is the older form of options: send workload and options, or tprocc alone, not both');
  else if (older && workload !== 'tprocc') p.add('tprocc', `tprocc holds TPROC-C options, not ${show(workload)}'s: send that workload's options as options`);
  const def = workloadDef(workload);
  if (!def) p.add('workload', `workload ${show(workload)} must be one of ${WORKLOADS.join(', ')}${didYouMean(workload, WORKLOADS)}`);
  const rawOptions = older ? input['tprocc'] : (input['options'] ?? {});
  const optionsOk = older || isRecord(rawOptions);
  if (!optionsOk) p.add('options', `options must be an object: the workload's options (got ${show(rawOptions)})`);
  if (!def || !optionsOk) {
    // Still report what is wrong with the target.
    p.check(() => parseTarget(input['target']));
    p.throwIfAny();
  }
  const w = def!;

  const parts = older ? { tprocc: rawOptions } : savedOptionsToBody(w.id, rawOptions as Record<string, unknown>);
  const b = (w.normalize ? w.normalize({ target: input['target'], ...parts }) : { target: input['target'], ...parts }) as Record<string, unknown>;
  let target = b['target'];
  if (restore && isRecord(target)) target = restore({ ...target });
  const parsed = p.check(() => parseTarget(target));
  const pool = (parsed as { pool?: ConnectPool } | undefined)?.pool;
  if (pool && !w.connectPool) p.add('target.pool', `target.pool: ${w.display} runs do not go through a connect pool; remove it (a pool drives TPROC-C runs)`);
  else if (pool) p.check(() => checkPoolOps(pool, w.operations, w.display));

  // The workload's own option checks, as for a job of no particular type; their fields renamed as the configuration has them.
  const own = new Problems();
  const opts = w.parse({ ...b, target: parsed ?? target }, undefined, own);
  try {
    own.throwIfAny();
  } catch (e) {
    const rename = older ? (s: string) => s : renamer(w);
    const errors = (e as SledgeError).errors ?? [{ field: (e as SledgeError).field ?? 'options', message: (e as SledgeError).message }];
    for (const fe of errors) p.add(rename(fe.field), rename(fe.message));
  }
  p.throwIfAny();
  return { name: name as string, target: parsed!, workload: w.id, options: savedOptionsFromBody(w.id, opts!) };
}

/** GET /profiles: run jobs grouped by profileId (HammerDB performance profiles). */
export const ProfileSummary = Type.Object({
  profileId: Type.Integer(),
  jobs: Type.Integer(),
  engine: Type.String(),
  maxNopm: Type.Number(),
  maxTpm: Type.Number(),
  maxVus: Type.Number(),
});
export type ProfileSummary = Type.Static<typeof ProfileSummary>;

/** One run of a profile: NOPM and TPM at its active VU count. */
export const ProfilePoint = Type.Object({
  jobId: Type.String(),
  engine: Type.String(),
  createdAt: Type.String(),
  activeVus: Type.Number(),
  nopm: Type.Number(),
  tpm: Type.Number(),
});
export type ProfilePoint = Type.Static<typeof ProfilePoint>;
export const ProfileDetail = Type.Object({ profileId: Type.Integer(), jobs: Type.Array(ProfilePoint) });
export type ProfileDetail = Type.Static<typeof ProfileDetail>;

/** Share of a step's active sessions in one wait class or event (% of ASH samples). */
const WaitShare = Type.Object({ kind: Type.Union([Type.Literal('class'), Type.Literal('event')]), name: Type.String(), waitClass: Type.String(), pct: Type.Number() });
/** A wait class or event whose share of active sessions grew between two VU counts, in percentage points. */
export const WaitGrowth = Type.Object({
  kind: Type.Union([Type.Literal('class'), Type.Literal('event')]),
  name: Type.String(),
  waitClass: Type.String(),
  fromPct: Type.Number(),
  toPct: Type.Number(),
  deltaPct: Type.Number(),
});
export type WaitGrowth = Type.Static<typeof WaitGrowth>;

/** One VU count of a profile: its runs' throughput, latency, CPU and ASH shares (repeats averaged). */
export const ScalabilityStep = Type.Object({
  vus: Type.Number(),
  jobIds: Type.Array(Type.String()),
  nopm: Type.Number(),
  tpm: Type.Number(),
  latencyMs: Type.Optional(Type.Number({ description: "the step's latency metric (ProfileScalability.latencyMetric), when the runs kept a time profile" })),
  clientCpuMsPer1000Tx: Type.Optional(Type.Number()),
  serverCpuPct: Type.Optional(Type.Number({ description: "mean busy % (100 − idle) of the database host's CPU agent over the run" })),
  aas: Type.Optional(Type.Number({ description: 'average active sessions over the run (ASH)' })),
  waits: Type.Array(WaitShare),
});
export type ScalabilityStep = Type.Static<typeof ScalabilityStep>;

const BandPoint = Type.Object({ n: Type.Number(), x: Type.Number(), lo: Type.Optional(Type.Number()), hi: Type.Optional(Type.Number()) });
export const UslFitSchema = Type.Object({
  x1: Type.Number(),
  sigma: Type.Number(),
  kappa: Type.Number(),
  se: Type.Optional(Type.Object({ x1: Type.Number(), sigma: Type.Number(), kappa: Type.Number() })),
  r2: Type.Number(),
  points: Type.Integer(),
  distinctN: Type.Integer(),
  dof: Type.Integer(),
  peak: Type.Union([Type.Object({ n: Type.Number(), x: Type.Number(), nLo: Type.Optional(Type.Number()), nHi: Type.Optional(Type.Number()) }), Type.Null()]),
  ceiling: Type.Union([Type.Number(), Type.Null()]),
  curve: Type.Array(BandPoint),
  iterations: Type.Integer(),
});

/** GET /profiles/:id/scalability: the USL fit of a VU sweep, its latency knee and the waits that grew (docs/scalability.md). */
export const ProfileScalability = Type.Object({
  profileId: Type.Integer(),
  engine: Type.String(),
  metric: Type.Union([Type.Literal('nopm'), Type.Literal('tpm')]),
  steps: Type.Array(ScalabilityStep),
  fit: Type.Union([UslFitSchema, Type.Null()]),
  fitProblem: Type.Optional(Type.String()),
  latencyMetric: Type.String(),
  knee: Type.Union([Type.Object({ vus: Type.Number(), latencyMs: Type.Number(), depth: Type.Number() }), Type.Null()]),
  kneeProblem: Type.Optional(Type.String()),
  /** Between each VU count and the next: the classes and events whose share grew most. */
  waitGrowth: Type.Array(Type.Object({ fromVus: Type.Number(), toVus: Type.Number(), grew: Type.Array(WaitGrowth) })),
  /** From the fewest VUs to the most. */
  grewMost: Type.Array(WaitGrowth),
  summary: Type.String(),
});
export type ProfileScalability = Type.Static<typeof ProfileScalability>;

/** GET /best: the completed run with the highest NOPM per engine. */
export const BestJobs = Type.Record(Type.String(), Type.String());
export type BestJobs = Type.Static<typeof BestJobs>;

/** POST /targets/test. */
export const TargetTestResult = Type.Object({
  version: Type.String(),
  /** The workload whose schema was looked for (the one asked for, or the default when it reads no schema state of its own). */
  workload: Type.Optional(Type.String()),
  schema: Type.Object({
    exists: Type.Boolean(),
    warehouses: Type.Integer(),
    /** TPROC-H: the schema's scale factor (warehouses is 0). */
    scaleFactor: Type.Optional(Type.Number()),
  }),
});
export type TargetTestResult = Type.Static<typeof TargetTestResult>;

/** POST /jobs/{id}/share. */
export const ShareLink = Type.Object({ token: Type.String(), path: Type.String() });
export type ShareLink = Type.Static<typeof ShareLink>;

/** GET /jobs/{id}/share: one of a job's share links. */
export const ShareInfo = Type.Object({ token: Type.String(), path: Type.String(), createdAt: Type.String({ format: 'date-time' }) }, { $id: 'ShareInfo' });
export type ShareInfo = Type.Static<typeof ShareInfo>;
