import { TPROCC_SCHEMA_SCHEMAS, TX_PROC, TX_TYPES, TproccOptions, isStandardMix, stepsToText, type EngineId, type LoadStep, type TproccMix, type TxType } from '@sledge/protocol';
import { collect, defaultsOf, fieldsOf, type FieldSpec, type FormValues } from '../../forms/fields.js';
import { SHAPE_FIELD_SPECS, putShape } from '../run-shape.js';

/** TPROC-C option fields, generated from protocol's TproccOptions schema; mix weights are keyed `mix.<type>`. */
const props = (TproccOptions as unknown as { properties: Record<string, { properties?: Record<string, unknown> }> }).properties;
const mixFields: FieldSpec[] = fieldsOf(props['mix']).map((f) => ({ ...f, name: `mix.${f.name}`, title: TX_PROC[f.name as TxType] ?? f.name, group: 'driver' }));

/** The keying and thinking table: `keyThink.<type>.keyingSec` and `keyThink.<type>.thinkMeanSec` per transaction type. */
const keyThinkProps = (props['keyThink'] as { properties?: Record<string, { properties?: Record<string, unknown> }> } | undefined)?.properties ?? {};
const keyThinkFields: FieldSpec[] = Object.entries(keyThinkProps).flatMap(([t, s]) =>
  fieldsOf(s).map((f) => ({ ...f, name: `keyThink.${t}.${f.name}`, title: `${TX_PROC[t as TxType] ?? t} ${f.title.toLowerCase()}`, group: 'driver' as const })),
);

/** Run shapes: step loads as text, the arrival rate's fields keyed `arrival.<name>` (../run-shape.ts). */
const shapeFields: FieldSpec[] = SHAPE_FIELD_SPECS;

export const TPROCC_FIELDS: FieldSpec[] = [...fieldsOf(TproccOptions as unknown as { properties: Record<string, unknown> }), ...mixFields, ...keyThinkFields, ...shapeFields];

/** An engine's TPROC-C schema options (protocol's TPROCC_SCHEMA_SCHEMAS): the Schema page's fields beside warehouses and build VUs. */
export function tproccSchemaFields(engine: EngineId): FieldSpec[] {
  return fieldsOf(TPROCC_SCHEMA_SCHEMAS[engine] as unknown as { properties: Record<string, unknown> });
}

export const tprocc = (name: string): FieldSpec => {
  const f = TPROCC_FIELDS.find((x) => x.name === name);
  if (!f) throw new Error(`no TPROC-C field ${name}`);
  return f;
};

/** Schema page: what a build needs. */
export const BUILD_FIELDS = ['warehouses', 'buildVus'];
/** Run page, main settings (HammerDB's Driver Options dialog). */
export const RUN_FIELDS = ['driver', 'vus', 'rampup', 'duration', 'userDelayMs', 'iterations', 'totalIterations', 'keyAndThink', 'allWarehouse', 'timeProfile'];
/** Run page, advanced settings. */
export const RUN_ADVANCED_FIELDS = ['raiseError', 'repeatDelayMs', 'tcRefreshSec', 'asyncScale', 'asyncClients', 'asyncDelayMs', 'asyncVerbose', 'workers', 'reconnect', 'maxTries', 'retryOn'];
export const MIX_FIELDS = mixFields.map((f) => f.name);

/** The mix as typed: each type's share (%, 0 when blank), and whether it is HammerDB's standard 10/10/1/1/1 in proportion; undefined while a weight is not a whole number >= 0 or all are 0 (the field's own error says why). */
export function mixShares(values: FormValues): { shares: Record<TxType, number>; standard: boolean } | undefined {
  const w = {} as TproccMix;
  for (const t of TX_TYPES) {
    const raw = values[`mix.${t}`];
    const n = raw === undefined || raw === '' ? 0 : Number(raw);
    if (!Number.isInteger(n) || n < 0) return undefined;
    w[t] = n;
  }
  const total = TX_TYPES.reduce((a, t) => a + w[t], 0);
  if (total <= 0) return undefined;
  return { shares: Object.fromEntries(TX_TYPES.map((t) => [t, (w[t] / total) * 100])) as Record<TxType, number>, standard: isStandardMix(w) };
}
/** The keying and thinking table's fields (shown while keyAndThink is on). */
export const KEY_THINK_FIELDS = keyThinkFields.map((f) => f.name);
/** Its rows: each transaction type with its two fields. */
export const KEY_THINK_ROWS = Object.keys(keyThinkProps).map((t) => ({ type: t, label: TX_PROC[t as TxType] ?? t, keying: `keyThink.${t}.keyingSec`, think: `keyThink.${t}.thinkMeanSec` }));
/** Run page, run shape: step loads or an arrival rate. */
export const SHAPE_FIELDS = shapeFields.map((f) => f.name);

export function tproccDefaults(): FormValues {
  return defaultsOf(TPROCC_FIELDS);
}

/** The `tprocc` object of a job body: every option, mix weights nested. */
export function collectTprocc(values: FormValues, names?: readonly string[]): Record<string, unknown> {
  const fields = names ? TPROCC_FIELDS.filter((f) => names.includes(f.name)) : TPROCC_FIELDS;
  const flat = collect(fields, values);
  const out: Record<string, unknown> = {};
  const mix: Record<string, unknown> = {};
  const keyThink: Record<string, Record<string, unknown>> = {};
  for (const [k, v] of Object.entries(flat)) {
    if (k.startsWith('mix.')) mix[k.slice(4)] = v;
    else if (k.startsWith('keyThink.')) {
      const [, t, f] = k.split('.');
      (keyThink[t!] ??= {})[f!] = v;
    } else if (!putShape(k, v, out)) out[k] = v;
  }
  if (Object.keys(mix).length) out['mix'] = mix;
  if (Object.keys(keyThink).length) out['keyThink'] = keyThink;
  return out;
}

/** Form values from a stored tprocc object (saved configurations). */
export function tproccToForm(t: unknown): FormValues {
  const v = tproccDefaults();
  if (!t || typeof t !== 'object') return v;
  const o = t as Record<string, unknown>;
  for (const f of TPROCC_FIELDS) {
    let raw: unknown;
    if (f.name === 'steps') raw = Array.isArray(o['steps']) ? stepsToText(o['steps'] as LoadStep[]) : o['steps'];
    else {
      // Nested fields (mix.<type>, keyThink.<type>.<field>, arrival.<field>) by their path.
      raw = o;
      for (const p of f.name.split('.')) raw = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[p] : undefined;
    }
    if (raw === undefined) continue;
    v[f.name] = f.kind === 'boolean' ? raw === true : f.kind === 'list' && Array.isArray(raw) ? raw.map(String).join(', ') : String(raw);
  }
  return v;
}

/** Every TPROC-C option's form key (`tprocc.vus`, `tprocc.mix.payment`) with its label, plus the mix as a whole. */
export const TPROCC_LABELS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(TPROCC_FIELDS.map((f) => [`tprocc.${f.name}`, f.title])),
  'tprocc.mix': 'Transaction mix weights',
  'tprocc.keyThink': 'Keying and thinking times',
};
