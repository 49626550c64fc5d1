import type Type from 'typebox';
import Value from 'typebox/value';
import { SledgeError } from './errors.js';
import { ENGINES, isEngineId } from './engines.js';
import { TARGET_SCHEMAS, type Target } from './targets.js';
import { TproccOptions, DEFAULT_MIX } from './tprocc.js';
import { DatagenOptions, JOB_TYPES, JobMetricsOptions, type JobConfig } from './jobs.js';

interface TbError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

const pathToField = (prefix: string, instancePath: string): string => {
  const parts = instancePath.split('/').filter(Boolean);
  return [prefix, ...parts].filter(Boolean).join('.');
};

const show = (v: unknown): string => {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (v === undefined) return 'nothing';
  try {
    const s = JSON.stringify(v);
    return s.length > 40 ? s.slice(0, 40) + '…' : s;
  } catch {
    return String(v);
  }
};

const getAt = (root: unknown, instancePath: string): unknown => {
  let cur: unknown = root;
  for (const p of instancePath.split('/').filter(Boolean)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
};

/** Turn the first meaningful schema error into a SledgeError naming the field. */
function describe(errors: TbError[], value: unknown, prefix: string): SledgeError {
  const useful = errors.filter((e) => e.keyword !== 'boolean' && e.keyword !== 'anyOf' && e.keyword !== 'const' && e.keyword !== 'oneOf');
  const list = useful.length ? useful : errors;
  // Prefer unknown fields and missing fields, then the deepest error.
  list.sort((a, b) => b.instancePath.length - a.instancePath.length);
  const e = list.find((x) => x.keyword === 'additionalProperties') ?? list.find((x) => x.keyword === 'required') ?? list[0];
  if (!e) return new SledgeError('SLEDGE_E_VALIDATION', `${prefix || 'body'} is invalid`, { field: prefix || 'body' });
  const got = getAt(value, e.instancePath);
  if (e.keyword === 'additionalProperties') {
    const names = (e.params['additionalProperties'] as string[] | undefined) ?? [];
    const field = pathToField(prefix, e.instancePath + '/' + (names[0] ?? ''));
    return new SledgeError('SLEDGE_E_VALIDATION', `unknown field ${field}: remove it or check its spelling`, { field });
  }
  if (e.keyword === 'required') {
    const names = (e.params['requiredProperties'] as string[] | undefined) ?? [];
    const field = pathToField(prefix, e.instancePath + '/' + (names[0] ?? ''));
    return new SledgeError('SLEDGE_E_VALIDATION', `${field} is required`, { field });
  }
  const field = pathToField(prefix, e.instancePath) || prefix || 'body';
  let what: string;
  switch (e.keyword) {
    case 'type':
      what = `must be ${article(String(e.params['type']))}`;
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      what = `must be ${String(e.params['comparison'])} ${String(e.params['limit'])}`;
      break;
    case 'minLength':
      what = `must have at least ${String(e.params['limit'])} character(s)`;
      break;
    case 'maxLength':
      what = `must have at most ${String(e.params['limit'])} characters`;
      break;
    case 'pattern':
      what = `must match ${String(e.params['pattern'])}`;
      break;
    default:
      what = e.message;
  }
  return new SledgeError('SLEDGE_E_VALIDATION', `${field} ${what} (got ${show(got)})`, { field });
}

const article = (t: string) => (t === 'integer' ? 'an integer' : t === 'object' || t === 'array' ? `an ${t}` : `a ${t}`);

/** Validate `value` against `schema`; throw SLEDGE_E_VALIDATION naming the field. Returns the value with defaults applied. */
export function validate<T extends Type.TSchema>(schema: T, value: unknown, prefix = ''): Type.Static<T> {
  const withDefaults = Value.Default(schema, Value.Clone(value));
  if (Value.Check(schema, withDefaults)) return withDefaults as Type.Static<T>;
  throw describe(Value.Errors(schema, withDefaults) as unknown as TbError[], withDefaults, prefix);
}

/** Validate a target: a known engine first (friendly message), then that engine's schema. */
export function parseTarget(value: unknown, prefix = 'target'): Target {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix} must be an object with an "engine" field`, { field: prefix });
  }
  const engine = (value as { engine?: unknown }).engine;
  if (!isEngineId(engine)) {
    throw new SledgeError(
      'SLEDGE_E_UNKNOWN_ENGINE',
      `${prefix}.engine ${show(engine)} is not a known engine; choose one of ${ENGINES.join(', ')}`,
      { field: `${prefix}.engine` },
    );
  }
  const target = validate(TARGET_SCHEMAS[engine], value, prefix) as Target;
  refuseNul(target as unknown as Record<string, unknown>, prefix);
  return target;
}

/**
 * Every string of a target ends up in a C string somewhere (a wire protocol's
 * startup packet, a client library, a file name), where a NUL cuts it short
 * or breaks the message: refuse it here, naming the field, before anything
 * connects.
 */
function refuseNul(target: Record<string, unknown>, prefix: string): void {
  for (const [k, v] of Object.entries(target)) {
    if (typeof v === 'string' && v.includes('\0')) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix}.${k} must not contain a NUL character (\\u0000)`, { field: `${prefix}.${k}` });
    }
  }
}

