import { describe, expect, it } from 'vitest';
import Type from 'typebox';
import { parseJobCreate, parseSavedConfig, registerWorkload, savedOptionsFromBody, savedOptionsToBody, validate, JobCommonFields, Target, type WorkloadDef } from './index.js';
import { err } from './test/err.js';

describe('saved configurations: (target, workload, options)', () => {
  it("maps options to a job body's option keys and back: one key, or CH-benCHmark's two", () => {
    expect(savedOptionsToBody('tprocc', { vus: 2 })).toEqual({ tprocc: { vus: 2 } });
    expect(savedOptionsToBody('tproch', { scaleFactor: 1 })).toEqual({ tproch: { scaleFactor: 1 } });
    expect(savedOptionsToBody('chbench', { dop: 2, tprocc: { vus: 3 } })).toEqual({ chbench: { dop: 2 }, tprocc: { vus: 3 } });
    for (const [w, o] of [
      ['tprocc', { vus: 2 }],
      ['tproch', { scaleFactor: 1 }],
      ['chbench', { dop: 2, tprocc: { vus: 3 } }],
    ] as const) {
      expect(savedOptionsFromBody(w, savedOptionsToBody(w, o))).toEqual(o);
    }
    expect(err(() => savedOptionsToBody('nope', {}))).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'workload' });
  });

  it('a saved configuration runs as a job of its workload with the same options', () => {
    for (const input of [
      { name: 'c', target: { engine: 'sqlite' }, workload: 'tprocc', options: { vus: 2, duration: 1 } },
      { name: 'h', target: { engine: 'postgresql' }, workload: 'tproch', options: { scaleFactor: 10 } },
      { name: 'ch', target: { engine: 'mysql' }, workload: 'chbench', options: { analyticStreams: 3, tprocc: { vus: 4 } } },
    ]) {
      const c = parseSavedConfig(input);
      const job = parseJobCreate({ type: 'run', target: c.target, workload: c.workload, ...savedOptionsToBody(c.workload, c.options) }, 1) as unknown as Record<string, unknown>;
      expect(job['workload']).toBe(input.workload);
      expect(job['target']).toEqual(c.target);
      expect(savedOptionsFromBody(c.workload, job)).toEqual(c.options);
    }
  });

  it('names option errors as the configuration has them, and as sent in the older shape', () => {
    expect(err(() => parseSavedConfig({ name: 'x', target: { engine: 'sqlite' }, options: { warehouses: 1, buildVus: 2 } }))).toMatchObject({
      field: 'options.buildVus',
      message: expect.stringMatching(/^options\.buildVus \(2\) must not exceed options\.warehouses \(1\)/),
    });
    expect(err(() => parseSavedConfig({ name: 'x', target: { engine: 'sqlite' }, tprocc: { warehouses: 1, buildVus: 2 } }))).toMatchObject({ field: 'tprocc.buildVus' });
    const ch = err(() => parseSavedConfig({ name: 'x', target: { engine: 'sqlite' }, workload: 'chbench', options: { tprocc: { driver: 'test' }, bogus: 1 } }));
    expect(ch.errors?.map((e) => e.field).sort()).toEqual(['options.bogus', 'options.tprocc.driver']);
    expect(ch.errors?.find((e) => e.field === 'options.tprocc.driver')?.message).toMatch(/set options\.tprocc\.driver to "timed"/);
    const names = err(() => parseSavedConfig({ target: { engine: 'sqlite' }, extra: 1 }));
    expect(names.errors?.map((e) => e.field)).toEqual(['extra', 'name']);
  });

  it("a workload registered at runtime is saved with its own options' checks", () => {
    const Opts = Type.Object({ ops: Type.Integer({ minimum: 1, default: 10 }) }, { additionalProperties: false });
    const def: WorkloadDef = {
      id: 'noopcfg',
      display: 'No-op',
      optionsKey: 'noopcfg',
      operations: ['select1'],
      options: Opts,
      result: Type.Object({}),
      headline: { field: 'queries', unit: 'queries' },
      body: Type.Object({ ...JobCommonFields, workload: Type.Literal('noopcfg'), target: Target, noopcfg: Type.Optional(Type.Partial(Opts)) }, { additionalProperties: false }),
      parsedFields: ['noopcfg'],
      parse: (b, _t, p) => {
        const o = p.check(() => validate(Opts, b['noopcfg'] ?? {}, 'noopcfg'));
        return o ? { noopcfg: o } : undefined;
      },
    };
    const off = registerWorkload(def);
    try {
      expect(parseSavedConfig({ name: 'n', target: { engine: 'sqlite' }, workload: 'noopcfg' })).toMatchObject({ workload: 'noopcfg', options: { ops: 10 } });
      expect(err(() => parseSavedConfig({ name: 'n', target: { engine: 'sqlite' }, workload: 'noopcfg', options: { ops: 0 } }))).toMatchObject({ field: 'options.ops' });
    } finally {
      off();
    }
  });
});
