import { ChbenchAnalyticOptions, Problems, parseChbenchOptions, parseChbenchTproccOptions, type Capabilities, type EngineId } from '@sledge/protocol';
import { collect, defaultsOf, fieldsOf, type FieldSpec, type FormValues } from '../../forms/fields.js';
import { chbenchAnalyticOnly } from './jobs.js';
import { BUILD_FIELDS as TPROCC_BUILD_FIELDS, KEY_THINK_FIELDS, MIX_FIELDS, TPROCC_FIELDS, TPROCC_LABELS, collectTprocc, tproccDefaults, tproccToForm } from '../tprocc/form.js';

/**
 * CH-benCHmark's form: TPROC-C's options (the transactional VUs, sent as the
 * body's `tprocc`) and the analytic streams' options, fields named
 * `chbench.<name>` (sent as the body's `chbench`, a part of the form: see
 * ../body.ts). The analytic fields come from protocol's ChbenchAnalyticOptions.
 */
export const CHBENCH_PART = 'chbench';

const analyticFields: FieldSpec[] = fieldsOf(ChbenchAnalyticOptions as unknown as { properties: Record<string, unknown> }).map((f) => ({ ...f, name: `${CHBENCH_PART}.${f.name}` }));

// VUs may be 0 here (the analytic streams alone: protocol's parseChbenchTproccOptions), so the field's range starts at 0.
const tproccFields: FieldSpec[] = TPROCC_FIELDS.map((f) => (f.name === 'vus' ? { ...f, minimum: 0 } : f));

export const CHBENCH_FIELDS: FieldSpec[] = [...tproccFields, ...analyticFields];

export const chbenchField = (name: string): FieldSpec => {
  const f = CHBENCH_FIELDS.find((x) => x.name === name);
  if (!f) throw new Error(`no CH-benCHmark field ${name}`);
  return f;
};

/** Schema page: TPROC-C's build (warehouses, build VUs); the schema options come with `schemaFields`. */
export const BUILD_FIELDS = TPROCC_BUILD_FIELDS;
/**
 * Run page, main settings: TPROC-C's timed driver options. No driver choice
 * (CH-benCHmark runs the timed driver only), no test-driver iterations and no
 * run shapes (one measured window, closed-loop VUs).
 */
export const RUN_FIELDS = ['vus', 'rampup', 'duration', 'userDelayMs', 'keyAndThink', 'allWarehouse', 'timeProfile'];
/** Run page, advanced settings (TPROC-C's, without the asynchronous client's and the replicas' which a CH-benCHmark run has not). */
export const RUN_ADVANCED_FIELDS = ['raiseError', 'repeatDelayMs', 'tcRefreshSec', 'workers', 'reconnect', 'maxTries', 'retryOn'];
/** Run page, the "Analytic streams" section. */
export const ANALYTIC_FIELDS = analyticFields.map((f) => f.name);
export { KEY_THINK_FIELDS, MIX_FIELDS };

export function chbenchDefaults(): FormValues {
  return { ...tproccDefaults(), ...defaultsOf(analyticFields) };
}

/** The defaults that depend on the engine: 0 TPROC-C VUs where the engine runs the analytic streams alone (DuckDB refuses a run with VUs). */
export function chbenchEngineDefaults(engine: EngineId, caps: Capabilities | undefined): FormValues {
  return chbenchAnalyticOnly(engine, caps) ? { vus: '0' } : {};
}

/** The form's options: TPROC-C's object with the analytic options nested under `chbench` (when any is named). */
export function collectChbench(values: FormValues, names?: readonly string[]): Record<string, unknown> {
  const tprocc = collectTprocc(values, names ? names.filter((n) => !n.startsWith(`${CHBENCH_PART}.`)) : undefined);
  const fields = names ? analyticFields.filter((f) => names.includes(f.name)) : analyticFields;
  if (!fields.length) return tprocc;
  const flat = collect(fields, values);
  const analytic = Object.fromEntries(Object.entries(flat).map(([k, v]) => [k.slice(CHBENCH_PART.length + 1), v]));
  return { ...tprocc, [CHBENCH_PART]: analytic };
}

/** Form values from the nested options object (a stored job's `tprocc` with its `chbench` beside it, joined by ../body.ts). */
export function chbenchToForm(stored: unknown): FormValues {
  const o = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const { [CHBENCH_PART]: analytic, ...tprocc } = o;
  const v: FormValues = { ...tproccToForm(tprocc), ...defaultsOf(analyticFields) };
  const a = analytic && typeof analytic === 'object' ? (analytic as Record<string, unknown>) : {};
  for (const f of analyticFields) {
    const raw = a[f.name.slice(CHBENCH_PART.length + 1)];
    if (raw !== undefined) v[f.name] = f.kind === 'boolean' ? raw === true : String(raw);
  }
  return v;
}

/**
 * Validate the nested options as the server does: TPROC-C's under `tprocc`
 * (schema options against the engine), the analytic ones under `chbench`,
 * and CH-benCHmark's own rules (timed driver, no run shapes). Every problem
 * at once, at its body path.
 */
export function parseChbench(options: unknown, path: string, engine?: EngineId): unknown {
  const o = options && typeof options === 'object' && !Array.isArray(options) ? (options as Record<string, unknown>) : {};
  const { [CHBENCH_PART]: analytic, ...rest } = o;
  const p = new Problems();
  // VUs may be 0: the analytic streams alone (DuckDB's only CH-benCHmark run).
  const tprocc = p.check(() => parseChbenchTproccOptions(rest, path, engine));
  const chbench = p.check(() => parseChbenchOptions(analytic));
  if (tprocc && chbench && tprocc.vus === 0 && chbench.analyticStreams === 0) p.add(`${path}.vus`, `${path}.vus 0 and ${CHBENCH_PART}.analyticStreams 0 leave nothing to run: give the run VUs, analytic streams, or both`);
  if (tprocc) {
    if (tprocc.driver !== 'timed') p.add(`${path}.driver`, `CH-benCHmark runs the timed driver: set ${path}.driver to "timed"`);
    if (tprocc.steps) p.add(`${path}.steps`, `CH-benCHmark runs one measured window: remove ${path}.steps`);
    if (tprocc.arrival) p.add(`${path}.arrival`, `CH-benCHmark runs closed-loop VUs: remove ${path}.arrival`);
  }
  p.throwIfAny();
  return { tprocc, chbench };
}

/** Every option's form key with its label: TPROC-C's (`tprocc.vus`) and the analytic ones (`chbench.dop`). */
export const CHBENCH_LABELS: Readonly<Record<string, string>> = {
  ...TPROCC_LABELS,
  ...Object.fromEntries(analyticFields.map((f) => [f.name, f.title])),
};
