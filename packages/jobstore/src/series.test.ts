import { describe, expect, it } from 'vitest';
import { SledgeError, type BuildProgress, type ClientSample, type LatencySample, type TimingRow } from '@sledge/protocol';
import { newJobId } from './ids.js';
import { jobInput, tempStore } from './test/helpers.js';

const field = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    if (SledgeError.is(e)) return e.field;
    throw e;
  }
  throw new Error('expected a SledgeError');
};

const timing = (proc: string, vu: number, extra: Partial<TimingRow> = {}): TimingRow => ({
  proc,
  vu,
  calls: 1000 + vu,
  minMs: 0.123,
  avgMs: 1.5,
  maxMs: 80.25,
  totalMs: 1500.75,
  p25Ms: 0.9,
  p50Ms: 1.2,
  p75Ms: 1.8,
  p95Ms: 4.4,
  p99Ms: 9.9,
  sdMs: 2.2,
  ratioPct: 45.5,
  elapsedMs: 300000,
  ...extra,
});

describe('time series', () => {
  it('round-trips engine, client and latency samples in ts order', () => {
    const { store } = tempStore({ flushMs: 60000 });
    const a = store.createJob(jobInput()).id;
    const b = store.createJob(jobInput()).id;
    store.appendEngineSamples(a, [
      { ts: 1_700_000_010_000, tpm: 0, nopm: 0 },
      { ts: 1_700_000_020_000, tpm: 185196, nopm: 80123.5 },
    ]);
    store.appendEngineSamples(a, [{ ts: 1_700_000_015_000, tpm: 1, nopm: 2 }]);
    const client: ClientSample[] = [
      { ts: 1_700_000_001_000, rates: { neworder: 10.5, payment: 10, delivery: 1, stocklevel: 1, orderstatus: 0.25 }, commits: 22, rollbacks: 0.75, errors: 0, phase: 'rampup' },
      { ts: 1_700_000_002_000, rates: { neworder: 11, payment: 9, delivery: 1, stocklevel: 1, orderstatus: 1 }, commits: 23, rollbacks: 0, errors: 1 },
    ];
    store.appendClientSamples(a, client);
    store.appendClientSamples(b, [client[0] as ClientSample]);
    const latency: LatencySample[] = [
      { ts: 1_700_000_001_000, perType: { neworder: { count: 105, p50: 1.25, p95: 3.5, p99: 7, max: 12.125 }, payment: { count: 100, p50: 0.5, p95: 1, p99: 2, max: 3 } } },
      { ts: 1_700_000_002_000, perType: {} },
    ];
    store.appendLatency(a, latency);
    expect(store.getTcount(a)).toEqual({
      engine: [
        { ts: 1_700_000_010_000, tpm: 0, nopm: 0 },
        { ts: 1_700_000_015_000, tpm: 1, nopm: 2 },
        { ts: 1_700_000_020_000, tpm: 185196, nopm: 80123.5 },
      ],
      client,
    });
    expect(store.getLatency(a)).toEqual(latency);
    expect(store.getTcount(b)).toEqual({ engine: [], client: [client[0]] });
    expect(store.getLatency(b)).toEqual([]);
  });

  it('refuses samples for unknown jobs or without a numeric ts', () => {
    const { store } = tempStore();
    const a = store.createJob(jobInput()).id;
    expect(field(() => store.appendEngineSamples(newJobId(), [{ ts: 1, tpm: 1, nopm: 1 }]))).toBe('id');
    expect(field(() => store.appendEngineSamples(a, [{ ts: 1, tpm: Number.POSITIVE_INFINITY, nopm: 1 }]))).toBe('samples[0].tpm');
    expect(field(() => store.appendLatency(a, [{ ts: 'now' as unknown as number, perType: {} }]))).toBe('samples[0].ts');
    expect(store.pendingRows).toBe(0);
  });
});

describe('timings', () => {
  it('replaces the time profile and reads it per vu, histograms kept', () => {
    const { store } = tempStore();
    const a = store.createJob(jobInput()).id;
    store.setTimings(a, [timing('OLD', 0)]);
    const rows = [
      timing('NEWORD', 0, { histogram: [[50, 1.2], [99, 9.9], [100, 80.25]] }),
      timing('PAYMENT', 0, { ratioPct: 30.25 }),
      timing('NEWORD', 1),
      timing('PAYMENT', 1),
      timing('NEWORD', 2, { histogram: [] }),
    ];
    store.setTimings(a, rows);
    expect(store.getTimings(a)).toEqual(rows);
    expect(store.getTimings(a, { vu: 0 })).toEqual(rows.slice(0, 2));
    expect(store.getTimings(a, { vu: 2 })).toEqual([rows[4]]);
    expect(store.getTimings(a, { vu: 9 })).toEqual([]);
    expect('histogram' in (store.getTimings(a, { vu: 1 })[0] ?? {})).toBe(false);
  });

  it('rejects duplicate rows and bad numbers without touching the stored profile', () => {
    const { store } = tempStore();
    const a = store.createJob(jobInput()).id;
    store.setTimings(a, [timing('NEWORD', 0)]);
    expect(field(() => store.setTimings(a, [timing('SLEV', 0), timing('SLEV', 0)]))).toBe('rows[1]');
    expect(field(() => store.setTimings(a, [timing('SLEV', 0, { p99Ms: Number.NaN })]))).toBe('rows[0].p99Ms');
    expect(field(() => store.setTimings(newJobId(), [timing('SLEV', 0)]))).toBe('id');
    expect(store.getTimings(a).map((r) => r.proc)).toEqual(['NEWORD']);
  });
});

