import { describe, expect, it } from 'vitest';
import { SledgeError } from '../errors.js';
import { parseJobCreate } from '../job-create.js';
import { workloadDef } from '../workloads/index.js';
import { parseSlo, splitSlo } from './capacity.js';

const def = workloadDef('tprocc')!;
const target = { engine: 'postgresql', host: '127.0.0.1', user: 'postgres', database: 'tpcc' };

function fieldOf(f: () => unknown): { field: unknown; message: string } {
  try {
    f();
  } catch (e) {
    if (!SledgeError.is(e)) throw e;
    return { field: e.field, message: e.message };
  }
  throw new Error('no error');
}

describe('capacity SLO', () => {
  it('splits at top-level commas and keeps each condition position', () => {
    expect(splitSlo('p99(neword)<5ms, error_rate<0.1%')).toEqual([
      { text: 'p99(neword)<5ms', at: 0 },
      { text: 'error_rate<0.1%', at: 17 },
    ]);
  });

  it('parses each condition with the thresholds grammar', () => {
    const c = parseSlo('p95(neword)<20ms, error_rate<0.1%', def, 'tprocc.capacity.slo');
    expect(c.map((t) => [t.metric, t.cmp, t.limit, t.unit])).toEqual([
      ['p95(neworder)', '<', 20, 'ms'],
      ['error_rate', '<', 0.1, '%'],
    ]);
  });

  it('names the bad condition and its character position', () => {
    expect(() => parseSlo('p95(neword)<20ms, p95(nosuch)<5ms', def, 'tprocc.capacity.slo')).toThrow(/tprocc.capacity.slo condition 2 at character 19 "p95\(nosuch\)<5ms": "nosuch" is not a TPROC-C operation/);
    expect(() => parseSlo('p95(neword)<20ms,', def, 'f')).toThrow(/f condition 2 at character 18 is empty/);
    expect(() => parseSlo('p95(neword)<20ms:abort', def, 'f')).toThrow(/':abort' does not apply/);
    expect(() => parseSlo('  ', def, 'f')).toThrow(/f is empty/);
  });

  it('a job with a bad SLO is refused on tprocc.capacity.slo; a capacity search needs an arrival rate', () => {
    const body = (tprocc: unknown) => ({ type: 'run', target, tprocc });
    const bad = fieldOf(() => parseJobCreate(body({ arrival: { rate: 10, maxSessions: 4 }, capacity: { slo: 'p95(neword)<<20ms' } }), 1));
    expect(bad.field).toBe('tprocc.capacity.slo');
    expect(bad.message).toMatch(/tprocc.capacity.slo condition 1 at character 1/);
    expect(() => parseJobCreate(body({ capacity: { slo: 'p95(neword)<20ms' } }), 1)).toThrow(/tprocc.capacity searches an arrival rate: set tprocc.arrival/);
    expect(() => parseJobCreate(body({ arrival: { rate: 10, rampTo: 20, maxSessions: 4 }, capacity: { slo: 'p95(neword)<20ms' } }), 1)).toThrow(/remove tprocc.arrival.rampTo/);
    expect(() => parseJobCreate(body({ arrival: { rate: 10, maxSessions: 4 }, capacity: { slo: 'p95(neword)<20ms', maxRate: 5 } }), 1)).toThrow(/maxRate \(5\) is below the start rate/);
    const ok = parseJobCreate(body({ arrival: { rate: 10, maxSessions: 4 }, capacity: { slo: 'p95(neword)<20ms' } }), 1) as unknown as { tprocc: { capacity: unknown } };
    expect(ok.tprocc.capacity).toEqual({ slo: 'p95(neword)<20ms', stepSeconds: 30, holdSeconds: 60, tolerance: 0.05, maxDropped: 0.01 });
  });
});
