import { SledgeError } from './errors.js';
import { ENGINES, isEngineId } from './engines.js';
import { TARGET_SCHEMAS, type Target } from './targets.js';
import { checkPool } from './run/pool-check.js';
import { didYouMean } from './suggest.js';
import { show, validate } from './validate.js';

/** Validate a target: a known engine first (friendly message), then that engine's schema. */
export function parseTarget(value: unknown, prefix = 'target'): Target {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix} must be an object with an "engine" field`, { field: prefix });
  }
  const engine = (value as { engine?: unknown }).engine;
  if (!isEngineId(engine)) {
    throw new SledgeError(
      'SLEDGE_E_UNKNOWN_ENGINE',
      `${prefix}.engine ${show(engine)} is not a known engine${didYouMean(engine, ENGINES)}; choose one of ${ENGINES.join(', ')}`,
      { field: `${prefix}.engine` },
    );
  }
  const target = validate(TARGET_SCHEMAS[engine], value, prefix) as Target;
  refuseNul(target as unknown as Record<string, unknown>, prefix);
  checkPool(engine, target as unknown as Record<string, unknown>, prefix);
  return target;
}

/**
 * Every string of a target ends up in a C string somewhere (a wire protocol's
 * startup packet, a client library, a file name), where a NUL cuts it short
 * or breaks the message: refuse it here, naming the field, before anything
 * connects.
 */
function refuseNul(target: Record<string, unknown>, prefix: string): void {
  for (const [k, v] of Object.entries(target)) {
    if (typeof v === 'string' && v.includes('\0')) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix}.${k} must not contain a NUL character (\\u0000)`, { field: `${prefix}.${k}` });
    }
  }
}
