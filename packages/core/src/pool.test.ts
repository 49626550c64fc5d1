import { describe, expect, it } from 'vitest';
import type { Target } from '@sledge/protocol';
import type { Driver } from './driver.js';
import { openVuSession, PooledSession } from './pool.js';
import type { OpSession, VuWorkload } from './shapes/index.js';

/** A workload whose sessions record which target (database) each operation ran on. */
function recorder(failOn?: string) {
  const ran: string[] = [];
  const opened: string[] = [];
  const closed: string[] = [];
  const wl = {
    operations: ['a', 'b', 'c'],
    async openSession(_d: Driver, t: Target): Promise<OpSession> {
      const db = (t as { database: string }).database;
      if (db === failOn) throw new Error(`cannot connect to ${db}`);
      opened.push(db);
      return { run: (op: number) => (ran.push(`${op}@${db}`), 'commit'), close: async () => void closed.push(db) };
    },
  } as unknown as VuWorkload;
  return { wl, ran, opened, closed };
}

const target = {
  engine: 'postgresql',
  database: 'main',
  pool: {
    connections: [
      { name: 'x', database: 'dx' },
      { name: 'y', database: 'dy' },
      { name: 'z', database: 'dz' },
    ],
    ops: {
      a: { connections: ['x', 'y', 'z'], policy: 'round_robin' },
      b: { connections: ['x', 'y', 'z'], policy: 'last_named' },
      c: { connections: ['y', 'z'], policy: 'random' },
    },
  },
} as unknown as Target;

describe('connect pool session', () => {
  it('opens every connection and routes each operation by its policy', async () => {
    const r = recorder();
    const s = (await openVuSession(r.wl, {} as Driver, target, { vu: 2, log: () => undefined }, {})) as PooledSession;
    expect(s).toBeInstanceOf(PooledSession);
    expect(r.opened).toEqual(['dx', 'dy', 'dz']);
    for (let i = 0; i < 6; i++) await s.run(0, {});
    expect(r.ran.splice(0)).toEqual(['0@dx', '0@dy', '0@dz', '0@dx', '0@dy', '0@dz']);
    await s.run(1, {});
    expect(r.ran.splice(0)).toEqual(['1@dz']);
    expect(s.lastConnection()).toBe(2);
    for (let i = 0; i < 200; i++) await s.run(2, {});
    const hits = new Set(r.ran.splice(0));
    expect(hits).toEqual(new Set(['2@dy', '2@dz']));
    await s.close();
    expect(r.closed.sort()).toEqual(['dx', 'dy', 'dz']);
  });

  it('without a pool: the workload session itself; a connection that fails closes the others and is named', async () => {
    const r = recorder();
    const { pool: _p, ...plain } = target as unknown as Record<string, unknown>;
    const s = await openVuSession(r.wl, {} as Driver, plain as Target, { vu: 2, log: () => undefined }, {});
    expect(s).not.toBeInstanceOf(PooledSession);
    const f = recorder('dy');
    await expect(openVuSession(f.wl, {} as Driver, target, { vu: 2, log: () => undefined }, {})).rejects.toThrow('pool connection y: cannot connect to dy');
    expect(f.closed).toEqual(['dx']);
  });
});
