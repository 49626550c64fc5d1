import Type from 'typebox';
import { StringEnum } from '../util.js';
import { TPROCC, type TproccJobConfig, type TproccResult } from './tprocc.js';
import { TPROCH, type TprochJobConfig, type TprochResult } from './tproch.js';
import { CHBENCH, type ChbenchJobConfig, type ChbenchResult } from './chbench.js';
import { SCRIPT, type ScriptJobConfig, type ScriptResult } from './script.js';
import type { JobConfigBase } from '../job-base.js';
import type { WorkloadDef } from './types.js';
import { switchTargetDefaults, type TargetDefaults } from './target-defaults.js';
import { heldTables, schemaExistsText, type HeldTables } from './tables.js';
import { OTHER_OP_COLOR, type ThemeColor } from '../palette.js';

export * from './types.js';
export * from './target-defaults.js';
export * from './tables.js';
export * from './tprocc.js';
export * from './tproch.js';
export * from './chbench.js';
export * from './script.js';
export * from './script-check.js';

/** The workloads Sledge ships. */
export const BUILTIN_WORKLOADS = ['tprocc', 'tproch', 'chbench', 'script'] as const;
export type WorkloadId = (typeof BUILTIN_WORKLOADS)[number];
export const WorkloadIdSchema = StringEnum(BUILTIN_WORKLOADS);
/**
 * A workload id where registered workloads other than the shipped ones may
 * appear (a stored job, the job list's filter): any id registerWorkload
 * accepts. Bodies are checked against the registry itself (JobCreate).
 */
export const WorkloadIdString = Type.String({ pattern: '^[a-z][a-z0-9]*$', description: `a registered workload id (shipped: ${BUILTIN_WORKLOADS.join(', ')})` });
export const WORKLOAD_DISPLAY: Record<WorkloadId, string> = { tprocc: 'TPROC-C', tproch: 'TPROC-H', chbench: 'CH-benCHmark', script: 'Script (pgbench)' };

/**
 * Each shipped workload's job configuration and result document, by id: a
 * workload is a peer of the others here as in the registry below. JobConfig
 * (job-create.ts) is the union of the configurations, and a job body typed
 * by its workload's configuration gets that workload's result (ResultOf).
 */
export interface WorkloadTypes {
  tprocc: { config: TproccJobConfig; result: TproccResult };
  tproch: { config: TprochJobConfig; result: TprochResult };
  chbench: { config: ChbenchJobConfig; result: ChbenchResult };
  script: { config: ScriptJobConfig; result: ScriptResult };
}

/** A validated job configuration of any workload, shipped or registered at runtime: the common part and its `workload`. */
export type WorkloadConfig = JobConfigBase & { workload: string };

/** The result document of a workload's jobs, from its configuration type; any shipped workload's result for a workload it does not know. */
export type ResultOf<C extends { workload: string }> = C['workload'] extends keyof WorkloadTypes ? WorkloadTypes[C['workload']]['result'] : WorkloadTypes[keyof WorkloadTypes]['result'];

/** A job body without `workload` is this workload's (today's bodies with a `tprocc` key: a compatible alias). */
export const DEFAULT_WORKLOAD: WorkloadId = 'tprocc';

const defs = new Map<string, WorkloadDef>();
const ids: string[] = [];

/** Every registered workload id, built-ins first (registerWorkload adds to it). */
export const WORKLOADS: readonly string[] = ids;

/**
 * Add a workload (its options, operations, result shape and body variant).
 * The shipped ones are registered below; a test fixture registers its own
 * without editing shipped files. Returns a function that removes it again.
 */
export function registerWorkload(def: WorkloadDef): () => void {
  if (!/^[a-z][a-z0-9]*$/.test(def.id)) throw new Error(`workload id ${JSON.stringify(def.id)} must be lowercase letters and digits`);
  if (defs.has(def.id)) throw new Error(`workload ${def.id} is already registered`);
  defs.set(def.id, def);
  ids.push(def.id);
  return () => {
    if (defs.get(def.id) !== def) return;
    defs.delete(def.id);
    ids.splice(ids.indexOf(def.id), 1);
  };
}

/** The registered workload with this id, if any. */
export function workloadDef(id: unknown): WorkloadDef | undefined {
  return typeof id === 'string' ? defs.get(id) : undefined;
}

/**
 * A workload as one job's thresholds see it: for a workload whose operations
 * depend on the job (WorkloadDef.jobOperations), the job's own operation
 * names from its options (`cfg[def.optionsKey]`); otherwise `def` itself.
 */
export function jobWorkloadDef(def: WorkloadDef, options: unknown): WorkloadDef {
  if (!def.jobOperations || options === undefined || options === null) return def;
  return { ...def, operations: def.jobOperations(options) };
}

export function isWorkloadId(x: unknown): x is string {
  return workloadDef(x) !== undefined;
}

/** A workload's own target defaults on an engine (WorkloadDef.targetDefaults): none for a workload that keeps the target schema's. */
export function workloadTargetDefaults(workload: string, engine: string): TargetDefaults | undefined {
  return workloadDef(workload)?.targetDefaults?.[engine];
}

/** A form's target values for an engine when the workload changes from `from` to `to` (switchTargetDefaults). */
export function targetValuesOnSwitch(from: string, to: string, engine: string, values: Readonly<Record<string, unknown>>, schemaDefaults: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return switchTargetDefaults(values, workloadTargetDefaults(from, engine), workloadTargetDefaults(to, engine), schemaDefaults);
}

/** The tables found in a target, by the registered workload they belong to. */
export function heldWorkloadTables(found: readonly string[]): HeldTables {
  return heldTables(found, ids.map((id) => defs.get(id)!));
}

/**
 * SLEDGE_E_SCHEMA_EXISTS's message for building `building` where `found`
 * tables are: names the workload they are (a TPROC-C schema found while
 * building TPROC-H is called TPROC-C's) and what to do. `field` is the
 * target field that picks the place (target.file); the workload's own
 * default for it, if any, is offered.
 */
export function schemaExistsMessage(where: string, building: string, engine: string, found: readonly string[], field: string): string {
  const def = workloadDef(building);
  const key = field.replace(/^target\./, '');
  const own = workloadTargetDefaults(building, engine)?.[key];
  return schemaExistsText(where, def ?? { id: building, display: building }, heldWorkloadTables(found), { field, otherDefault: own });
}

/** An operation's chart colour (its workload's WorkloadDef.operationColor), grey for one it does not colour: the dashboard and the HTML report both draw with it. */
export function opColor(workload: string, op: string): ThemeColor {
  return workloadDef(workload)?.operationColor?.(op) ?? OTHER_OP_COLOR;
}

registerWorkload(TPROCC);
registerWorkload(TPROCH);
registerWorkload(CHBENCH);
registerWorkload(SCRIPT);
