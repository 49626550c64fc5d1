import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '@sledge/protocol';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';

/**
 * TPROC-C schema options left the target for tprocc.schema. A body, script
 * or saved configuration of the old shape (storedProcs under target) keeps
 * working with the same effect: PostgreSQL procedures instead of functions,
 * which checkschema looks for by the option.
 */
describe('TPROC-C schema options: old shape (under target) and new shape (tprocc.schema)', () => {
  let s: SledgeApp;
  const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'sledge_shape_pg', password: 'tpcc-pw-shape', database: 'sledge_shape_pg', superuser: 'postgres', superuserPassword: 'postgres' };
  const oldTarget = { ...target, storedProcs: true };
  const run = async (body: unknown): Promise<Job> => {
    const r = await post(s, '/api/v1/jobs', body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return waitJob(s, String(r.body.id));
  };

  beforeAll(async () => {
    s = await makeApp();
    await run({ type: 'delete', target });
  });
  afterAll(async () => {
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
    if (del.status === 201) await waitJob(s, String(del.body.id));
    await s.app.close();
  });

  it('an old-shape build body builds with the option; new-shape and saved-configuration checks see the same schema', async () => {
    const build = await run({ type: 'build', target: oldTarget, tprocc: { warehouses: 1 } });
    expect(build.status, JSON.stringify(build.error)).toBe('completed');
    const cfg = build.config as { target: Record<string, unknown>; tprocc: { schema: Record<string, unknown> } };
    expect(cfg.target).not.toHaveProperty('storedProcs');
    expect(cfg.tprocc.schema).toEqual({ tablespace: 'pg_default', storedProcs: true, partition: false });

    // The same option in the new shape: the procedures are there.
    expect((await run({ type: 'check', target, tprocc: { schema: { storedProcs: true } } })).status).toBe('completed');
    // Without it checkschema looks for functions and finds none: the option took effect.
    const plain = await run({ type: 'check', target });
    expect(plain.status).toBe('failed');
    expect(plain.error?.message).toMatch(/transaction routines exist/);

    // A saved configuration of the old shape is kept in the new one and runs the same.
    const saved = await post(s, '/api/v1/configs', { name: 'old shape', target: oldTarget, tprocc: { warehouses: 1 } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const c = await get<{ id: number; target: Record<string, unknown>; tprocc: Record<string, unknown> }>(s, `/api/v1/configs/${String(saved.body.id)}`);
    expect(c.target).not.toHaveProperty('storedProcs');
    expect(c.tprocc['schema']).toMatchObject({ storedProcs: true });
    expect((await run({ type: 'check', target: c.target, tprocc: c.tprocc, configId: c.id })).status).toBe('completed');
    // An old-shape check body (a script written before the move) too.
    expect((await run({ type: 'check', target: oldTarget })).status).toBe('completed');
  });
});
