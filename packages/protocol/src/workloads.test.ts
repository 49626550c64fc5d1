import { describe, expect, it } from 'vitest';
import Type from 'typebox';
import {
  configOf,
  JobCommonFields,
  JobCreate,
  Target,
  WORKLOADS,
  parseJobCreate,
  parseWorkloadJob,
  registerWorkload,
  validate,
  workloadDef,
  type WorkloadDef,
} from './index.js';
import { err } from './test/err.js';

/** A tiny workload defined outside the shipped files: options { ops }, one operation, result { queries }. */
const NoopOptions = Type.Object({ ops: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }) }, { additionalProperties: false });
const noop: WorkloadDef = {
  id: 'noop',
  display: 'No-op',
  optionsKey: 'noop',
  operations: ['select1'],
  options: NoopOptions,
  result: Type.Object({ queries: Type.Integer() }),
  headline: { field: 'queries', unit: 'queries' },
  body: Type.Object({ ...JobCommonFields, workload: Type.Literal('noop'), target: Target, noop: Type.Optional(Type.Partial(NoopOptions)) }, { additionalProperties: false }),
  parsedFields: ['noop'],
  parse: (b, _type, p) => {
    const noop = p.check(() => validate(NoopOptions, b['noop'] ?? {}, 'noop'));
    return noop ? { noop } : undefined;
  },
};

describe('workloads', () => {
  it('ships TPROC-C, TPROC-H, CH-benCHmark and the script workload; a definition holds operations, options and result', () => {
    expect(WORKLOADS).toEqual(['tprocc', 'tproch', 'chbench', 'script']);
    const h = workloadDef('tproch')!;
    expect(h.operations).toHaveLength(24);
    expect(h.headline).toEqual({ field: 'geomean', unit: 's geomean', lowerIsBetter: true });
    const d = workloadDef('tprocc')!;
    expect(d.operations).toEqual(['neworder', 'payment', 'delivery', 'stocklevel', 'orderstatus']);
    expect(d.headline).toEqual({ field: 'nopm', unit: 'NOPM' });
    expect((JobCreate as { $id?: string }).$id).toBe('JobCreate');
  });

  it('a body without workload is TPROC-C: the same configuration as with workload "tprocc"', () => {
    const body = { type: 'run', target: { engine: 'sqlite' }, tprocc: { vus: 2 }, seed: 5, label: 'x' };
    const alias = parseJobCreate(body, 1);
    expect(alias.workload).toBe('tprocc');
    expect(parseJobCreate({ ...body, workload: 'tprocc' }, 1)).toEqual(alias);
    expect(Object.keys(alias)).toEqual(['metrics', 'type', 'workload', 'target', 'tprocc', 'seed', 'profileId', 'label']);
  });

  it('an unknown workload is named with the known ones, and the other fields are still checked', () => {
    const e = err(() => parseJobCreate({ type: 'bad', workload: 'tpcx', target: { engine: 'sqlite' } }, 1));
    expect(e.field).toBe('workload');
    expect(e.message).toContain('must be one of tprocc, tproch');
    expect(e.errors!.map((x) => x.field)).toEqual(['workload', 'type']);
  });

  it('the variant is picked by workload: a TPROC-C key in another workload body is an unknown field', () => {
    const off = registerWorkload(noop);
    try {
      expect(WORKLOADS).toEqual(['tprocc', 'tproch', 'chbench', 'script', 'noop']);
      const c = parseWorkloadJob({ type: 'run', workload: 'noop', target: { engine: 'sqlite' }, noop: { ops: 3 } }, 9);
      expect(c).toMatchObject({ workload: 'noop', noop: { ops: 3 }, seed: 9, type: 'run' });
      const e = err(() => parseWorkloadJob({ type: 'run', workload: 'noop', target: { engine: 'sqlite' }, tprocc: {}, noop: { ops: 0 } }, 1));
      expect(e.errors!.map((x) => x.field).sort()).toEqual(['noop.ops', 'tprocc']);
      expect(() => registerWorkload(noop)).toThrow(/already registered/);
    } finally {
      off();
    }
    expect(WORKLOADS).toEqual(['tprocc', 'tproch', 'chbench', 'script']);
  });

  it('three bad fields in three places come back together, each naming its field', () => {
    const e = err(() => parseJobCreate({ type: 'run', target: { engine: 'sqlite', busyTimeoutMs: -1 }, tprocc: { vus: 0 }, profileId: -3 }, 1));
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    expect(e.errors!.map((x) => x.field).sort()).toEqual(['profileId', 'target.busyTimeoutMs', 'tprocc.vus']);
    expect(e.errors!.every((x) => x.message.startsWith(x.field))).toBe(true);
  });

  it('CH-benCHmark takes tprocc.vus 0 (the analytic streams alone), TPROC-C does not; 0 VUs and 0 streams is refused', () => {
    const ch = parseJobCreate({ type: 'run', workload: 'chbench', target: { engine: 'duckdb' }, tprocc: { vus: 0 }, chbench: { analyticStreams: 2 } }, 1);
    expect(configOf(ch, 'chbench').tprocc.vus).toBe(0);
    expect(ch.target).toMatchObject({ engine: 'duckdb', file: 'chbench.duckdb' });
    expect(err(() => parseJobCreate({ type: 'run', target: { engine: 'sqlite' }, tprocc: { vus: 0 } }, 1)).field).toBe('tprocc.vus');
    const none = err(() => parseJobCreate({ type: 'run', workload: 'chbench', target: { engine: 'sqlite' }, tprocc: { vus: 0 }, chbench: { analyticStreams: 0 } }, 1));
    expect(none.field).toBe('tprocc.vus');
    expect(none.message).toMatch(/nothing to run/);
  });

  it("TPROC-C's own DuckDB file: tprocc.duckdb unless the target names one", () => {
    expect(parseJobCreate({ type: 'build', target: { engine: 'duckdb' } }, 1).target).toMatchObject({ file: 'tprocc.duckdb' });
    expect(parseJobCreate({ type: 'build', target: { engine: 'duckdb', file: 'x.duckdb' } }, 1).target).toMatchObject({ file: 'x.duckdb' });
    expect(parseJobCreate({ type: 'build', workload: 'tproch', target: { engine: 'duckdb' } }, 1).target).toMatchObject({ file: 'tproch.duckdb' });
  });

  it('datagen rules keep their messages', () => {
    const t = { engine: 'sqlite' };
    expect(err(() => parseJobCreate({ type: 'build', target: t, datagen: { dir: 'x', workers: 1 } }, 1)).message).toMatch(/applies only to jobs of type "datagen"/);
    expect(err(() => parseJobCreate({ type: 'datagen', target: t }, 1)).field).toBe('datagen');
    expect(err(() => parseJobCreate({ type: 'datagen', target: t, tprocc: { warehouses: 1 }, datagen: { dir: 'x', workers: 2 } }, 1)).field).toBe('datagen.workers');
    expect(configOf(parseJobCreate({ type: 'datagen', target: t, datagen: { dir: 'x', workers: 1 } }, 1), 'tprocc').datagen).toEqual({ dir: 'x', workers: 1 });
  });
});
