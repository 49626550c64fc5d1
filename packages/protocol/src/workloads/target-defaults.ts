/**
 * A workload's own target defaults (WorkloadDef.targetDefaults: TPROC-H's
 * `tproch.sqlite`, database `tpch` ...) put into a target. The server fills
 * fields a body leaves out (what the CLI sends); the dashboard's form shows
 * them as the defaults of the workload it works on. Pure: the registry
 * lookups are in ./index.ts.
 */

/** Field -> value defaults of one workload on one engine. */
export type TargetDefaults = Readonly<Record<string, string>>;

/**
 * Fill the fields a target leaves out with a workload's defaults. A user is
 * only defaulted together with its password, so a given user keeps the
 * password sent with it.
 */
export function applyTargetDefaults<T>(defaults: TargetDefaults | undefined, target: T): T {
  if (!defaults || target === null || typeof target !== 'object' || Array.isArray(target)) return target;
  const t = { ...(target as Record<string, unknown>) };
  const userGiven = t['user'] !== undefined;
  for (const [k, v] of Object.entries(defaults)) {
    if (t[k] !== undefined) continue;
    if (k === 'password' && userGiven) continue;
    t[k] = v;
  }
  return t as T;
}

/**
 * A form's target values when its workload changes: a field still at the
 * old workload's default (its own, else the target schema's) takes the new
 * one's, so the SQLite file, database and user move with the workload; a
 * value the user chose stays, and a field never set stays unset (the form
 * shows the new workload's default for it). As in applyTargetDefaults, a
 * chosen user keeps its password.
 */
export function switchTargetDefaults(
  values: Readonly<Record<string, unknown>>,
  from: TargetDefaults | undefined,
  to: TargetDefaults | undefined,
  schemaDefaults: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const was = (k: string) => from?.[k] ?? schemaDefaults[k];
  const out: Record<string, unknown> = { ...values };
  const userChosen = values['user'] !== undefined && values['user'] !== was('user');
  for (const k of new Set([...Object.keys(from ?? {}), ...Object.keys(to ?? {})])) {
    if (k === 'password' && userChosen) continue;
    if (values[k] === undefined || values[k] !== was(k)) continue;
    const next = to?.[k] ?? schemaDefaults[k];
    if (next === undefined) delete out[k];
    else out[k] = next;
  }
  return out;
}
