import { BUILTIN_SCRIPTS, MAX_SCRIPTS, Problems, ScriptOptions, parseScriptOptions, type BuiltinScript, type ScriptCheck } from '@sledge/protocol';
import { collect, defaultsOf, fieldsOf, type FieldSpec, type FormValues } from '../../forms/fields.js';
import { SHAPE_FIELD_NAMES, SHAPE_FIELD_SPECS, putShape, storedShape } from '../run-shape.js';

/**
 * The script workload's form (docs/script-workload.md): the run options come
 * from protocol's ScriptOptions schema (VUs, rampup, duration, scale,
 * workers, threads); the scripts themselves are a list of drafts kept as one form
 * value (`scripts`, JSON text) so saved configurations, stored jobs and the
 * workbench keep them as they keep every other option. Pure: no React.
 */

/** One script as the editor holds it: weight as typed; a built-in untouched since it was picked has no text of its own. */
export interface ScriptDraft {
  name: string;
  weight: string;
  text: string;
  /** pgbench's built-in, while its text is not edited (sent as `builtin`, the server fills in its text). */
  builtin?: BuiltinScript;
}

/** The form value that holds the drafts (JSON). */
export const SCRIPTS_FIELD = 'scripts';

/** One form name per script slot (`scripts[0]`): a job error at `script.scripts[0].text` is placed at its script. */
export const SCRIPT_SLOTS: readonly string[] = Array.from({ length: MAX_SCRIPTS }, (_, i) => `scripts[${i}]`);

/** The options' fields, then the run shape's (step loads as text, `arrival.<name>`: ../run-shape.ts). */
export const SCRIPT_FIELDS: FieldSpec[] = [...fieldsOf(ScriptOptions as unknown as { properties: Record<string, unknown> }), ...SHAPE_FIELD_SPECS];

export const scriptField = (name: string): FieldSpec => {
  const f = SCRIPT_FIELDS.find((x) => x.name === name);
  if (!f) throw new Error(`no script workload field ${name}`);
  return f;
};

/** Schema page: pgbench -i's scale. */
export const BUILD_FIELDS = ['scale'];
/** Run page, main settings. */
export const RUN_FIELDS = ['vus', 'rampup', 'duration', 'scale'];
export const RUN_ADVANCED_FIELDS = ['workers', 'threads'];
/** Run page, run shape: step loads or an arrival rate (docs/run-shapes.md). */
export const SHAPE_FIELDS: readonly string[] = SHAPE_FIELD_NAMES;

const isBuiltin = (x: unknown): x is BuiltinScript => typeof x === 'string' && (BUILTIN_SCRIPTS as readonly string[]).includes(x);

/** The drafts a form value holds; a value that is not a list of drafts gives protocol's default (tpcb-like). */
export function draftsOf(value: unknown): ScriptDraft[] {
  if (typeof value === 'string' && value.trim() !== '') {
    try {
      const list = JSON.parse(value) as unknown;
      if (Array.isArray(list)) {
        return list
          .filter((d): d is Record<string, unknown> => !!d && typeof d === 'object')
          .map((d) => ({ name: String(d['name'] ?? ''), weight: String(d['weight'] ?? '1'), text: String(d['text'] ?? ''), ...(isBuiltin(d['builtin']) ? { builtin: d['builtin'] } : {}) }));
      }
    } catch {
      // not JSON: the default below
    }
  }
  return [{ name: 'tpcb-like', weight: '1', text: '', builtin: 'tpcb-like' }];
}

/** The form value of a list of drafts. */
export const draftsValue = (drafts: readonly ScriptDraft[]): string => JSON.stringify(drafts);

