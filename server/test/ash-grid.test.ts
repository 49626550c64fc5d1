import { describe, expect, it } from 'vitest';
import type { AshSample } from '@sledge/protocol';
import { countedSamples, SamplingGrid } from '../dist/runner/samplers/ash-grid.js';

describe('ASH sampling instants and background sleeps', () => {
  it('stamps one instant per second on a fixed grid: a late or early timer gives no double second and no empty one', () => {
    const g = new SamplingGrid(1000);
    // Timer ticks as a busy event loop delivers them: late, early, very late.
    const ticks = [10_000, 11_020, 11_990, 13_480, 14_200, 15_001, 16_999, 17_300];
    const at = ticks.map((t) => g.instant(t));
    expect(at).toEqual([10_000, 11_000, 12_000, 13_000, 14_000, 15_000, 17_000, 18_000]);
    expect(new Set(at).size).toBe(at.length);
  });

  it('background sleeps are left out by default and kept when the job asks (metrics.ashBackgroundIdle)', () => {
    const s = (over: Partial<AshSample>): AshSample => ({ ts: 1, session: '1', waitClass: 'CPU', event: 'CPU', ...over });
    const samples = [s({}), s({ session: '2', waitClass: 'Timeout', event: 'CheckpointWriteDelay', background: true, idle: true }), s({ session: '3', waitClass: 'IO', event: 'DataFileWrite', background: true })];
    expect(countedSamples(samples, { ashBackgroundIdle: false }).map((x) => x.session)).toEqual(['1', '3']);
    expect(countedSamples(samples, { ashBackgroundIdle: true }).map((x) => x.session)).toEqual(['1', '2', '3']);
  });
});
