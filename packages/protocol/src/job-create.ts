import Type from 'typebox';
import { SledgeError } from './errors.js';
import { JOB_TYPES, JobCommonFields, JobMetricsOptions, type JobConfigBase, type JobType } from './job-base.js';
import { Problems, show, validate } from './validate.js';
import { parseTarget } from './parse-target.js';
import { checkPoolOps } from './run/pool-check.js';
import { didYouMean } from './suggest.js';
import type { ConnectPool } from './run/pool.js';
import { Placement } from './run/placement.js';
import { parseBaseline, parseThresholds } from './thresholds.js';
import { parseSlo } from './run/capacity.js';
import { DEFAULT_WORKLOAD, WORKLOADS, jobWorkloadDef, workloadDef, type WorkloadDef, type WorkloadTypes } from './workloads/index.js';
import { TproccJobCreate } from './workloads/tprocc.js';
import { TprochJobCreate } from './workloads/tproch.js';
import { ChbenchJobCreate } from './workloads/chbench.js';

/**
 * POST /api/v1/jobs body: a union discriminated by `workload`, one variant
 * per workload (workloads/<id>.ts). A body without `workload` is TPROC-C's.
 * Omitted options take HammerDB's defaults. Documents the shipped variants;
 * parseJobCreate also accepts workloads registered at runtime.
 */
export const JobCreate = Type.Union([TproccJobCreate, TprochJobCreate, ChbenchJobCreate], { $id: 'JobCreate' });
export type JobCreate = Type.Static<typeof JobCreate>;

/**
 * A JobCreate with every default filled in and secrets kept (server side
 * only): the union of the shipped workloads' configurations, discriminated
 * by `workload` (WorkloadTypes).
 */
export type JobConfig = WorkloadTypes[keyof WorkloadTypes]['config'];

/**
 * A configuration as its workload's own type (TproccJobConfig ...), for
 * code that holds a JobConfig it knows the workload of: SLEDGE_E_VALIDATION
 * on `workload` when it is another workload's.
 */
export function configOf<W extends keyof WorkloadTypes>(cfg: JobConfig, workload: W): WorkloadTypes[W]['config'] {
  if (cfg.workload !== workload) throw new SledgeError('SLEDGE_E_VALIDATION', `a ${workload} job was expected, not a ${cfg.workload} job`, { field: 'workload' });
  return cfg as WorkloadTypes[W]['config'];
}

/** The configuration of a job of any registered workload: the common part plus the workload's own keys. */
export type AnyJobConfig = JobConfigBase & { workload: string } & Record<string, unknown>;

/** What each variant's own schema checks: its body with the target and the fields its parse checks left to them. */
const shapes = new WeakMap<WorkloadDef, Type.TObject>();
function shapeOf(def: WorkloadDef): Type.TObject {
  let s = shapes.get(def);
  if (!s) {
    const props: Record<string, Type.TSchema> = { ...def.body.properties, target: Type.Unknown() };
    for (const f of def.parsedFields) props[f] = Type.Optional(Type.Unknown());
    s = Type.Object(props, { additionalProperties: false });
    shapes.set(def, s);
  }
  return s;
}

/** The common fields alone (a body naming no known workload is still checked for them). */
const CommonShape = Type.Object({ ...JobCommonFields, target: Type.Unknown(), workload: Type.Unknown() });

/**
 * Validate a POST /api/v1/jobs body into a complete job configuration. The
 * variant is picked by `workload` first (none: TPROC-C), then the body is
 * checked against that variant, so each error names its field; every field
 * at fault is reported in one error. Nothing is created before this
 * returns. `seed` is used when the body has none.
 */
export function parseWorkloadJob(body: unknown, seed: number): AnyJobConfig {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'the request body must be a JSON object', { field: 'body' });
  }
  const p = new Problems();
  const def = workloadDef((body as Record<string, unknown>)['workload'] ?? DEFAULT_WORKLOAD);
  // An older shape (TPROC-C schema options under `target`) is moved before anything is checked.
  const b = (def?.normalize ? def.normalize(body) : body) as Record<string, unknown>;
  if (!def) {
    p.add('workload', `workload ${show(b['workload'])} must be one of ${WORKLOADS.join(', ')}${didYouMean(b['workload'], WORKLOADS)}`);
    p.check(() => validate(CommonShape, b));
    p.check(() => parseTarget(b['target']));
    p.throwIfAny();
  }
  p.check(() => validate(shapeOf(def!), b));
  const type = (JOB_TYPES as readonly unknown[]).includes(b['type']) ? (b['type'] as JobType) : undefined;
  const target = p.check(() => parseTarget(b['target']));
  const pool = (target as { pool?: ConnectPool } | undefined)?.pool;
  if (pool && !def!.connectPool) p.add('target.pool', `target.pool: ${def!.display} runs do not go through a connect pool; remove it (a pool drives TPROC-C runs)`);
  else if (pool) p.check(() => checkPoolOps(pool, def!.operations, def!.display));
  const own = def!.parse(b, type, p);
  const judged = parseJudging(b, type, def!, p, own?.[def!.optionsKey]);
  const placement = parsePlacement(b, type, def!, p);
  p.throwIfAny();
  const { [def!.optionsKey]: options, ...rest } = own!;
  const cfg: AnyJobConfig = {
    metrics: validate(JobMetricsOptions, b['metrics'] ?? {}, 'metrics'),
    type: type!,
    workload: def!.id,
    target: target!,
    [def!.optionsKey]: options,
    seed: (b['seed'] as number | undefined) ?? seed,
    profileId: (b['profileId'] as number | undefined) ?? 0,
  };
  if (typeof b['label'] === 'string' && b['label']) cfg.label = b['label'];
  return Object.assign(cfg, rest, judged, placement ? { placement } : {});
}

