import { describe, expect, it } from 'vitest';
import { SledgeError } from '../errors.js';
import { parseWorkloadJob } from '../job-create.js';
import { TPROCH, defaultStreams, isStandardScale, tprochTargetDefaults } from './tproch.js';

function fields(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof SledgeError) return (e.errors ?? [{ field: e.field ?? 'body', message: e.message }]).map((x) => x.field).sort();
    throw e;
  }
  throw new Error('expected a SledgeError');
}

const job = (tproch: Record<string, unknown>, target: Record<string, unknown> = { engine: 'sqlite' }) =>
  parseWorkloadJob({ type: 'run', workload: 'tproch', target, tproch }, 7);

describe('TPROC-H job bodies', () => {
  it('fills options with their defaults', () => {
    const c = job({ scaleFactor: 0.01 });
    expect(c['tproch']).not.toHaveProperty('streams');
    expect(c['tproch']).toMatchObject({ scaleFactor: 0.01, mode: 'power', querySets: 1, refresh: false, dop: 2, queryTimeoutSec: 0 });
  });

  it('puts TPROC-H database names into a target that left them out', () => {
    expect(job({}).target).toMatchObject({ engine: 'sqlite', file: 'tproch.sqlite' });
    expect(job({}, { engine: 'sqlite', file: 'mine.db' }).target).toMatchObject({ file: 'mine.db' });
    expect(job({}, { engine: 'postgresql' }).target).toMatchObject({ database: 'tpch', user: 'tpch', password: 'tpch' });
    // A user given keeps its own password (or the schema default), never TPROC-H's.
    expect(job({}, { engine: 'postgresql', user: 'me', password: 'secret', database: 'x' }).target).toMatchObject({ user: 'me', password: 'secret', database: 'x' });
    expect(job({}, { engine: 'mariadb' }).target).toMatchObject({ database: 'tpch', user: 'root' });
    expect(job({}, { engine: 'oracle' }).target).toMatchObject({ user: 'tpch', password: 'tpch' });
    expect(tprochTargetDefaults(null)).toBeNull();
  });

  it('rejects SF 0, negative, too small and too large, naming the field', () => {
    expect(fields(() => job({ scaleFactor: 0 }))).toEqual(['tproch.scaleFactor']);
    expect(fields(() => job({ scaleFactor: -1 }))).toEqual(['tproch.scaleFactor']);
    expect(fields(() => job({ scaleFactor: 0.00001 }))).toEqual(['tproch.scaleFactor']);
    expect(fields(() => job({ scaleFactor: 100001 }))).toEqual(['tproch.scaleFactor']);
  });

  it('rejects bad streams, timeouts and set counts, every field at once', () => {
    expect(fields(() => job({ streams: -1, queryTimeoutSec: -1, querySets: 0, dop: 0, mode: 'both' }))).toEqual([
      'tproch.dop',
      'tproch.mode',
      'tproch.querySets',
      'tproch.queryTimeoutSec',
      'tproch.streams',
    ]);
    expect(fields(() => job({ streams: 1.5 }))).toEqual(['tproch.streams']);
    expect(fields(() => job({ streams: 0, mode: 'throughput' }))).toEqual(['tproch.streams']);
    expect(fields(() => job({ bogus: 1 }))).toEqual(['tproch.bogus']);
  });

  it('marks non-standard scale factors in the summary', () => {
    expect(isStandardScale(1)).toBe(true);
    expect(isStandardScale(0.01)).toBe(false);
    expect(defaultStreams(0.01)).toBe(2);
    expect(defaultStreams(100)).toBe(5);
    expect(defaultStreams(200)).toBe(6);
    expect(TPROCH.summary!({ mode: 'power', scaleFactor: 0.01, standardScale: false, geomean: 0.5 })).toBe('power SF 0.01 (non-standard): geomean 0.50000 s');
    expect(TPROCH.summary!({ mode: 'throughput', scaleFactor: 1, standardScale: true, geomean: 2, qphh: 1234.56 })).toBe('throughput SF 1: geomean 2.00000 s, QphH 1234.6');
  });
});