/** Validate TPROC-C options, apply defaults, and check the rules that span fields. */
export function parseTproccOptions(value: unknown, prefix = 'tprocc'): TproccOptions {
  const v = value === undefined ? {} : value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix} must be an object`, { field: prefix });
  }
  const raw = { ...(v as Record<string, unknown>) };
  if (raw['mix'] === undefined) raw['mix'] = { ...DEFAULT_MIX };
  const o = validate(TproccOptions, raw, prefix);
  if (o.buildVus > o.warehouses) {
    throw new SledgeError(
      'SLEDGE_E_VALIDATION',
      `${prefix}.buildVus (${o.buildVus}) must not exceed ${prefix}.warehouses (${o.warehouses}): each build VU loads at least one warehouse`,
      { field: `${prefix}.buildVus` },
    );
  }
  const m = o.mix;
  if (m.neworder + m.payment + m.delivery + m.stocklevel + m.orderstatus <= 0) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix}.mix must give at least one transaction a weight above 0`, { field: `${prefix}.mix` });
  }
  return o;
}

/**
 * Validate a POST /api/v1/jobs body into a complete JobConfig. Nothing is
 * created before this returns. `seed` is used when the body has none.
 */
export function parseJobCreate(body: unknown, seed: number): JobConfig {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'the request body must be a JSON object', { field: 'body' });
  }
  const b = body as Record<string, unknown>;
  const allowed = new Set(['type', 'workload', 'target', 'tprocc', 'seed', 'label', 'profileId', 'metrics', 'configId', 'datagen']);
  for (const k of Object.keys(b)) {
    if (!allowed.has(k)) throw new SledgeError('SLEDGE_E_VALIDATION', `unknown field ${k}: remove it or check its spelling`, { field: k });
  }
  if (!(JOB_TYPES as readonly unknown[]).includes(b['type'])) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `type ${show(b['type'])} must be one of ${JOB_TYPES.join(', ')}`, { field: 'type' });
  }
  if (b['workload'] !== undefined && b['workload'] !== 'tprocc') {
    throw new SledgeError('SLEDGE_E_VALIDATION', `workload ${show(b['workload'])} must be "tprocc"`, { field: 'workload' });
  }
  const target = parseTarget(b['target']);
  const tprocc = parseTproccOptions(b['tprocc']);
  const s = b['seed'];
  if (s !== undefined && !(Number.isInteger(s) && (s as number) >= 0 && (s as number) <= 4294967295)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `seed must be an integer from 0 to 4294967295 (got ${show(s)})`, { field: 'seed' });
  }
  const label = b['label'];
  if (label !== undefined && (typeof label !== 'string' || label.length > 200)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'label must be a string of at most 200 characters', { field: 'label' });
  }
  const pid = b['profileId'];
  if (pid !== undefined && !(Number.isInteger(pid) && (pid as number) >= 0)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `profileId must be an integer >= 0 (got ${show(pid)})`, { field: 'profileId' });
  }
  const metrics = validate(JobMetricsOptions, b['metrics'] ?? {}, 'metrics');
  const datagen = parseDatagen(b['type'] as JobConfig['type'], b['datagen'], tprocc.warehouses);
  const cfg: JobConfig = {
    metrics,
    type: b['type'] as JobConfig['type'],
    workload: 'tprocc',
    target,
    tprocc,
    seed: (s as number | undefined) ?? seed,
    profileId: (pid as number | undefined) ?? 0,
  };
  if (typeof label === 'string' && label) cfg.label = label;
  if (datagen) cfg.datagen = datagen;
  return cfg;
}

/** datagen options: required for (and only for) datagen jobs; workers <= warehouses as HammerDB's dgset. */
function parseDatagen(type: JobConfig['type'], value: unknown, warehouses: number): DatagenOptions | undefined {
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
