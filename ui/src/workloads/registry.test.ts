import { describe, expect, it } from 'vitest';
import { job } from '../live/fixtures.js';
import { clientRatesOption, latencyAllLegend, latencyOption } from '../charts/options/tcount.js';
import { LIGHT } from '../charts/options/palette.js';
import { DEFAULT_WORKLOAD, registerWorkloadUi, workloadOf, workloadUi, workloadUis, type WorkloadUi } from './index.js';
import { TPROCC_UI } from './tprocc/index.js';

describe('workload registry', () => {
  it('finds TPROC-C by id and by a job, and falls back to the default for an unknown id', () => {
    expect(DEFAULT_WORKLOAD).toBe('tprocc');
    expect(workloadUi('tprocc')).toBe(TPROCC_UI);
    expect(workloadOf(job())).toBe(TPROCC_UI);
    expect(workloadUi('nope')).toBe(TPROCC_UI);
    expect(TPROCC_UI.ops.map((o) => o.label)).toEqual(['NEWORD', 'PAYMENT', 'DELIVERY', 'SLEV', 'OSTAT']);
  });

  it('takes a workload with other operation names, and the charts key by them', () => {
    const ops = [{ id: 'select1', label: 'SELECT1', color: { light: '#111111', dark: '#eeeeee' } }];
    const noop: WorkloadUi = { ...TPROCC_UI, id: 'noop', name: 'noop', ops };
    registerWorkloadUi(noop);
    expect(workloadOf({ workload: 'noop' as never })).toBe(noop);
    expect(workloadUis().map((w) => w.id)).toEqual(['tprocc', 'tproch', 'chbench', 'script', 'noop']);
    const client = [{ ts: 1000, rates: { select1: 7 } as never, commits: 7, rollbacks: 0, errors: 0 }];
    const rates = clientRatesOption({ client, ops, range: undefined, palette: LIGHT }).series as { name: string; data: unknown[]; color: string }[];
    expect(rates.map((s) => [s.name, s.data, s.color])).toEqual([['SELECT1', [[1000, 7]], '#111111']]);
    const latency = [{ ts: 1000, perType: { select1: { count: 3, p50: 1, p95: 2, p99: 3, max: 3 } } }];
    const lat = latencyOption({ latency, ops, range: undefined, palette: LIGHT }).series as { name: string; data: unknown[] }[];
    expect(lat.map((s) => s.name)).toEqual(['SELECT1 p50', 'SELECT1 p95', 'SELECT1 p99']);
    expect(latencyAllLegend(ops, 'p99').legend.data).toEqual(['SELECT1 p99']);
  });
});
