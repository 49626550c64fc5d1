import { describe, expect, it } from 'vitest';
import type { Job } from '@sledge/protocol';
import { missingLabel, planRerun, withSecrets } from './rerun.js';

const job = {
  id: 'J',
  type: 'run',
  workload: 'tprocc',
  engine: 'postgresql',
  status: 'completed',
  config: {
    type: 'run',
    workload: 'tprocc',
    target: { engine: 'postgresql', host: 'h', user: 'u', password: '********', database: 'd', pool: { connections: [{ name: 'a', password: '********' }, { name: 'b', host: 'h2', password: '********' }] } },
    tprocc: { vus: 1 },
  },
} as unknown as Job;

describe('rerun of a connect pool job', () => {
  it('fills pool secrets from the same connection of the known target, lists the others, and puts typed ones back', () => {
    const known = { engine: 'postgresql', host: 'h', user: 'u', password: 'pw', database: 'd', pool: { connections: [{ name: 'a', password: 'pa' }, { name: 'b', host: 'other', password: 'pb' }] } };
    const plan = planRerun(job, { target: known });
    expect(plan.missing).toEqual(['pool.connections.1.password']);
    expect(missingLabel(plan, 'pool.connections.1.password', (f) => (f === 'password' ? 'Password' : f))).toBe('Password of pool connection b');
    const body = withSecrets(plan, { 'pool.connections.1.password': 'typed-b' });
    const t = body.target as unknown as { password: string; pool: { connections: { password: string }[] } };
    expect(t.password).toBe('pw');
    expect(t.pool.connections.map((c) => c.password)).toEqual(['pa', 'typed-b']);
  });
});
