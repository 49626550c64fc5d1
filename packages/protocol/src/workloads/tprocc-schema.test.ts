import { describe, expect, it } from 'vitest';
import { TARGET_SCHEMAS } from '../targets.js';
import { ENGINES } from '../engines.js';
import { normalizeTproccSchema, tproccSchemaFields, tproccSchemaOf } from './tprocc-schema.js';

describe('TPROC-C schema options', () => {
  it("are exactly the targets' schema-group fields, engine by engine", () => {
    for (const e of ENGINES) {
      const props = (TARGET_SCHEMAS[e] as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
      const schemaGroup = Object.entries(props).filter(([, s]) => s['x-group'] === 'schema').map(([k]) => k);
      expect(tproccSchemaFields(e).sort(), e).toEqual(schemaGroup.sort());
    }
  });

  it('picks them from an old-shape target', () => {
    expect(tproccSchemaOf({ engine: 'db2', host: 'h', tablespace: 'TS1', partition: true })).toEqual({ tablespace: 'TS1', partition: true });
    expect(tproccSchemaOf({ engine: 'sqlite', file: 'x' })).toEqual({});
  });

  it('normalize moves them from target to tprocc.schema; a tprocc.schema value wins', () => {
    const old = { type: 'build', target: { engine: 'postgresql', host: 'h', partition: true, storedProcs: true }, tprocc: { warehouses: 2, schema: { storedProcs: false } } };
    expect(normalizeTproccSchema(old)).toEqual({
      type: 'build',
      target: { engine: 'postgresql', host: 'h' },
      tprocc: { warehouses: 2, schema: { partition: true, storedProcs: false } },
    });
    expect(old.target.partition).toBe(true);
  });

  it('normalize leaves new shapes and unknown engines alone', () => {
    const b = { target: { engine: 'oracle', user: 'u' }, tprocc: { schema: { partition: true } } };
    expect(normalizeTproccSchema(b)).toBe(b);
    const u = { target: { engine: 'nope', partition: true } };
    expect(normalizeTproccSchema(u)).toBe(u);
    expect(normalizeTproccSchema(null)).toBe(null);
  });
});
