import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_REGRESSION,
  SledgeError,
  compare,
  parseBaseline,
  parseJobCreate,
  parseThreshold,
  parseThresholds,
  jobWorkloadDef,
  workloadDef,
  workloadMetrics,
} from './index.js';
import { err } from './test/err.js';

const tprocc = workloadDef('tprocc')!;
const tproch = workloadDef('tproch')!;

const fields = (e: SledgeError) => e.errors?.map((x) => x.field) ?? [e.field];

describe('threshold grammar', () => {
  it('parses result fields, any case and spacing, every operator', () => {
    expect(parseThreshold('nopm>1000', tprocc)).toMatchObject({ metric: 'nopm', kind: 'field', path: ['nopm'], cmp: '>', limit: 1000, unit: '' });
    expect(parseThreshold('  NOPM  >=  1e3 ', tprocc)).toMatchObject({ metric: 'nopm', cmp: '>=', limit: 1000 });
    expect(parseThreshold('tpm<=5', tprocc).cmp).toBe('<=');
    expect(parseThreshold('tpm<5', tprocc).cmp).toBe('<');
    expect(parseThreshold('activevus==2', tprocc)).toMatchObject({ metric: 'activeVus', cmp: '==', limit: 2 });
    expect(parseThreshold('clientCpuMsPer1000Tx < 300', tprocc)).toMatchObject({ metric: 'clientCpuMsPer1000Tx', unit: '' });
  });

  it('latency of an operation: ms by default, s and us converted, the time profile name accepted', () => {
    expect(parseThreshold('p95(neword)<50ms', tprocc)).toMatchObject({ metric: 'p95(neworder)', kind: 'latency', fn: 'p95', op: 'neworder', limit: 50, unit: 'ms' });
    expect(parseThreshold('p99(NEWORDER) < 0.2s', tprocc).limit).toBe(200);
    expect(parseThreshold('max(slev)<=1500us', tprocc)).toMatchObject({ op: 'stocklevel', limit: 1.5 });
    expect(parseThreshold('avg( payment )<7', tprocc)).toMatchObject({ metric: 'avg(payment)', limit: 7 });
    expect(parseThreshold('p90(q5)<2s', tproch)).toMatchObject({ metric: 'p90(q5)', limit: 2000 });
  });

  it('percent and counts: error_rate takes % or a bare percent, counts take no unit', () => {
    expect(parseThreshold('error_rate<1%', tprocc)).toMatchObject({ metric: 'error_rate', kind: 'error_rate', limit: 1, unit: '%' });
    expect(parseThreshold('error_rate<0.5', tprocc).limit).toBe(0.5);
    expect(parseThreshold('retries<=10', tprocc)).toMatchObject({ metric: 'retries', path: ['retries'], limit: 10 });
    expect(parseThreshold('errors==0', tprocc).metric).toBe('errors');
  });

  it('TPROC-H fields in seconds: geomean and elapsedSeconds take time units', () => {
    expect(parseThreshold('geomean<500ms', tproch)).toMatchObject({ metric: 'geomean', unit: 's', limit: 0.5 });
    expect(parseThreshold('geomean<2', tproch).limit).toBe(2);
    expect(parseThreshold('elapsedSeconds<=1.5s', tproch)).toMatchObject({ unit: 's', limit: 1.5 });
    expect(parseThreshold('qphh>=100', tproch)).toMatchObject({ unit: '', limit: 100 });
    const names = [...workloadMetrics(tproch).values()].map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(['geomean', 'qphh', 'powerAtSize', 'errors', 'error_rate']));
  });

  it('refuses what it cannot read, naming the field and what to write', () => {
    const cases: [string, RegExp][] = [
      ['nopm 1000', /has no comparison.*< <= > >= ==/],
      ['nopm=1000', /operator "=".*use ==/],
      ['nopm=>1000', /use >=/],
      ['nopm!=1000', /not one of/],
      ['>1000', /names no metric/],
      ['nopn>1000', /"nopn" is not a metric of TPROC-C results: use one of nopm, tpm/],
      ['p95(foo)<5ms', /"foo" is not a TPROC-C operation: use one of neworder/],
      ['p42(neword)<5ms', /"p42" is not a latency function: use one of p25/],
      ['nopm>lots', /must be a number/],
      ['nopm>', /must be a number/],
      ['nopm>10ms', /nopm is a count.*drop the unit "ms"/],
      ['p95(neword)<5%', /is a time: its unit must be ms, s or us/],
      ['error_rate<1ms', /is a percentage/],
      ['', /is empty/],
    ];
    for (const [expr, msg] of cases) {
      const e = err(() => parseThreshold(expr, tprocc, 'thresholds[3]'));
      expect(e.code, expr).toBe('SLEDGE_E_VALIDATION');
      expect(e.field, expr).toBe('thresholds[3]');
      expect(e.message, expr).toMatch(msg);
    }
  });

  it('a list reports every bad entry at once', () => {
    const e = err(() => parseThresholds(['nopm>1', 'nopn>1', 'tpm>1', 'p95(x)<1'], tprocc));
    expect(fields(e)).toEqual(['thresholds[1]', 'thresholds[3]']);
    expect(err(() => parseThresholds('nopm>1', tprocc)).field).toBe('thresholds');
  });

  it(':abort marks a condition judged during the measured window; :abort(delay) waits that long into it', () => {
    expect(parseThreshold('p95(neword)<50ms:abort', tprocc)).toMatchObject({ expr: 'p95(neword)<50ms:abort', metric: 'p95(neworder)', limit: 50, abort: { delaySec: 0 } });
    expect(parseThreshold('nopm > 1000 : ABORT ( 30s )', tprocc)).toMatchObject({ metric: 'nopm', limit: 1000, abort: { delaySec: 30 } });
    expect(parseThreshold('error_rate<1%:abort(2m)', tprocc).abort).toEqual({ delaySec: 120 });
    expect(parseThreshold('tpm>1:abort(500ms)', tprocc).abort).toEqual({ delaySec: 0.5 });
    expect(parseThreshold('tpm>1:abort(10)', tprocc).abort).toEqual({ delaySec: 10 });
    expect(parseThreshold('p95(neword)<50ms', tprocc).abort).toBeUndefined();
    for (const [expr, msg] of [
      ['nopm>1:stop', /":stop" is not a threshold option: write ':abort'/],
      ['nopm>1:abort(soon)', /the delay must be a duration such as 30s/],
      ['nopm>1:', /":" is not a threshold option/],
      [':abort', /has no comparison/],
    ] as const) {
      const e = err(() => parseThreshold(expr, tprocc, 'thresholds[0]'));
      expect(e.field, expr).toBe('thresholds[0]');
      expect(e.message, expr).toMatch(msg);
    }
  });

  it('compare applies each operator', () => {
    expect([compare(1, '<', 2), compare(2, '<=', 2), compare(3, '>', 2), compare(2, '>=', 2), compare(2, '==', 2), compare(2, '==', 3)]).toEqual([true, true, true, true, true, false]);
  });
});