/** The first `script<N>` no draft is named. */
export function freeName(drafts: readonly ScriptDraft[], base = 'script'): string {
  const taken = new Set(drafts.map((d) => d.name));
  if (base !== 'script' && !taken.has(base)) return base;
  for (let n = 1; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

/** A new empty script at the end (at most MAX_SCRIPTS). */
export function addDraft(drafts: readonly ScriptDraft[]): ScriptDraft[] {
  if (drafts.length >= MAX_SCRIPTS) return [...drafts];
  return [...drafts, { name: freeName(drafts), weight: '1', text: '' }];
}

/** The list without script `i` (the last one stays: a run needs one). */
export function removeDraft(drafts: readonly ScriptDraft[], i: number): ScriptDraft[] {
  if (drafts.length <= 1) return [...drafts];
  return drafts.filter((_, j) => j !== i);
}

/**
 * Script `i` becomes pgbench's built-in `b` as a starting point: its text is
 * the built-in's; a draft named after nothing the user chose (empty, or
 * `script<N>`, or another built-in) takes the built-in's name when free.
 */
export function pickBuiltin(drafts: readonly ScriptDraft[], i: number, b: BuiltinScript): ScriptDraft[] {
  return drafts.map((d, j) => {
    if (j !== i) return d;
    const others = drafts.filter((_, k) => k !== i);
    const generic = d.name === '' || /^script\d+$/.test(d.name) || isBuiltin(d.name);
    const name = generic && !others.some((o) => o.name === b) ? b : d.name;
    return { name, weight: d.weight, text: '', builtin: b };
  });
}

/** Script `i` with one part changed; editing a built-in's text makes it the user's own script. */
export function editDraft(drafts: readonly ScriptDraft[], i: number, change: Partial<Pick<ScriptDraft, 'name' | 'weight' | 'text'>>): ScriptDraft[] {
  return drafts.map((d, j) => {
    if (j !== i) return d;
    const next: ScriptDraft = { ...d, ...change };
    if (change.text !== undefined) delete next.builtin;
    return next;
  });
}

/** The text a draft runs: its own, or its built-in's (from GET /scripts/builtins; '' until known). */
export function draftText(d: ScriptDraft, builtins: Readonly<Record<string, string>>): string {
  return d.builtin && d.text === '' ? (builtins[d.builtin] ?? '') : d.text;
}

/** A weight as typed: a whole number when it is one, else the text (the server names the field). */
function weightOf(text: string): number | string {
  const t = text.trim();
  if (t === '') return 1;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/** The `scripts` list of a job body: a built-in by name, the user's by text. */
export function scriptEntries(drafts: readonly ScriptDraft[]): Record<string, unknown>[] {
  return drafts.map((d) => {
    const name = d.name.trim();
    return { ...(name ? { name } : {}), ...(d.builtin && d.text === '' ? { builtin: d.builtin } : { text: d.text }), weight: weightOf(d.weight) };
  });
}

/** The `script` object of a job body (only `names` when given; the scripts go with `scripts` or any slot). */
export function collectScript(values: FormValues, names?: readonly string[]): Record<string, unknown> {
  const flat = collect(names ? SCRIPT_FIELDS.filter((f) => names.includes(f.name)) : SCRIPT_FIELDS, values);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat)) if (!putShape(k, v, out)) out[k] = v;
  if (!names || names.includes(SCRIPTS_FIELD)) out['scripts'] = scriptEntries(draftsOf(values[SCRIPTS_FIELD]));
  return out;
}

export function scriptDefaults(): FormValues {
  return { ...defaultsOf(SCRIPT_FIELDS), [SCRIPTS_FIELD]: draftsValue(draftsOf(undefined)) };
}

/** Form values from a stored `script` object (a job's, where built-ins carry their text too, or a saved body's). */
export function scriptToForm(stored: unknown): FormValues {
  const v = scriptDefaults();
  if (!stored || typeof stored !== 'object') return v;
  const o = stored as Record<string, unknown>;
  for (const f of SCRIPT_FIELDS) {
    const raw = SHAPE_FIELD_NAMES.includes(f.name) ? storedShape(f.name, o) : o[f.name];
    if (raw !== undefined) v[f.name] = String(raw);
  }
  if (Array.isArray(o['scripts']) && o['scripts'].length) {
    const drafts = (o['scripts'] as Record<string, unknown>[]).map((s, i): ScriptDraft => {
      const builtin = isBuiltin(s['builtin']) ? s['builtin'] : undefined;
      return { name: String(s['name'] ?? builtin ?? `script${i + 1}`), weight: String(s['weight'] ?? 1), text: builtin ? '' : String(s['text'] ?? ''), ...(builtin ? { builtin } : {}) };
    });
    v[SCRIPTS_FIELD] = draftsValue(drafts);
  }
  return v;
}

/** Validate a `script` object as the server does before it parses the scripts (names, weights, one of text or builtin). */
export function parseScript(options: unknown, path: string): unknown {
  const p = new Problems();
  const o = parseScriptOptions(options, p, path);
  p.throwIfAny();
  return o;
}

/** Every option's form key with its label; each script slot is "Script N". */
export const SCRIPT_LABELS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(SCRIPT_FIELDS.map((f) => [`script.${f.name}`, f.title])),
  'script.scripts': 'Scripts',
  ...Object.fromEntries(
    SCRIPT_SLOTS.flatMap((s, i) => [
      [`script.${s}`, `Script ${i + 1}`],
      [`script.${s}.text`, `Script ${i + 1}`],
      [`script.${s}.name`, `Script ${i + 1}'s name`],
      [`script.${s}.weight`, `Script ${i + 1}'s weight`],
    ]),
  ),
};

/** One script's syntax error as the editor shows it: line, column (when known), what to fix. */
export interface DraftError {
  line: number;
  column?: number | undefined;
  message: string;
}

/**
 * The check's errors by draft: POST /scripts/validate is sent the drafts
 * that have text of their own (built-ins parse), so answer `k` belongs to the
 * k-th of those; `sent` are their indexes in the drafts.
 */
export function errorsByDraft(check: ScriptCheck, sent: readonly number[]): Record<number, DraftError> {
  const out: Record<number, DraftError> = {};
  check.scripts.forEach((s, k) => {
    const i = sent[k];
    if (i !== undefined && s.error) out[i] = { line: s.error.line, column: s.error.column, message: s.error.message };
  });
  return out;
}

/** What the editor sends to POST /scripts/validate: each draft with text of its own, by name, and where it sits. */
export function checkRequest(drafts: readonly ScriptDraft[]): { sent: number[]; scripts: { name: string; text: string }[] } {
  const sent: number[] = [];
  const scripts: { name: string; text: string }[] = [];
  drafts.forEach((d, i) => {
    if (d.builtin && d.text === '') return;
    if (d.text.trim() === '') return; // an empty script is the form check's ("is empty"), not the parser's
    sent.push(i);
    scripts.push({ name: d.name.trim() || `script${i + 1}`, text: d.text });
  });
  return { sent, scripts };
}

/** Each draft's share of the transactions (per cent by weight), undefined where a weight is not a whole number >= 0 or all are 0. */
export function weightShares(drafts: readonly ScriptDraft[]): (number | undefined)[] | undefined {
  const w = drafts.map((d) => (d.weight.trim() === '' ? 1 : Number(d.weight)));
  if (w.some((x) => !Number.isInteger(x) || x < 0)) return undefined;
  const total = w.reduce((a, b) => a + b, 0);
  if (total === 0) return undefined;
  return w.map((x) => (100 * x) / total);
}
