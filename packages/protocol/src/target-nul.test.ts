import { describe, expect, it } from 'vitest';
import { parseTarget, SledgeError, TARGET_SCHEMAS, type EngineId } from './index.js';

/** Every free-text string field of every engine's target (not the engine literal, not enums). */
const stringFields = Object.entries(TARGET_SCHEMAS).flatMap(([engine, schema]) =>
  Object.entries((schema as unknown as { properties: Record<string, { type?: string; const?: unknown }> }).properties)
    .filter(([k, s]) => k !== 'engine' && s.type === 'string' && s.const === undefined)
    .map(([field]) => [engine as EngineId, field] as const),
);

function refusal(value: unknown): SledgeError {
  try {
    parseTarget(value);
  } catch (e) {
    if (e instanceof SledgeError) return e;
    throw e;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}

describe('a NUL in a target string', () => {
  it('finds string fields in every engine', () => {
    expect(new Set(stringFields.map(([e]) => e)).size).toBe(Object.keys(TARGET_SCHEMAS).length);
    expect(stringFields.length).toBeGreaterThan(30);
  });

  it.each(stringFields)('%s.%s is refused as a validation error naming the field', (engine, field) => {
    const e = refusal({ engine, [field]: 'tp\u0000cc' });
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    expect(e.httpStatus).toBe(400);
    expect(e.field).toBe(`target.${field}`);
  });

  it('says why when the schema has no pattern to blame', () => {
    expect(refusal({ engine: 'postgresql', user: 'a\u0000b' }).message).toBe('target.user must not contain a NUL character (\\u0000)');
  });

  it('keeps accepting the same strings without the NUL', () => {
    for (const [engine, field] of stringFields) {
      const value = field === 'connectString' ? 'localhost:1521/FREEPDB1' : field === 'memoryLimit' ? '4GB' : 'tpcc';
      expect(() => parseTarget({ engine, [field]: value })).not.toThrow();
    }
  });
});
