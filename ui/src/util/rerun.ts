import type { EngineId, Job } from '@sledge/protocol';
import { DEFAULT_WORKLOAD, REDACTED, secretBindingMismatch, secretFields, workloadDef } from '@sledge/protocol';
import type { JobCreateBody } from '../api/endpoints.js';
import { workloadOf } from '../workloads/registry.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The POST /jobs body that repeats a job: its stored type, target, workload
 * options (under its workload's key), label, profile id, metrics, datagen options and placement. The seed is left
 * out (a new run draws new random keys, as HammerDB does). Secrets read
 * "********": stored jobs never keep them.
 */
export function jobCreateBody(job: Job): JobCreateBody {
  const c = isObj(job.config) ? job.config : {};
  const body: Obj = { type: job.type, target: { ...(isObj(c['target']) ? c['target'] : { engine: job.engine }) } };
  // A body without `workload` is TPROC-C's: the others name theirs.
  if (job.workload && job.workload !== DEFAULT_WORKLOAD) body['workload'] = job.workload;
  // Its options objects: its form's key (and a workload's further parts, CH-benCHmark's `chbench`).
  const { form } = workloadOf(job);
  for (const key of [form.key, ...(form.parts ?? [])]) if (isObj(c[key])) body[key] = structuredClone(c[key]);
  if (typeof c['label'] === 'string' && c['label']) body['label'] = c['label'];
  if (typeof c['profileId'] === 'number' && c['profileId'] > 0) body['profileId'] = c['profileId'];
  if (isObj(c['metrics'])) body['metrics'] = { ...c['metrics'] };
  if (isObj(c['datagen'])) body['datagen'] = { ...c['datagen'] };
  // Its pass/fail gate too: thresholds and the regression baseline.
  if (Array.isArray(c['thresholds']) && c['thresholds'].length) body['thresholds'] = [...(c['thresholds'] as string[])];
  if (isObj(c['baseline'])) body['baseline'] = { ...c['baseline'] };
  // Where its VUs ran (scale-out): the same replicas, or all ready ones, again.
  if (isObj(c['placement'])) body['placement'] = structuredClone(c['placement']);
  // A job stored before TPROC-C's schema options left the target repeats in today's shape.
  const normalize = workloadDef(job.workload)?.normalize;
  return (normalize ? normalize(body) : body) as unknown as JobCreateBody;
}

/** What the page knows about secrets of the job's engine: the workbench's target (typed values) and its loaded saved configuration. */
export interface KnownSecrets {
  /** The workbench's target for the job's engine, as the API takes it (secrets as typed, or "********" from a saved configuration). */
  target?: Obj | undefined;
  /** The saved configuration loaded in the workbench for that target (its "********" secrets are filled by the server). */
  configId?: number | undefined;
}

export interface RerunPlan {
  body: JobCreateBody;
  /** Secret fields still "********" that nothing known may fill: the user types them. */
  missing: string[];
}

/**
 * Fill the "********" secrets of a repeated job: from the workbench's typed
 * value, or through the workbench's saved configuration (`configId`), but
 * only where that secret was meant for the same endpoint and user (the
 * fields it is bound to match, as the server checks for saved secrets).
 * What remains is listed in `missing`.
 */
export function planRerun(job: Job, known: KnownSecrets = {}): RerunPlan {
  const body = jobCreateBody(job);
  const target = body.target as unknown as Obj;
  const engine = target['engine'] as EngineId;
  const missing: string[] = [];
  const have = known.target && known.target['engine'] === engine ? known.target : undefined;
  for (const k of secretFields(engine)) {
    if (target[k] !== REDACTED) continue;
    const v = have?.[k];
    const sameEndpoint = have !== undefined && secretBindingMismatch(have, target, k).length === 0;
    if (sameEndpoint && typeof v === 'string' && v !== '' && v !== REDACTED) target[k] = v;
    else if (sameEndpoint && v === REDACTED && known.configId !== undefined) body.configId = known.configId;
    else missing.push(k);
  }
  // The secrets of a connect pool's connections: the workbench's pool connection of the same name, bound to the same endpoint.
  const pool = target['pool'] as { connections?: Obj[] } | undefined;
  const havePool = ((have?.['pool'] as { connections?: Obj[] } | undefined)?.connections ?? []) as Obj[];
  (pool?.connections ?? []).forEach((c, i) => {
    for (const k of secretFields(engine)) {
      if (c[k] !== REDACTED) continue;
      const was = havePool.find((h) => h['name'] === c['name']);
      const v = was?.[k];
      const same = was !== undefined && secretBindingMismatch({ ...have, ...was }, { ...target, ...c }, k).length === 0;
      if (same && typeof v === 'string' && v !== '' && v !== REDACTED) c[k] = v;
      else if (same && v === REDACTED && known.configId !== undefined) body.configId = known.configId;
      else missing.push(`pool.connections.${i}.${k}`);
    }
  });
  return { body, missing };
}

/** The label of a missing secret: its field's title, or for a pool connection's "<title> of pool connection <name>". */
export function missingLabel(plan: RerunPlan, key: string, title: (field: string) => string): string {
  const m = /^pool\.connections\.(\d+)\.(\w+)$/.exec(key);
  if (!m) return title(key);
  const c = ((plan.body.target as unknown as Obj)['pool'] as { connections: Obj[] }).connections[Number(m[1])];
  return `${title(m[2]!)} of pool connection ${String(c?.['name'] ?? m[1])}`;
}

/** Put typed secrets into a planned body. */
export function withSecrets(plan: RerunPlan, typed: Record<string, string>): JobCreateBody {
  const target = { ...(plan.body.target as unknown as Obj) };
  const pool = target['pool'] as { connections: Obj[] } | undefined;
  if (pool) target['pool'] = { ...pool, connections: pool.connections.map((c) => ({ ...c })) };
  for (const k of plan.missing) {
    const m = /^pool\.connections\.(\d+)\.(\w+)$/.exec(k);
    if (m) (target['pool'] as { connections: Obj[] }).connections[Number(m[1])]![m[2]!] = typed[k] ?? '';
    else target[k] = typed[k] ?? '';
  }
  return { ...plan.body, target: target as unknown as JobCreateBody['target'] };
}

/** The page that edits a job of this type: runs on the Run page, schema jobs on the Schema page; datagen has no page. */
export function editPage(job: Job): '/run' | '/schema' | null {
  if (job.type === 'run') return '/run';
  if (job.type === 'build' || job.type === 'check' || job.type === 'delete') return '/schema';
  return null;
}
