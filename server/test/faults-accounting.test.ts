import { describe, expect, it } from 'vitest';
import { loadPgVuLoop } from '@sledge/worker-native';
import { ERROR_CLASSES, type Target } from '@sledge/protocol';
import { loadDriver } from '../dist/engine/registry.js';
import { chooseVuLoop } from '../dist/workloads/tprocc/vu-loop-choice.js';
import { BACKOFF_FIRST_MS, BACKOFF_MAX_MS, backoffMs, mayRetry } from '../dist/worker/vu-session.js';
import { DisruptionTimeline, FaultReader, survivedLine } from '../dist/runner/faults.js';
import { FV_BACKS, FV_DROPS, F_ERROR, F_RETRIED_COMMIT, F_RETRY, F_SLOTS, FV_SLOTS, errorClassIndex, faultIndex, faultVuIndex } from '../dist/shared/layout.js';

/** Retry rules, backoff, the faults block and its reading, the loop choice for failover options: no database. */
describe('retries (pgbench --max-tries)', () => {
  const plan = { maxTries: 3, retryOn: ['serialization', 'connection'] as const };
  it('retries a class in retryOn until maxTries tries', () => {
    expect(mayRetry(plan, 'serialization', 1)).toBe(true);
    expect(mayRetry(plan, 'serialization', 2)).toBe(true);
    expect(mayRetry(plan, 'serialization', 3)).toBe(false);
    expect(mayRetry(plan, 'connection', 1)).toBe(true);
  });
  it('never retries other classes, nor with the default maxTries 1', () => {
    expect(mayRetry(plan, 'constraint', 1)).toBe(false);
    expect(mayRetry({}, 'serialization', 1)).toBe(false);
    expect(mayRetry({ maxTries: 2 }, 'serialization', 1)).toBe(true);
    expect(mayRetry({ maxTries: 2 }, 'timeout', 1)).toBe(false);
  });
});

describe('reconnect backoff', () => {
  it('doubles from 0.5 s to a 5 s cap, within +-25 %', () => {
    expect([0, 1, 2, 3, 4, 9].map((a) => backoffMs(a, 0.5))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
    expect(backoffMs(0, 0)).toBe(BACKOFF_FIRST_MS * 0.75);
    expect(backoffMs(20, 1)).toBe(BACKOFF_MAX_MS * 1.25);
  });
});

describe('faults block', () => {
  const ops = ['neworder', 'payment'];
  const vus = 2;
  const mem = () => new Int32Array(vus * ops.length * F_SLOTS + vus * FV_SLOTS);

  it('sums errors and retries by class and operation, retried commits, drops and backs', () => {
    const f = mem();
    f[faultIndex(2, 0, 0, F_ERROR + errorClassIndex('serialization'))] = 3;
    f[faultIndex(2, 1, 0, F_ERROR + errorClassIndex('serialization'))] = 2;
    f[faultIndex(2, 1, 1, F_ERROR + errorClassIndex('connection'))] = 4;
    f[faultIndex(2, 0, 0, F_RETRY + errorClassIndex('serialization'))] = 5;
    f[faultIndex(2, 0, 0, F_RETRIED_COMMIT)] = 4;
    f[faultIndex(2, 1, 1, F_RETRIED_COMMIT)] = 1;
    f[faultVuIndex(vus, 2, 0, FV_DROPS)] = 2;
    f[faultVuIndex(vus, 2, 1, FV_DROPS)] = 2;
    f[faultVuIndex(vus, 2, 1, FV_BACKS)] = 1;
    const t = new FaultReader(f, vus, ops).totals();
    expect(t.errors.total).toBe(9);
    expect(t.errors.byClass).toEqual({ serialization: 5, connection: 4, timeout: 0, constraint: 0, other: 0 });
    expect(t.errors.byOp['neworder']).toMatchObject({ serialization: 5, connection: 0 });
    expect(t.errors.byOp['payment']).toMatchObject({ serialization: 0, connection: 4 });
    expect(t.retries.total).toBe(5);
    expect(t.retries.byClass['serialization']).toBe(5);
    expect(t.retriedCommits).toBe(5);
    expect([t.drops, t.backs]).toEqual([4, 1]);
    expect(Object.keys(t.errors.byClass)).toEqual([...ERROR_CLASSES]);
    expect(survivedLine(t, 1)).toBe('Run survived: 9 error(s) (serialization 5, connection 4); 5 retries; 4 session(s) lost, 1 reconnected; the monitor reconnected 1 time(s)');
  });

  it('marks drops and returns on the timeline once each', () => {
    const tl = new DisruptionTimeline();
    expect(tl.tick({ drops: 0, backs: 0 }, 1)).toEqual([]);
    expect(tl.tick({ drops: 8, backs: 0 }, 2)).toEqual([{ at: 2, kind: 'drop', sessions: 8 }]);
    expect(tl.tick({ drops: 8, backs: 6 }, 3)).toEqual([{ at: 3, kind: 'back', sessions: 6 }]);
    expect(tl.tick({ drops: 9, backs: 9 }, 4)).toEqual([
      { at: 4, kind: 'drop', sessions: 1 },
      { at: 4, kind: 'back', sessions: 3 },
    ]);
    expect(tl.tick({ drops: 9, backs: 9 }, 5)).toEqual([]);
    expect(tl.list).toHaveLength(4);
  });
});

describe('chooseVuLoop with failover options', () => {
  const pgTarget = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'u', password: 'p', database: 'd' } as Target;
  it('retries need the TypeScript loop, even when native is asked for', async () => {
    const pg = await loadDriver('postgresql');
    expect(chooseVuLoop('native', pg, pgTarget, { asyncScale: false, reconnect: true, maxTries: 3 }).line).toBe('Virtual users run in JavaScript (retries (tprocc.maxTries) run in the TypeScript loop)');
  });
  it('the native loop keeps reconnect on or off and counts error classes itself', async () => {
    const pg = await loadDriver('postgresql');
    if (!loadPgVuLoop().available) return;
    for (const reconnect of [true, false]) expect(chooseVuLoop('auto', pg, pgTarget, { asyncScale: false, reconnect, maxTries: 1 })).toEqual({ loop: 'native', line: 'Virtual users run in the native libpq loop' });
  });
});
