import { ArrivalOptions, parseStepsText, stepsToText, type LoadStep } from '@sledge/protocol';
import { fieldsOf, type FieldSpec } from '../forms/fields.js';

/**
 * Run shapes as form fields (docs/run-shapes.md), shared by the workloads
 * that take them (TPROC-C, the script workload): step loads as text
 * (`START:DURATION:VUS, ...`) in `steps`, the arrival rate's fields keyed
 * `arrival.<name>`; blank = not set. Pure: no React.
 */
const ARRIVAL_TITLES: Record<string, string> = { rate: 'Arrival rate (tx/s)', rampTo: 'Ramp rate to (tx/s)', maxSessions: 'Max sessions', graceMs: 'Drop when late by (ms)' };

export const SHAPE_FIELD_SPECS: FieldSpec[] = [
  {
    name: 'steps',
    title: 'Step loads',
    description: 'START_AFTER_MIN:DURATION_MIN:VUS per step, e.g. "0:1:2, 1:1:4"; must fit within rampup + duration',
    kind: 'string',
    default: '',
    secret: false,
    group: 'driver',
  },
  ...fieldsOf(ArrivalOptions as unknown as { properties: Record<string, unknown> }).map((f) => {
    const { default: _d, ...rest } = f;
    // Rates are > 0 (exclusiveMinimum, which the range hint does not show): the hint reads 0–max.
    return { ...rest, minimum: rest.minimum ?? 0, name: `arrival.${f.name}`, title: ARRIVAL_TITLES[f.name] ?? f.name, group: 'driver' as const };
  }),
];

/** The run shape's form names: `steps`, `arrival.rate`, ... */
export const SHAPE_FIELD_NAMES: readonly string[] = SHAPE_FIELD_SPECS.map((f) => f.name);

/**
 * Puts one collected shape field into a job body's options (`steps` parsed
 * into a list, `arrival.<name>` into `arrival`); false when `k` is not a shape
 * field. Steps that do not parse are sent as typed: the server's error names
 * the field, shown under it.
 */
export function putShape(k: string, v: unknown, out: Record<string, unknown>): boolean {
  if (k.startsWith('arrival.')) {
    ((out['arrival'] ??= {}) as Record<string, unknown>)[k.slice(8)] = v;
    return true;
  }
  if (k !== 'steps') return false;
  const text = String(v).trim();
  if (text === '') return true;
  try {
    out['steps'] = parseStepsText(text);
  } catch {
    out['steps'] = text;
  }
  return true;
}

/** A stored shape field's raw value (steps back to text, arrival.<name> by its path), undefined when not set. */
export function storedShape(name: string, o: Record<string, unknown>): unknown {
  if (name === 'steps') return Array.isArray(o['steps']) ? stepsToText(o['steps'] as LoadStep[]) : o['steps'];
  const arrival = o['arrival'];
  return arrival && typeof arrival === 'object' ? (arrival as Record<string, unknown>)[name.slice(8)] : undefined;
}

/** The hint under Virtual users when a shape decides the sessions. */
export function shapeHint(values: Readonly<Record<string, unknown>>): string | undefined {
  if (String(values['steps'] ?? '').trim()) return "Step loads are set: the run holds the largest step's VUs";
  if (String(values['arrival.rate'] ?? '').trim()) return 'An arrival rate is set: Max sessions sets the sessions';
  return undefined;
}
