/**
 * Form fields generated from JSON Schema (the target schemas the server
 * publishes at /targets/schema, and protocol's TproccOptions). Pure: no React.
 */

/** 'list': an array of enum values, edited as comma-separated text (options: the allowed values). */
export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'list';
export type FieldGroup = 'connection' | 'schema' | 'driver';

export interface FieldSpec {
  name: string;
  title: string;
  description?: string;
  kind: FieldKind;
  options?: string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  /** The schema's pattern (strings): a blank field it refuses, without a default, is left out rather than sent as "". */
  pattern?: string;
  secret: boolean;
  group: FieldGroup;
}

type Json = Record<string, unknown>;

const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
const num = (x: unknown): number | undefined => (typeof x === 'number' ? x : undefined);

function enumOptions(s: Json): string[] | undefined {
  if (Array.isArray(s['enum'])) return (s['enum'] as unknown[]).map(String);
  const alts = (s['anyOf'] ?? s['oneOf']) as Json[] | undefined;
  if (Array.isArray(alts) && alts.length && alts.every((a) => a && 'const' in a)) return alts.map((a) => String(a['const']));
  return undefined;
}

/** One field from one property schema, or null for what a form does not edit (the engine tag, nested objects). */
export function fieldFromSchema(name: string, s: Json): FieldSpec | null {
  if ('const' in s) return null;
  const items = s['type'] === 'array' && s['items'] && typeof s['items'] === 'object' ? enumOptions(s['items'] as Json) : undefined;
  const options = items ?? enumOptions(s);
  let kind: FieldKind;
  if (items) kind = 'list';
  else if (options) kind = 'enum';
  else if (s['type'] === 'boolean') kind = 'boolean';
  else if (s['type'] === 'integer') kind = 'integer';
  else if (s['type'] === 'number') kind = 'number';
  else if (s['type'] === 'string') kind = 'string';
  else return null;
  const group = str(s['x-group']);
  const spec: FieldSpec = {
    name,
    title: str(s['title']) ?? name,
    kind,
    secret: s['x-secret'] === true,
    group: group === 'schema' || group === 'driver' ? group : 'connection',
  };
  const description = str(s['description']);
  if (description) spec.description = description;
  if (options) spec.options = options;
  if ('default' in s) spec.default = s['default'];
  const min = num(s['minimum']);
  const max = num(s['maximum']);
  if (min !== undefined) spec.minimum = min;
  if (max !== undefined) spec.maximum = max;
  const pattern = str(s['pattern']);
  if (pattern !== undefined) spec.pattern = pattern;
  return spec;
}

/** Every editable field of an object schema, in declaration order. */
export function fieldsOf(schema: { properties?: Record<string, unknown> } | undefined): FieldSpec[] {
  if (!schema?.properties) return [];
  const out: FieldSpec[] = [];
  for (const [name, s] of Object.entries(schema.properties)) {
    if (s && typeof s === 'object') {
      const f = fieldFromSchema(name, s as Json);
      if (f) out.push(f);
    }
  }
  return out;
}

/** Form values are kept as typed for booleans and as typed text for everything else. */
export type FormValue = string | boolean;
export type FormValues = Record<string, FormValue>;

export function defaultsOf(fields: readonly FieldSpec[]): FormValues {
  const v: FormValues = {};
  for (const f of fields) v[f.name] = toFormValue(f, f.default);
  return v;
}

export function toFormValue(f: FieldSpec, x: unknown): FormValue {
  if (f.kind === 'boolean') return x === true;
  if (x === undefined || x === null) return '';
  if (f.kind === 'list' && Array.isArray(x)) return x.map(String).join(', ');
  return String(x);
}

/**
 * Form text to the value sent to the server. Numbers that do not parse are
 * sent as typed so the server names the field in its error (the UI does not
 * second-guess the API's validation).
 */
export function fromFormValue(f: FieldSpec, v: FormValue | undefined): unknown {
  if (v === undefined) return f.default;
  if (f.kind === 'boolean') return v === true;
  const text = String(v).trim();
  if (f.kind === 'list') return text.split(',').map((x) => x.trim()).filter((x) => x !== '');
  if (f.kind === 'integer' || f.kind === 'number') {
    if (text === '') return undefined;
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  // An optional field left blank whose pattern refuses "" (DuckDB's memory limit) is not set: the engine's own default applies.
  if (text === '' && f.default === undefined && f.pattern !== undefined && !new RegExp(f.pattern).test('')) return undefined;
  return String(v);
}

/** Build an object from form values (undefined entries omitted). */
export function collect(fields: readonly FieldSpec[], values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const x = fromFormValue(f, values[f.name]);
    if (x !== undefined) out[f.name] = x;
  }
  return out;
}

/**
 * Which form field an API error concerns. The server names fields as dotted
 * paths (`target.port`, `tprocc.warehouses`, `tprocc.mix.payment`); forms key
 * them as `<prefix>.<name>`. Returns the key, or null when no field of the
 * given list matches.
 */
export function fieldKeyFor(apiField: string | undefined, keys: readonly string[]): string | null {
  if (!apiField) return null;
  if (keys.includes(apiField)) return apiField;
  // A deeper path (tprocc.mix.payment) belongs to its closest listed ancestor.
  const parts = apiField.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const k = parts.slice(0, i).join('.');
    if (keys.includes(k)) return k;
  }
  return null;
}
