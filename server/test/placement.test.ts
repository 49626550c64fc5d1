import { describe, expect, it } from 'vitest';
import type { ReplicaInfo } from '@sledge/protocol';
import { planPlacement } from '../dist/replicas/placement.js';

const replica = (name: string, over: Partial<ReplicaInfo> = {}): ReplicaInfo => ({
  name,
  version: '0.1.0',
  versionMatch: true,
  host: name,
  cores: 4,
  drivers: ['sqlite', 'postgresql'],
  state: 'ready',
  jobId: null,
  cpuPct: 1,
  processCpuPct: 0.1,
  joinedAt: 0,
  lastSeenAt: 0,
  ...over,
});
const thrown = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('planPlacement: which replica runs which VUs', () => {
  const three = [replica('a'), replica('b'), replica('c')];

  it('spreads evenly over every ready replica in name order, the first taking one more, VUs numbered across the run', () => {
    expect(planPlacement({ on: 'replicas' }, 8, 'postgresql', three)).toEqual([
      { name: 'a', indexes: [0, 1, 2] },
      { name: 'b', indexes: [3, 4, 5] },
      { name: 'c', indexes: [6, 7] },
    ]);
    expect(planPlacement({ on: 'replicas' }, 4, 'postgresql', [replica('a'), replica('b', { state: 'busy', jobId: 'x' }), replica('c', { state: 'lost' })])).toEqual([{ name: 'a', indexes: [0, 1, 2, 3] }]);
  });

  it('takes named replicas, and VUs per replica in the order given (a replica given 0 VUs runs none)', () => {
    expect(planPlacement({ on: 'replicas', replicas: ['c', 'a'] }, 3, 'postgresql', three)).toEqual([
      { name: 'c', indexes: [0, 1] },
      { name: 'a', indexes: [2] },
    ]);
    expect(planPlacement({ on: 'replicas', vus: { b: 1, a: 3, c: 0 } }, 4, 'postgresql', three)).toEqual([
      { name: 'b', indexes: [0] },
      { name: 'a', indexes: [1, 2, 3] },
    ]);
  });

  it('refuses what it cannot honour, saying what to change', () => {
    expect(thrown(() => planPlacement({ on: 'replicas' }, 4, 'postgresql', []))).toMatch(/no replica is ready: start one with `sledge replica --nats <url>`/);
    expect(thrown(() => planPlacement({ on: 'replicas', replicas: ['z'] }, 4, 'postgresql', three))).toBe('replica z has not joined: the replicas are a, b, c');
    expect(thrown(() => planPlacement({ on: 'replicas', replicas: ['b'] }, 4, 'postgresql', [replica('b', { state: 'busy', jobId: '7' })]))).toBe('replica b is busy (job 7): wait for it, or name other replicas');
    expect(thrown(() => planPlacement({ on: 'replicas' }, 4, 'mariadb', three))).toMatch(/^replica a has no mariadb driver \(it has sqlite, postgresql\)/);
    expect(thrown(() => planPlacement({ on: 'replicas', vus: { a: 1, b: 1 } }, 4, 'postgresql', three))).toBe('placement.vus adds up to 2 VUs but the run has 4: make them equal');
    expect(thrown(() => planPlacement({ on: 'replicas' }, 2, 'postgresql', three))).toBe('the run has 2 VU(s) for 3 replicas: name at most 2 replicas or raise the VUs');
  });
});
