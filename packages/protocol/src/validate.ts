import type Type from 'typebox';
import Value from 'typebox/value';
import { SledgeError, type ErrorCode, type FieldError } from './errors.js';
import { didYouMean } from './suggest.js';

interface TbError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

const pathToField = (prefix: string, instancePath: string): string => {
  const parts = instancePath.split('/').filter(Boolean);
  return [prefix, ...parts].filter(Boolean).join('.');
};

/** A value as a short quoted snippet for messages. */
export const show = (v: unknown): string => {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (v === undefined) return 'nothing';
  try {
    const s = JSON.stringify(v);
    return s.length > 40 ? s.slice(0, 40) + '…' : s;
  } catch {
    return String(v);
  }
};

const getAt = (root: unknown, instancePath: string): unknown => {
  let cur: unknown = root;
  for (const p of instancePath.split('/').filter(Boolean)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
};

/** The sub-schema at an instance path (through properties and items), if it can be followed. */
function schemaAt(schema: unknown, instancePath: string): Record<string, unknown> | undefined {
  let cur = schema as Record<string, unknown> | undefined;
  for (const p of instancePath.split('/').filter(Boolean)) {
    if (!cur) return undefined;
    const props = cur['properties'] as Record<string, Record<string, unknown>> | undefined;
    cur = props?.[p] ?? (cur['items'] as Record<string, unknown> | undefined);
  }
  return cur;
}

/** The values of a union of literals (an enum), or undefined for any other schema. */
function allowedValues(sub: Record<string, unknown> | undefined): string[] | undefined {
  const members = (sub?.['anyOf'] as Record<string, unknown>[] | undefined) ?? (sub?.['enum'] ? (sub['enum'] as unknown[]).map((c) => ({ const: c })) : undefined);
  if (!members?.length || !members.every((m) => 'const' in m)) return undefined;
  return members.map((m) => String(m['const']));
}

/** One message per field at fault: unknown and missing fields first, then each field's deepest error. */
function fieldErrors(errors: TbError[], value: unknown, prefix: string, schema: unknown): FieldError[] {
  const byField = new Map<string, FieldError & { rank: number }>();
  const add = (field: string, message: string, rank: number) => {
    const had = byField.get(field);
    if (!had || rank < had.rank) byField.set(field, { field, message, rank });
  };
  for (const e of errors) {
    if (e.keyword === 'additionalProperties') {
      for (const name of (e.params['additionalProperties'] as string[] | undefined) ?? []) {
        const field = pathToField(prefix, `${e.instancePath}/${name}`);
        add(field, `unknown field ${field}: remove it or check its spelling`, 0);
      }
      continue;
    }
    if (e.keyword === 'required') {
      for (const name of (e.params['requiredProperties'] as string[] | undefined) ?? []) {
        const field = pathToField(prefix, `${e.instancePath}/${name}`);
        const allowed = allowedValues(schemaAt(schema, `${e.instancePath}/${name}`));
        add(field, `${field} is required${allowed ? `: one of ${allowed.join(', ')}` : ''}`, 1);
      }
      continue;
    }
    const field = pathToField(prefix, e.instancePath) || prefix || 'body';
    const given = getAt(value, e.instancePath);
    const got = show(given);
    if (e.keyword === 'anyOf' || e.keyword === 'const' || e.keyword === 'enum') {
      const allowed = allowedValues(schemaAt(schema, e.instancePath));
      add(field, allowed ? `${field} must be one of ${allowed.join(', ')} (got ${got})${didYouMean(given, allowed)}` : `${field} ${e.message} (got ${got})`, allowed ? 2 : 4);
      continue;
    }
    if (e.keyword === 'boolean' || e.keyword === 'oneOf') continue;
    add(field, `${field} ${what(e)} (got ${got})`, 3);
  }
  const list = [...byField.values()].sort((a, b) => a.rank - b.rank || b.field.split('.').length - a.field.split('.').length);
  if (!list.length) return [{ field: prefix || 'body', message: `${prefix || 'body'} is invalid` }];
  return list.map(({ field, message }) => ({ field, message }));
}

function what(e: TbError): string {
  switch (e.keyword) {
    case 'type':
      return `must be ${article(String(e.params['type']))}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(e.params['comparison'])} ${String(e.params['limit'])}`;
    case 'minLength':
      return `must have at least ${String(e.params['limit'])} character(s)`;
    case 'maxLength':
      return `must have at most ${String(e.params['limit'])} characters`;
    case 'pattern':
      return `must match ${String(e.params['pattern'])}`;
    default:
      return e.message;
  }
}

const article = (t: string) => (t === 'integer' ? 'an integer' : t === 'object' || t === 'array' ? `an ${t}` : `a ${t}`);

/** Validate `value` against `schema`; throw SLEDGE_E_VALIDATION naming every field at fault. Returns the value with defaults applied. */
export function validate<T extends Type.TSchema>(schema: T, value: unknown, prefix = ''): Type.Static<T> {
  const withDefaults = Value.Default(schema, Value.Clone(value));
  if (Value.Check(schema, withDefaults)) return withDefaults as Type.Static<T>;
  throw SledgeError.ofFields('SLEDGE_E_VALIDATION', fieldErrors(Value.Errors(schema, withDefaults) as unknown as TbError[], withDefaults, prefix, schema));
}

/**
 * Collects the field errors of several independent checks so that one reply
 * lists them all. `check` runs a step and keeps its SledgeError; `fail`
 * throws once, with every error, when any step failed.
 */
export class Problems {
  private readonly list: FieldError[] = [];
  private code: ErrorCode | undefined;

  check<T>(step: () => T): T | undefined {
    try {
      return step();
    } catch (e) {
      if (!SledgeError.is(e)) throw e;
      const se = e as SledgeError;
      this.code ??= se.code;
      this.list.push(...(se.errors ?? [{ field: se.field ?? 'body', message: se.message }]));
      return undefined;
    }
  }

  add(field: string, message: string): void {
    this.code ??= 'SLEDGE_E_VALIDATION';
    this.list.push({ field, message });
  }

  get any(): boolean {
    return this.list.length > 0;
  }

  throwIfAny(): void {
    if (this.list.length) throw SledgeError.ofFields(this.code ?? 'SLEDGE_E_VALIDATION', this.list);
  }
}
