import { describe, expect, it } from 'vitest';
import type { StepResult } from '@sledge/protocol';
import { LIGHT } from './palette.js';
import { arrivalOption, stepLatencyOption, stepsOption } from './shapes.js';
import { collectTprocc, tproccDefaults, tproccToForm } from '../../workloads/tprocc/form.js';
import { TPROCC_OPS } from '../../workloads/tprocc/ops.js';

const steps: StepResult[] = [
  { index: 1, vus: 1, startSec: 0, endSec: 12, nopm: 900, tpm: 2000, latency: { neworder: { p50: 1, p95: 2, p99: 3 } } },
  { index: 2, vus: 4, startSec: 12, endSec: 24, nopm: 2500, tpm: 5600, latency: { neworder: { p50: 2, p95: 5, p99: 9 } } },
];
type S = { id: string; data: unknown[]; yAxisIndex?: number };

describe('run shape charts', () => {
  it('steps: NOPM and TPM bars per step, the VUs on the right axis', () => {
    const o = stepsOption({ steps, tpmLabel: 'PostgreSQL TPM', palette: LIGHT });
    const series = o.series as S[];
    expect((o.xAxis as { data: string[] }).data).toEqual(['Step 1', 'Step 2']);
    expect(series.find((x) => x.id === 'nopm')!.data).toEqual([900, 2500]);
    expect(series.find((x) => x.id === 'tpm')!.data).toEqual([2000, 5600]);
    expect(series.find((x) => x.id === 'vus')).toMatchObject({ data: [1, 4], yAxisIndex: 1 });
  });
  it('step latency: the chosen percentile per transaction, gaps where a step ran none', () => {
    const series = stepLatencyOption({ steps, ops: TPROCC_OPS, pct: 'p95', palette: LIGHT }).series as S[];
    expect(series.find((x) => x.id === 'neworder')!.data).toEqual([2, 5]);
    expect(series.find((x) => x.id === 'payment')!.data).toEqual([null, null]);
  });
  it('arrival: target, achieved, dropped and busy sessions over time', () => {
    const samples = [
      { ts: 1000, target: 50, achieved: 49.5, inUse: 3, dropped: 0 },
      { ts: 2000, target: 60, achieved: 52, inUse: 4, dropped: 7 },
    ];
    const series = arrivalOption({ samples, range: undefined, palette: LIGHT }).series as S[];
    expect(series.map((x) => x.id)).toEqual(['target', 'achieved', 'dropped', 'inUse']);
    expect(series.find((x) => x.id === 'dropped')!.data).toEqual([
      [1000, 0],
      [2000, 7],
    ]);
    expect(series.find((x) => x.id === 'inUse')).toMatchObject({ yAxisIndex: 1 });
  });
});

describe('run shape form fields', () => {
  it('steps text and arrival fields become tprocc.steps and tprocc.arrival, and back', () => {
    const v = { ...tproccDefaults(), steps: '0:0.5:2, 0.5:0.5:4', 'arrival.rate': '', 'arrival.maxSessions': '' };
    const t = collectTprocc(v);
    expect(t['steps']).toEqual([
      { startAfterMin: 0, durationMin: 0.5, vus: 2 },
      { startAfterMin: 0.5, durationMin: 0.5, vus: 4 },
    ]);
    expect(t['arrival']).toBeUndefined();
    expect(tproccToForm(t)['steps']).toBe('0:0.5:2, 0.5:0.5:4');
    const a = collectTprocc({ ...tproccDefaults(), 'arrival.rate': '50', 'arrival.rampTo': '200', 'arrival.maxSessions': '8' });
    expect(a['arrival']).toEqual({ rate: 50, rampTo: 200, maxSessions: 8 });
    expect(a['steps']).toBeUndefined();
    expect(tproccToForm(a)['arrival.rampTo']).toBe('200');
    // A typo is sent as typed: the server's error names tprocc.steps.
    expect(collectTprocc({ ...tproccDefaults(), steps: '0:1' })['steps']).toBe('0:1');
  });
});
