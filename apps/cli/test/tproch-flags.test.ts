import { describe, expect, it } from 'vitest';
import { SledgeError } from '@sledge/protocol';
import { FIELD_FLAGS, jobBody } from '../src/args.js';

describe('TPROC-H flags', () => {
  it('map onto a tproch body with workload tproch', () => {
    const b = jobBody('run', { db: 'postgresql', workload: 'tproch', scale: '0.1', mode: 'throughput', streams: '2', refresh: true, 'update-sets': '2', trickle: '0', dop: '4', 'query-timeout': '60', 'no-explain': true });
    expect(b['workload']).toBe('tproch');
    expect(b['tprocc']).toBeUndefined();
    expect(b['tproch']).toEqual({ scaleFactor: 0.1, mode: 'throughput', streams: 2, refresh: true, updateSets: 2, trickleMs: 0, dop: 4, queryTimeoutSec: 60, explain: false });
  });

  it('--build-vus goes to the chosen workload', () => {
    expect(jobBody('build', { workload: 'tproch', scale: '1', 'build-vus': '3' })['tproch']).toEqual({ scaleFactor: 1, buildVus: 3 });
    expect(jobBody('build', { warehouses: '4', 'build-vus': '3' })['tprocc']).toEqual({ warehouses: 4, buildVus: 3 });
  });

  it('a flag of the other workload is refused, naming it', () => {
    const e = (() => {
      try {
        jobBody('run', { workload: 'tproch', vus: '4' });
      } catch (x) {
        return x as SledgeError;
      }
      return undefined;
    })();
    expect(e?.field).toBe('--vus');
    expect(e?.message).toContain('TPROC-C flag');
    expect(() => jobBody('run', { scale: '1' })).toThrow(/--scale is a TPROC-H flag/);
  });

  it('server field errors name the TPROC-H flag', () => {
    expect(FIELD_FLAGS['tproch.scaleFactor']).toBe('--scale');
    expect(FIELD_FLAGS['tproch.queryTimeoutSec']).toBe('--query-timeout');
  });
});

describe('TPROC-H report', () => {
  it('prints a query-by-stream table, refreshes, the geomean line and the labelled metrics', async () => {
    const { tprochReport } = await import('../src/print.js');
    const queries = Array.from({ length: 22 }, (_, i) => ({ stream: 0, set: 1, query: i + 1, position: i + 1, seconds: (i + 1) / 10, rows: i === 3 ? 0 : 5 }));
    const out = tprochReport({
      mode: 'power', scaleFactor: 0.1, standardScale: false, streams: 1, dop: 2, validation: false, queries, streamResults: [],
      refreshes: [{ update: 1, rf1Seconds: 0.5, rf2Seconds: 0.25, orders: 150 }], geomean: 1.2, elapsedSeconds: 30, powerAtSize: 100.04, errors: 0,
      metricsNote: 'test', line: 'Geometric mean of query times returning rows (21) is 1.20000',
    });
    const lines = out.trim().split('\n');
    expect(lines[0]).toContain('stream 0');
    expect(lines[1]).toMatch(/^Q1 +0\.100 s +5r$/);
    expect(lines[4]).toMatch(/^Q4 +0\.400 s +0r$/);
    expect(out).toContain('update 1: RF1 0.500 s, RF2 0.250 s (150 orders)');
    expect(out).toContain("power score 100.0 (per hour at SF 0.1; Sledge's, by the TPC-H formulas, not TPC results)");
    expect(out).toContain('\ntest\n');
    expect(out).toContain('not a standard TPC-H scale factor');
  });
});