describe('VU status, build progress, check results', () => {
  it('replace and read the latest snapshot', () => {
    const { store } = tempStore();
    const a = store.createJob(jobInput()).id;
    expect(store.getVus(a)).toEqual([]);
    expect(store.getProgress(a)).toBeUndefined();
    expect(store.getCheck(a)).toEqual([]);
    store.setVus(a, [{ vu: 1, state: 'running', commits: 1, rollbacks: 0, errors: 0 }]);
    const vus = [
      { vu: 1, state: 'finished' as const, commits: 10, rollbacks: 1, errors: 0, warehouse: 3 },
      { vu: 2, state: 'failed' as const, commits: 5, rollbacks: 0, errors: 2 },
    ];
    store.setVus(a, vus);
    expect(store.getVus(a)).toEqual(vus);
    const progress: BuildProgress = {
      ts: 1_700_000_000_000,
      workers: [{ worker: 2, warehouses: [1, 5], currentWarehouse: 3, rows: { stock: 200000, customer: 60000 }, done: false }],
      expected: { item: 100000, stock: 500000 },
      phase: 'load',
    };
    store.setProgress(a, progress);
    expect(store.getProgress(a)).toEqual(progress);
    store.setProgress(a, { ...progress, phase: 'done' });
    expect(store.getProgress(a)?.phase).toBe('done');
    const check = [
      { name: 'tables', ok: true, detail: '9 of 9 tables' },
      { name: 'warehouse count', ok: false, detail: 'expected 10, found 9' },
    ];
    store.setCheck(a, check);
    expect(store.getCheck(a)).toEqual(check);
    expect(field(() => store.setVus(newJobId(), vus))).toBe('id');
    expect(field(() => store.setCheck(a, 'ok' as never))).toBe('items');
  });
});

describe('metrics', () => {
  it('appends by kind and reads ordered by ts with from/to/source/limit', () => {
    const { store } = tempStore({ flushMs: 60000 });
    const a = store.createJob(jobInput()).id;
    const cpu = (ts: number, source: string, usr: number) => ({ ts, source, data: { cores: [{ usr, sys: 1.5, iowait: 0, irq: 0, idle: 100 - usr - 1.5 }] } });
    store.appendMetrics(a, 'cpu', [cpu(3000, 'db1', 30), cpu(1000, 'db1', 10), cpu(2000, 'db2', 20)]);
    store.appendMetrics(a, 'ash', [{ ts: 1500, data: [{ wait: 'CPU', sessions: 3 }, { wait: 'IO:DataFileRead', sessions: 1 }] }, { ts: 1500, data: null }]);
    expect(store.metricKinds(a)).toEqual(['ash', 'cpu']);
    expect(store.getMetrics(a, 'cpu')).toEqual([cpu(1000, 'db1', 10), cpu(2000, 'db2', 20), cpu(3000, 'db1', 30)]);
    expect(store.getMetrics(a, 'cpu', { from: 1500, to: 3000 }).map((s) => s.ts)).toEqual([2000, 3000]);
    expect(store.getMetrics(a, 'cpu', { source: 'db1' }).map((s) => s.ts)).toEqual([1000, 3000]);
    expect(store.getMetrics(a, 'cpu', { limit: 1 }).map((s) => s.ts)).toEqual([1000]);
    expect(store.getMetrics(a, 'cpu', { limit: 2, newest: true }).map((s) => s.ts)).toEqual([2000, 3000]);
    expect(store.getMetrics(a, 'ash')).toEqual([{ ts: 1500, data: [{ wait: 'CPU', sessions: 3 }, { wait: 'IO:DataFileRead', sessions: 1 }] }, { ts: 1500, data: null }]);
    expect(store.getMetrics(a, 'iops')).toEqual([]);
    expect(field(() => store.appendMetrics(a, 'CPU load', [cpu(1, 'x', 1)]))).toBe('kind');
    expect(field(() => store.appendMetrics(a, 'cpu', [{ ts: 1, data: undefined }]))).toBe('samples[0].data');
    expect(field(() => store.appendMetrics(a, 'cpu', [{ ts: 1, data: { n: 1n } }]))).toBe('samples[0].data');
  });
});

describe('system information', () => {
  it('keeps one record per source, replaced on set', () => {
    const { store } = tempStore();
    const a = store.createJob(jobInput()).id;
    expect(store.getSystem(a)).toEqual({});
    store.setSystem(a, 'client', { hostname: 'bench1', cpucount: 2, memory: '8 GB' });
    store.setSystem(a, 'server', { version: 'PostgreSQL 15.4', settings: { shared_buffers: '128MB' } });
    store.setSystem(a, 'client', { hostname: 'bench1', cpucount: 4 });
    expect(store.getSystem(a)).toEqual({ client: { hostname: 'bench1', cpucount: 4 }, server: { version: 'PostgreSQL 15.4', settings: { shared_buffers: '128MB' } } });
    expect(field(() => store.setSystem(a, '', {}))).toBe('source');
    expect(field(() => store.setSystem(a, 'x', [] as never))).toBe('info');
  });
});