describe('baseline', () => {
  it('takes exactly one of jobId and profileId; maxRegression defaults to 2.5%', () => {
    expect(parseBaseline({ jobId: 'ab'.repeat(12) })).toEqual({ jobId: 'AB'.repeat(12), maxRegression: DEFAULT_MAX_REGRESSION });
    expect(parseBaseline({ profileId: 3, maxRegression: 0.1 })).toEqual({ profileId: 3, maxRegression: 0.1 });
    expect(err(() => parseBaseline({})).message).toMatch(/exactly one of jobId/);
    expect(err(() => parseBaseline({ jobId: 'AB'.repeat(12), profileId: 1 })).field).toBe('baseline');
    expect(fields(err(() => parseBaseline({ jobId: 'nope' })))).toEqual(['baseline.jobId']);
    expect(fields(err(() => parseBaseline({ profileId: 1, maxRegression: 2 })))).toEqual(['baseline.maxRegression']);
  });
});

describe('job bodies', () => {
  const target = { engine: 'sqlite', file: 'x.sqlite' };
  it('a run keeps its thresholds and baseline in the configuration', () => {
    const cfg = parseJobCreate({ type: 'run', target, tprocc: {}, thresholds: ['nopm>1', ' p95(neword)<50ms'], baseline: { profileId: 2 } }, 1);
    expect(cfg.thresholds).toEqual(['nopm>1', 'p95(neword)<50ms']);
    expect(cfg.baseline).toEqual({ profileId: 2, maxRegression: 0.025 });
    expect(parseJobCreate({ type: 'run', target, tprocc: {} }, 1).thresholds).toBeUndefined();
  });

  it('a bad expression is a 400 naming thresholds[i]; thresholds on a build are refused', () => {
    const e = err(() => parseJobCreate({ type: 'run', target, tprocc: {}, thresholds: ['nopm>1', 'p95(neword)<fast'] }, 1));
    expect(e.httpStatus).toBe(400);
    expect(fields(e)).toEqual(['thresholds[1]']);
    const b = err(() => parseJobCreate({ type: 'build', target, thresholds: ['nopm>1'] }, 1));
    expect(fields(b)).toEqual(['thresholds']);
    expect(b.message).toMatch(/only to run jobs/);
    const h = err(() => parseJobCreate({ type: 'run', workload: 'tproch', target: { engine: 'postgresql' }, thresholds: ['nopm>1'] }, 1));
    expect(h.message).toMatch(/not a metric of TPROC-H results/);
  });

  it(':abort is kept as given on a timed run and refused where no measured window is (a test-driver run, TPROC-H)', () => {
    expect(parseJobCreate({ type: 'run', target, tprocc: {}, thresholds: ['p95(neword)<50ms:abort', 'nopm>1'] }, 1).thresholds).toEqual(['p95(neword)<50ms:abort', 'nopm>1']);
    const t = err(() => parseJobCreate({ type: 'run', target, tprocc: { driver: 'test' }, thresholds: ['nopm>1', 'nopm>1:abort'] }, 1));
    expect(fields(t)).toEqual(['thresholds[1]']);
    expect(t.message).toMatch(/':abort' stops a run when the condition fails during its measured window, and a test-driver run \(tprocc.driver "test"\) has no measured window/);
    const h = err(() => parseJobCreate({ type: 'run', workload: 'tproch', target, thresholds: ['geomean<1s:abort'] }, 1));
    expect(fields(h)).toEqual(['thresholds[0]']);
    expect(h.message).toMatch(/TPROC-H runs have no measured window: remove ':abort'/);
  });

  it("the script workload's thresholds name the job's scripts: latency and error rate per script, an unknown name refused up front", () => {
    const script = { scripts: [{ builtin: 'tpcb-like' }, { name: 'mine', text: 'SELECT 1;\n', weight: 2 }], duration: 0.1 };
    const cfg = parseJobCreate({ type: 'run', workload: 'script', target, script, thresholds: ['p95(tpcb-like)<10ms', 'error_rate(MINE)<1%', 'tps>5:abort', 'error_rate<2%'] }, 1);
    expect(cfg.thresholds).toEqual(['p95(tpcb-like)<10ms', 'error_rate(MINE)<1%', 'tps>5:abort', 'error_rate<2%']);
    const def = jobWorkloadDef(workloadDef('script')!, (cfg as unknown as { script: unknown }).script);
    expect(def.operations).toEqual(['tpcb-like', 'mine']);
    expect(parseThreshold('p95(tpcb-like)<10ms', def)).toMatchObject({ metric: 'p95(tpcb-like)', kind: 'latency', op: 'tpcb-like', limit: 10 });
    expect(parseThreshold('error_rate(mine) < 1%', def)).toMatchObject({ metric: 'error_rate(mine)', kind: 'error_rate', op: 'mine', limit: 1, unit: '%' });
    const bad = err(() => parseJobCreate({ type: 'run', workload: 'script', target, script, thresholds: ['p95(tpcb-like)<10ms', 'p99(other.sql)<5ms', 'error_rate(nope)<1%'] }, 1));
    expect(bad.httpStatus).toBe(400);
    expect(fields(bad)).toEqual(['thresholds[1]', 'thresholds[2]']);
    expect(bad.errors?.[0]?.message).toBe('thresholds[1] "p99(other.sql)<5ms": "other.sql" is not a Script (pgbench) operation: use one of tpcb-like, mine');
    expect(bad.errors?.[1]?.message).toBe('thresholds[2] "error_rate(nope)<1%": "nope" is not a Script (pgbench) operation: use one of tpcb-like, mine');
    // Where the result counts errors per run only, error_rate(<operation>) is refused with the form that works.
    expect(err(() => parseThreshold('error_rate(neword)<1%', tprocc)).message).toBe(`thresholds[0] "error_rate(neword)<1%": TPROC-C results count errors per run, not per operation: write 'error_rate<1%'`);
  });
});
