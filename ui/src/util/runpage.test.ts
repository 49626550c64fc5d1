import { describe, expect, it } from 'vitest';
import { REDACTED } from '@sledge/protocol';
import { job } from '../live/fixtures.js';
import { configDiff, delta, workloadGroups } from './compare.js';
import { configSummary, jobVus, jobWarehouses } from '../workloads/tprocc/jobs.js';
import { editPage, jobCreateBody, planRerun, withSecrets } from './rerun.js';
import { chartableClient, chartableEngine, runInfo, runProgress } from './runProgress.js';

const T0 = Date.parse('2026-01-01T10:00:00.000Z');
const at = (s: number) => T0 + s * 1000;
const iso = (s: number) => new Date(at(s)).toISOString();

describe('runProgress', () => {
  // rampup 1 min + 2 min measured: the bar is one third rampup.
  const timed = (over: Parameters<typeof job>[0] = {}) => job({ startedAt: iso(0), status: 'rampup', config: { tprocc: { driver: 'timed', vus: 4, rampup: 1, duration: 2 } }, ...over });

  it('waits, with the whole window remaining, until the rampup mark', () => {
    const p = runProgress(timed({ status: 'connecting' }), [], [], at(2));
    expect(p).toMatchObject({ stage: 'waiting', elapsedMs: 2000, remainingMs: 180_000, done: 0 });
    expect(p.rampupShare).toBeCloseTo(1 / 3);
  });

  it('places rampup and the measured window from the phase marks', () => {
    const phases = [{ ts: at(3), label: 'rampup' }];
    const r = runProgress(timed(), phases, [], at(33));
    expect(r).toMatchObject({ stage: 'rampup', elapsedMs: 33_000, remainingMs: 150_000, phaseMs: { elapsed: 30_000, total: 60_000 } });
    expect(r.done).toBeCloseTo(30 / 180);
    // Measuring began a little late (64 s): the end moves with it.
    const m = runProgress(timed({ status: 'measuring' }), [...phases, { ts: at(64), label: 'measuring' }], [], at(124));
    expect(m).toMatchObject({ stage: 'measuring', remainingMs: 60_000, phaseMs: { elapsed: 60_000, total: 120_000 } });
    expect(m.done).toBeCloseTo((60 + 60) / 180);
  });

  it('counts 0 s into a phase whose mark is ahead of the page clock', () => {
    const phases = [
      { ts: at(0), label: 'rampup' },
      { ts: at(61), label: 'measuring' },
    ];
    const p = runProgress(timed({ status: 'measuring' }), phases, [], at(60.5));
    expect(p).toMatchObject({ stage: 'measuring', remainingMs: 120_000, phaseMs: { elapsed: 0, total: 120_000 } });
  });

  it('ends full when completed, and does not count past the planned end', () => {
    const phases = [
      { ts: at(0), label: 'rampup' },
      { ts: at(60), label: 'measuring' },
    ];
    expect(runProgress(timed({ status: 'measuring' }), phases, [], at(200))).toMatchObject({ stage: 'ending', remainingMs: 0, done: 1 });
    const done = runProgress(timed({ status: 'completed', endedAt: iso(185) }), phases, [], at(500));
    expect(done).toMatchObject({ stage: 'ended', elapsedMs: 185_000, done: 1 });
  });

  it('counts the test driver in transactions', () => {
    const j = job({ status: 'running', startedAt: iso(0), config: { tprocc: { driver: 'test', vus: 2, totalIterations: 50 } } });
    const vus = [
      { vu: 2, state: 'running' as const, commits: 20, rollbacks: 5, errors: 0 },
      { vu: 3, state: 'running' as const, commits: 25, rollbacks: 0, errors: 0 },
    ];
    const p = runProgress(j, [], vus, at(10));
    expect(p).toMatchObject({ stage: 'running', done: 0.5, rampupShare: 0 });
    expect(p.remainingMs).toBeUndefined();
  });

  it('reads the run metric', () => {
    expect(runInfo({ run: [{ ts: 1, data: { warehouses: 8, vus: 4, workers: 1 } }] })?.warehouses).toBe(8);
    expect(runInfo({})).toBeUndefined();
  });
});

describe('chartable series', () => {
  const e = (tpm: number, nopm: number, ts = 0) => ({ ts, tpm, nopm });
  it('leaves out the counter baseline and, once ended, the zeros after the VUs stopped', () => {
    const s = [e(0, 0, 1), e(100, 40, 2), e(0, 0, 3), e(90, 30, 4), e(0, 0, 5), e(0, 0, 6)];
    expect(chartableEngine(s, false).map((x) => x.ts)).toEqual([2, 3, 4, 5, 6]);
    expect(chartableEngine(s, true).map((x) => x.ts)).toEqual([2, 3, 4]);
    const clean = [e(100, 40)];
    expect(chartableEngine(clean, true)).toBe(clean);
    expect(chartableEngine([e(0, 0)], false)).toEqual([]);
  });
  it('drops a finished run client tail of zeros', () => {
    const c = [
      { commits: 5, rollbacks: 0 },
      { commits: 0, rollbacks: 1 },
      { commits: 0, rollbacks: 0 },
    ];
    expect(chartableClient(c, true)).toHaveLength(2);
    expect(chartableClient(c, false)).toBe(c);
  });
});

