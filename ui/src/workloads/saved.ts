import { isWorkloadId, savedOptionPath, savedOptionsFromBody, savedOptionsToBody } from '@sledge/protocol';
import { bodyOptions, nestedOptions } from './body.js';
import type { WorkloadForm } from './types.js';

/**
 * A saved configuration's options (protocol: (target, workload, options))
 * to and from a workload form's options object, the one the workbench's
 * `options()` gives: TPROC-C's with its schema options as `schema`,
 * CH-benCHmark's with its analytic part nested as `chbench`. Pure.
 */

type Obj = Record<string, unknown>;
type FormOf = Pick<WorkloadForm, 'key' | 'parts' | 'labels'>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The `options` to save for a workload from its form's options object. */
export function savedOptionsOf(workload: string, form: FormOf, options: Obj): Obj {
  return savedOptionsFromBody(workload, bodyOptions(form, options));
}

/**
 * What the forms take from a saved configuration: the form's options object
 * (for `form.toForm`) and its schema options (kept with the target's values).
 * Undefined for a workload this dashboard does not know.
 */
export function formOptionsOfSaved(workload: string, form: FormOf, options: unknown): { options: unknown; schema: Obj } | undefined {
  if (!isWorkloadId(workload)) return undefined;
  const body = savedOptionsToBody(workload, isObj(options) ? options : {});
  const main = body[form.key];
  return { options: nestedOptions(form, body), schema: isObj(main) && isObj(main['schema']) ? main['schema'] : {} };
}

/** The form's option labels keyed by their paths in a saved configuration (options.vus; CH-benCHmark: options.dop, options.tprocc.vus), for placing the API's errors. */
export function savedOptionLabels(workload: string, form: FormOf): Record<string, string> {
  return Object.fromEntries(Object.entries(form.labels).map(([k, label]) => [savedOptionPath(workload, k), label]));
}
