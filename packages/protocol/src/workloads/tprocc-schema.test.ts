import { describe, expect, it } from 'vitest';
import { TARGET_SCHEMAS } from '../targets.js';
import { ENGINES } from '../engines.js';
import { configOf, parseJobCreate } from '../job-create.js';
import type { SledgeError } from '../errors.js';
import { normalizeTproccSchema, tproccSchemaFields, tproccSchemaOf } from './tprocc-schema.js';

describe('TPROC-C schema options', () => {
  it('are no longer target fields: targets hold connection and driver settings only', () => {
    for (const e of ENGINES) {
      const props = (TARGET_SCHEMAS[e] as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
      expect(Object.entries(props).filter(([, s]) => s['x-group'] === 'schema').map(([k]) => k), e).toEqual([]);
      for (const k of tproccSchemaFields(e)) expect(props[k], `${e}.${k}`).toBeUndefined();
    }
  });

  it('an old-shape job body (schema options under target) parses to the same configuration as the new shape', () => {
    const old = { type: 'build', target: { engine: 'postgresql', host: 'h', partition: true, storedProcs: true, tablespace: 'fast' }, tprocc: { warehouses: 2 } };
    const now = { type: 'build', target: { engine: 'postgresql', host: 'h' }, tprocc: { warehouses: 2, schema: { partition: true, storedProcs: true, tablespace: 'fast' } } };
    const a = configOf(parseJobCreate(old, 7), 'tprocc');
    expect(a).toEqual(parseJobCreate(now, 7));
    expect(a.tprocc.schema).toEqual({ partition: true, storedProcs: true, tablespace: 'fast' });
    expect(a.target).not.toHaveProperty('partition');
  });

  it('tprocc.schema is checked against the target engine, defaults filled, every error named', () => {
    expect(configOf(parseJobCreate({ type: 'build', target: { engine: 'oracle' } }, 1), 'tprocc').tprocc.schema).toEqual({ defaultTablespace: 'USERS', orderLineTablespace: 'USERS', tempTablespace: 'TEMP', partition: false });
    expect(configOf(parseJobCreate({ type: 'build', target: { engine: 'sqlite' } }, 1), 'tprocc').tprocc.schema).toEqual({});
    let err: unknown;
    try {
      parseJobCreate({ type: 'build', target: { engine: 'mysql', partition: 'yes' }, tprocc: { warehouses: 0, schema: { storedProcs: true } } }, 1);
    } catch (e) {
      err = e;
    }
    expect((err as SledgeError).errors?.map((x) => x.field).sort()).toEqual(['tprocc.schema.partition', 'tprocc.schema.storedProcs', 'tprocc.warehouses'].sort());
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