describe('run again and edit', () => {
  const pgTarget = { engine: 'postgresql', host: 'db1', port: 5432, user: 'tpcc', password: REDACTED, database: 'tpcc', superuser: 'postgres', superuserPassword: REDACTED };
  const pgJob = job({
    config: { type: 'run', workload: 'tprocc', target: pgTarget, tprocc: { driver: 'timed', vus: 8, rampup: 1, duration: 5 }, seed: 7, label: 'nightly', profileId: 3, metrics: { ash: true, cpu: false } },
  });

  it('repeats the stored configuration without the seed', () => {
    const b = jobCreateBody(pgJob);
    expect(b).toEqual({ type: 'run', target: pgTarget, tprocc: { driver: 'timed', vus: 8, rampup: 1, duration: 5 }, label: 'nightly', profileId: 3, metrics: { ash: true, cpu: false } });
    expect(b.target).not.toBe(pgTarget);
  });

  it('asks for secrets nothing known fills', () => {
    const p = planRerun(pgJob);
    expect(p.missing.sort()).toEqual(['password', 'superuserPassword']);
    const body = withSecrets(p, { password: 'a', superuserPassword: 'b' });
    expect(body.target).toMatchObject({ password: 'a', superuserPassword: 'b', host: 'db1' });
  });

  it('fills secrets typed for the same endpoint and user only', () => {
    const same = { ...pgTarget, password: 'typed', superuserPassword: 'su' };
    expect(planRerun(pgJob, { target: same })).toMatchObject({ missing: [], body: { target: { password: 'typed', superuserPassword: 'su' } } });
    // Another host: the typed password was meant for another server.
    expect(planRerun(pgJob, { target: { ...same, host: 'db2' } }).missing.sort()).toEqual(['password', 'superuserPassword']);
    // Another engine's values are never used.
    expect(planRerun(pgJob, { target: { ...same, engine: 'mysql' } }).missing).toHaveLength(2);
  });

  it('lets the server fill secrets of the loaded saved configuration for the same endpoint', () => {
    const p = planRerun(pgJob, { target: { ...pgTarget }, configId: 4 });
    expect(p.missing).toEqual([]);
    expect(p.body.configId).toBe(4);
    expect(planRerun(pgJob, { target: { ...pgTarget, user: 'other' }, configId: 4 }).missing).toContain('password');
  });

  it('edits runs on the Run page and schema jobs on the Schema page', () => {
    expect(editPage(pgJob)).toBe('/run');
    expect(editPage(job({ type: 'build' }))).toBe('/schema');
    expect(editPage(job({ type: 'datagen' }))).toBeNull();
  });

  it('summarises a configuration in a few words', () => {
    expect(configSummary(pgJob, 10)).toEqual(['8 VUs', '10 warehouses', 'rampup 1 min', '5 min measured']);
    expect(configSummary(job({ config: { tprocc: { driver: 'test', vus: 1, totalIterations: 20 } } }))).toEqual(['1 VU', 'test driver, 20 transactions per VU']);
    const build = job({ type: 'build', config: { tprocc: { warehouses: 4, buildVus: 2, vus: 1 } } });
    expect(configSummary(build)).toEqual(['4 warehouses', '2 build VUs']);
    expect(jobWarehouses(build)).toBe(4);
    expect(jobVus(build)).toBe(2);
    // A run's configured warehouses are a default, not the schema it ran on: only the result says.
    expect(jobWarehouses(job({ config: { tprocc: { warehouses: 1 } } }))).toBeUndefined();
    expect(jobWarehouses(job({ result: { nopm: 1, tpm: 1, activeVus: 1, tpmSource: 'engine', line: '', measuredSeconds: 1, warehouses: 6 } }))).toBe(6);
  });
});

describe('compare helpers', () => {
  it('groups jobs by workload (runs of different workloads are not overlaid)', () => {
    const j = (id: string, workload: string) => ({ id, workload });
    expect(workloadGroups([j('A', 'tprocc'), j('B', 'tproch'), j('C', 'tprocc')])).toEqual([
      { workload: 'tprocc', jobs: [j('A', 'tprocc'), j('C', 'tprocc')] },
      { workload: 'tproch', jobs: [j('B', 'tproch')] },
    ]);
    expect(workloadGroups([j('A', 'tprocc'), j('C', 'tprocc')])).toHaveLength(1);
  });

  it('gives deltas absolute and in per cent', () => {
    expect(delta(1100, 1000)).toEqual({ abs: 100, pct: 10, text: '+100 (+10.0%)' });
    expect(delta(900, 1000)?.text).toBe('−100 (−10.0%)');
    expect(delta(5, 0)?.text).toBe('+5');
    expect(delta(undefined, 3)).toBeNull();
  });
  it('lists the settings that differ, seed last', () => {
    const a = { seed: 1, target: { engine: 'sqlite', file: 'a' }, tprocc: { vus: 2, mix: { payment: 10 } } };
    const b = { seed: 2, target: { engine: 'sqlite', file: 'a' }, tprocc: { vus: 4, mix: { payment: 10 } }, label: 'x' };
    expect(configDiff([a, b])).toEqual([
      { key: 'tprocc.vus', values: ['2', '4'] },
      { key: 'label', values: [undefined, 'x'] },
      { key: 'seed', values: ['1', '2'] },
    ]);
    expect(configDiff([a, structuredClone(a)])).toEqual([]);
  });
});