/** `placement`: run jobs only; on replicas only for workloads with a VU runner, and not with a connect pool (its counters are per pool connection, on this server). */
function parsePlacement(b: Record<string, unknown>, type: JobType | undefined, def: WorkloadDef, p: Problems): Placement | undefined {
  if (b['placement'] === undefined) return undefined;
  let pl: Placement;
  try {
    pl = validate(Placement, b['placement'], 'placement');
  } catch {
    return undefined; // the body's schema check has reported it
  }
  if (type !== undefined && type !== 'run') {
    p.add('placement', `placement applies only to run jobs (this is a ${type} job): remove it`);
    return undefined;
  }
  if (pl.on === 'local') {
    if (pl.replicas || pl.vus) p.add('placement', 'placement.replicas and placement.vus apply to placement.on "replicas": remove them or set on to "replicas"');
    return pl;
  }
  if (!def.replicas) p.add('placement.on', `${def.display} runs cannot be placed on replicas (their streams run on this server): set placement.on to "local" or remove placement`);
  const target = b['target'] as { pool?: unknown } | undefined;
  if (target?.pool) p.add('placement.on', 'a connect pool run (target.pool) runs on this server: remove target.pool or set placement.on to "local"');
  if (pl.vus) {
    const named = Object.keys(pl.vus);
    if (named.length === 0) p.add('placement.vus', 'placement.vus names no replica: give { "<replica>": <VUs>, ... } or remove it for an even spread');
    const extra = pl.replicas ? named.filter((n) => !pl.replicas!.includes(n)) : [];
    if (extra.length) p.add('placement.vus', `placement.vus names ${extra.join(', ')}, not in placement.replicas: name the same replicas in both, or leave placement.replicas out`);
  }
  return pl;
}

/** `thresholds` and `baseline`: run jobs only; every bad entry named (thresholds[i], baseline.x). */
function parseJudging(b: Record<string, unknown>, type: JobType | undefined, def: WorkloadDef, p: Problems, options: unknown): Pick<JobConfigBase, 'thresholds' | 'baseline'> {
  const out: Pick<JobConfigBase, 'thresholds' | 'baseline'> = {};
  for (const k of ['thresholds', 'baseline'] as const) {
    if (b[k] !== undefined && type !== undefined && type !== 'run') p.add(k, `${k} apply only to run jobs (this is a ${type} job): remove ${k}`);
  }
  if (type !== 'run') return out;
  // A workload whose operations come from its options (the script workload) names them only once they parsed.
  if (b['thresholds'] !== undefined && (!def.jobOperations || options !== undefined)) {
    const parsed = p.check(() => parseThresholds(b['thresholds'], jobWorkloadDef(def, options)));
    if (parsed && parsed.length) out.thresholds = parsed.map((t) => t.expr.trim());
    // `:abort` is judged during the measured window: a run without one cannot honour it.
    parsed?.forEach((t, i) => {
      if (!t.abort) return;
      const window = def.measuredWindow ? def.measuredWindow(options) : `${def.display} runs have no measured window`;
      if (window !== true) p.add(`thresholds[${i}]`, `thresholds[${i}] ${JSON.stringify(t.expr)}: ':abort' stops a run when the condition fails during its measured window, and ${window}: remove ':abort' (the condition is still judged when the run ends)`);
    });
  }
  // A capacity search's SLO is judged on every probe: parsed here, where the workload is known.
  const capacity = (options as { capacity?: { slo?: unknown } } | undefined)?.capacity;
  if (capacity) p.check(() => parseSlo(capacity.slo, def, `${def.optionsKey}.capacity.slo`));
  if (b['baseline'] !== undefined) {
    const base = p.check(() => parseBaseline(b['baseline']));
    if (base) out.baseline = base;
  }
  return out;
}

/** parseWorkloadJob for the shipped workloads' configuration type (a registered workload's has its own keys). */
export function parseJobCreate(body: unknown, seed: number): JobConfig {
  return parseWorkloadJob(body, seed) as unknown as JobConfig;
}

/**
 * Check a body without building its configuration: the POST /jobs route's
 * validator (its type is the JobCreate union). Throws like parseWorkloadJob.
 */
export function checkJobCreate(body: unknown): JobCreate {
  parseWorkloadJob(body, 0);
  return body as JobCreate;
}
