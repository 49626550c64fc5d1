import type { Capabilities, EngineId } from '@sledge/protocol';
import type { FormValues } from '../forms/fields.js';
import type { WorkloadForm } from '../workloads/types.js';

/** Where a form's defaults are taken: the engine and what the server says it can do (undefined until loaded). */
export interface DefaultsContext {
  engine: EngineId;
  caps: Capabilities | undefined;
}

/** A workload's option defaults on an engine: the form's defaults with the engine's own over them (CH-benCHmark's 0 VUs on DuckDB). */
export function defaultsFor(form: WorkloadForm, at: DefaultsContext): FormValues {
  return { ...form.defaults(), ...(form.engineDefaults?.(at.engine, at.caps) ?? {}) };
}

/**
 * Option values after the engine (or what is known of it) changes: a value
 * still at the old engine's default takes the new engine's; a value the user
 * chose stays. Only the options whose default depends on the engine move.
 */
export function switchEngineDefaults(form: WorkloadForm, values: FormValues, from: DefaultsContext, to: DefaultsContext): FormValues {
  if (!form.engineDefaults) return values;
  const before = defaultsFor(form, from);
  const after = defaultsFor(form, to);
  const names = new Set([...Object.keys(form.engineDefaults(from.engine, from.caps)), ...Object.keys(form.engineDefaults(to.engine, to.caps))]);
  let out = values;
  for (const n of names) {
    if (values[n] === before[n] && before[n] !== after[n] && after[n] !== undefined) out = { ...out, [n]: after[n] };
  }
  return out;
}
