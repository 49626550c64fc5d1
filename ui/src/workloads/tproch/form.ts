import { MIN_SCALE_FACTOR, STANDARD_SCALE_FACTORS, TprochOptions, defaultStreams, isStandardScale } from '@sledge/protocol';
import { collect, defaultsOf, fieldsOf, type FieldSpec, type FormValues } from '../../forms/fields.js';

/**
 * TPROC-H option fields, generated from protocol's TprochOptions schema
 * (titles, defaults, ranges). The scale factor's bound is exclusive (> 0),
 * which fields do not read: its range shows protocol's smallest accepted SF.
 */
export const TPROCH_FIELDS: FieldSpec[] = fieldsOf(TprochOptions as unknown as { properties: Record<string, unknown> }).map((f) =>
  f.name === 'scaleFactor' && f.minimum === undefined ? { ...f, minimum: MIN_SCALE_FACTOR } : f,
);

export const tproch = (name: string): FieldSpec => {
  const f = TPROCH_FIELDS.find((x) => x.name === name);
  if (!f) throw new Error(`no TPROC-H field ${name}`);
  return f;
};

/** Schema page: what a build needs. */
export const BUILD_FIELDS = ['scaleFactor', 'buildVus'];
/**
 * Run page, main settings (HammerDB's TPROC-H Driver Options). The scale
 * factor goes with a run too: the server compares it with the schema's and
 * says so when it corrects it.
 */
export const RUN_FIELDS = ['scaleFactor', 'mode', 'streams', 'querySets', 'dop', 'queryTimeoutSec'];
/** Run page, the refresh functions. */
export const REFRESH_FIELDS = ['refresh', 'updateSets', 'trickleMs'];
/** Run page, advanced settings. */
export const RUN_ADVANCED_FIELDS = ['raiseQueryError', 'validation', 'explain', 'verbose'];

export function tprochDefaults(): FormValues {
  return defaultsOf(TPROCH_FIELDS);
}

/** The `tproch` object of a job body (only `names` when given). */
export function collectTproch(values: FormValues, names?: readonly string[]): Record<string, unknown> {
  return collect(names ? TPROCH_FIELDS.filter((f) => names.includes(f.name)) : TPROCH_FIELDS, values);
}

/** Form values from a stored tproch object (saved configurations, stored jobs). */
export function tprochToForm(t: unknown): FormValues {
  const v = tprochDefaults();
  if (!t || typeof t !== 'object') return v;
  const o = t as Record<string, unknown>;
  for (const f of TPROCH_FIELDS) {
    const raw = o[f.name];
    if (raw === undefined) continue;
    v[f.name] = f.kind === 'boolean' ? raw === true : String(raw);
  }
  return v;
}

/** Every TPROC-H option's form key (`tproch.scaleFactor`) with its label. */
export const TPROCH_LABELS: Readonly<Record<string, string>> = Object.fromEntries(TPROCH_FIELDS.map((f) => [`tproch.${f.name}`, f.title]));

/** The scale factors offered as presets: two test sizes (non-standard) and the standard ones up to 1000. */
export const SCALE_PRESETS: readonly number[] = [0.01, 0.1, ...STANDARD_SCALE_FACTORS.filter((s) => s <= 1000)];

/** A scale factor typed in the form, or undefined when it is not a positive number. */
export function typedScale(text: unknown): number | undefined {
  const n = typeof text === 'string' && text.trim() !== '' ? Number(text) : typeof text === 'number' ? text : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The help under the scale factor: the standard list, and a word when the typed one is not on it. */
export function scaleHint(text: unknown): string {
  const sf = typedScale(text);
  const list = `Standard: ${STANDARD_SCALE_FACTORS.join(', ')}.`;
  if (sf === undefined || isStandardScale(sf)) return list;
  return `SF ${sf} is non-standard: it runs (fractions are for tests) and the job and its result are marked non-standard, not comparable with TPC-H results. ${list}`;
}

/** The help under the streams field: what leaving it empty means for the scale factor in the form. */
export function streamsHint(streamsText: unknown, scaleText: unknown): string {
  const sf = typedScale(scaleText);
  const n = sf === undefined ? undefined : defaultStreams(sf);
  const typed = typeof streamsText === 'string' ? streamsText.trim() : '';
  const empty = n === undefined ? 'Empty: the TPC-H count for the scale factor' : `Empty: the TPC-H count for SF ${sf}, ${n} streams`;
  const now = typed === '' && n !== undefined ? ` (this run: ${n})` : '';
  return `${empty}${now}. Throughput test only; a power test runs one stream.`;
}
