import { describe, expect, it } from 'vitest';
import type { AshSample } from '@sledge/protocol';
import { ClientAsh } from '../dist/runner/samplers/client-ash.js';

/** The shared block the VUs write: [vu][exec µs, of which waiting µs]. */
function block(vus: number) {
  const a = new Int32Array(new SharedArrayBuffer(vus * 2 * 4));
  return {
    a,
    /** VU `v` finished a transaction of `execMs`, `waitMs` of it waiting for the write lock. */
    done(v: number, execMs: number, waitMs = 0) {
      Atomics.add(a, v * 2, execMs * 1000);
      Atomics.add(a, v * 2 + 1, waitMs * 1000);
    },
  };
}

const perInstant = (xs: AshSample[]) => {
  const m = new Map<number, number>();
  for (const x of xs) m.set(x.ts, (m.get(x.ts) ?? 0) + x.weight!);
  return m;
};
const near = (x: number) => Math.round(x * 1e6) / 1e6;

describe('client-side ASH (SQLite): the VUs own time on a one-second grid', () => {
  const T0 = 1_000_000;

  it('one sample per VU and class each second, split into executing and waiting for the write lock', () => {
    const b = block(2);
    const c = new ClientAsh(b.a, 2, T0);
    b.done(0, 1000, 200);
    b.done(1, 500);
    const xs = c.take(T0 + 1000);
    expect(xs.map((x) => [x.ts, x.session, x.waitClass, near(x.weight!)])).toEqual([
      [T0 + 1000, 'vu-2', 'CPU', 0.8],
      [T0 + 1000, 'vu-2', 'Lock', 0.2],
      [T0 + 1000, 'vu-3', 'CPU', 0.5],
    ]);
    expect(xs[1]).toMatchObject({ vu: 2, program: 'sledge-vu-2', event: 'write lock (SQLITE_BUSY)', engineClass: 'busy' });
  });

  it('a reading 2.7 s late fills every second it covers, and no VU weighs more than 1 in any of them', () => {
    const b = block(2);
    const c = new ClientAsh(b.a, 2, T0);
    b.done(0, 1000);
    b.done(1, 1000);
    expect(perInstant(c.take(T0 + 1000)).get(T0 + 1000)).toBe(2);
    // The event loop was held: 2.7 s pass before the next reading; both VUs were busy throughout.
    b.done(0, 2700, 700);
    b.done(1, 2700);
    const late = c.take(T0 + 3700);
    const sums = perInstant(late);
    expect([...sums.keys()]).toEqual([T0 + 2000, T0 + 3000]);
    for (const w of sums.values()) expect(near(w)).toBe(2);
    // The next reading completes the second the late one was inside.
    b.done(0, 300);
    b.done(1, 300);
    expect([...perInstant(c.take(T0 + 4000))].map(([t, w]) => [t, near(w)])).toEqual([[T0 + 4000, 2]]);
  });

  it('a transaction longer than the reading is capped at 1 and its excess carried to the next second: totals kept', () => {
    const b = block(1);
    const c = new ClientAsh(b.a, 1, T0);
    b.done(0, 1500);
    expect(c.take(T0 + 1000).map((x) => near(x.weight!))).toEqual([1]);
    b.done(0, 200);
    expect(c.take(T0 + 2000).map((x) => near(x.weight!))).toEqual([0.7]);
  });

  it('readings inside a second are added up; the last reading closes the open second with the part that was active', () => {
    const b = block(1);
    const c = new ClientAsh(b.a, 1, T0);
    b.done(0, 300);
    expect(c.take(T0 + 400)).toEqual([]);
    b.done(0, 600);
    expect(c.take(T0 + 1000).map((x) => [x.ts, near(x.weight!)])).toEqual([[T0 + 1000, 0.9]]);
    b.done(0, 250);
    expect(c.flush(T0 + 1250).map((x) => [x.ts, near(x.weight!)])).toEqual([[T0 + 2000, 0.25]]);
    expect(c.take(T0 + 1250)).toEqual([]);
  });

  it('an idle second has no sample: absence is no activity, as in any ASH', () => {
    const b = block(1);
    const c = new ClientAsh(b.a, 1, T0);
    expect(c.take(T0 + 1000)).toEqual([]);
  });
});
