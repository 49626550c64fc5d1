import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, makeApp, post, type SledgeApp } from './helpers.js';

type Saved = { id: number; name: string; target: Record<string, unknown>; workload: string; options: Record<string, unknown>; tprocc?: unknown; createdAt: string; updatedAt: string };
type ErrorReply = { error: { code: string; field?: string; message: string; errors?: { field: string; message: string }[] } };

/** /api/v1/configs: saved configurations as (target, workload, options); the older { name, target, tprocc } still accepted. */
describe('saved configurations REST', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });
  const put = async (id: number, body: unknown) => {
    const r = await s.app.inject({ method: 'PUT', url: `/api/v1/configs/${id}`, payload: body as object });
    return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown> };
  };
  const list = () => get<Saved[]>(s, '/api/v1/configs');

  it('saves and returns each workload with its options: TPROC-C, TPROC-H, CH-benCHmark', async () => {
    const h = await post(s, '/api/v1/configs', { name: 'h', target: { engine: 'postgresql', host: 'db', password: 'H-pw-1' }, workload: 'tproch', options: { scaleFactor: 10, mode: 'throughput' } });
    expect(h.status, JSON.stringify(h.body)).toBe(201);
    expect(h.body).toMatchObject({ workload: 'tproch', options: { scaleFactor: 10, mode: 'throughput', querySets: 1 }, target: { engine: 'postgresql', database: 'tpch', password: '********' } });
    expect(h.body).not.toHaveProperty('tprocc');
    const ch = await post(s, '/api/v1/configs', { name: 'ch', target: { engine: 'sqlite' }, workload: 'chbench', options: { analyticStreams: 2, tprocc: { vus: 3, duration: 1 } } });
    expect(ch.status, JSON.stringify(ch.body)).toBe(201);
    expect(ch.body).toMatchObject({ workload: 'chbench', options: { analyticStreams: 2, dop: 1, tprocc: { vus: 3, duration: 1, driver: 'timed' } }, target: { file: 'chbench.sqlite' } });
    const c = await post(s, '/api/v1/configs', { name: 'c', target: { engine: 'sqlite' }, workload: 'tprocc', options: { vus: 2 } });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    // TPROC-C replies keep the deprecated `tprocc` (the same object as options) for older clients.
    expect(c.body).toMatchObject({ workload: 'tprocc', options: { vus: 2, warehouses: 1 } });
    expect(c.body['tprocc']).toEqual(c.body['options']);
    expect(await get(s, `/api/v1/configs/${String(ch.body['id'])}`)).toEqual(ch.body);
    expect((await list()).map((x) => [x.name, x.workload])).toEqual([
      ['c', 'tprocc'],
      ['ch', 'chbench'],
      ['h', 'tproch'],
    ]);
    expect(JSON.stringify(await list())).not.toContain('H-pw-1');

    // An update may change the workload; a kept secret stays.
    const moved = await put(h.body['id'] as number, { name: 'h', target: h.body['target'], workload: 'chbench', options: { tprocc: { vus: 5 } } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ workload: 'chbench', options: { analyticStreams: 1, tprocc: { vus: 5 } } });
    expect(s.store.getConfig(h.body['id'] as number, { withSecrets: true })?.target).toMatchObject({ password: 'H-pw-1' });
  });

  it('takes the older shape { name, target, tprocc } (an older client, an exported file) as workload "tprocc"', async () => {
    const old = await post(s, '/api/v1/configs', { name: 'old client', target: { engine: 'sqlite' }, tprocc: { vus: 4, schema: {} } });
    expect(old.status, JSON.stringify(old.body)).toBe(201);
    expect(old.body).toMatchObject({ workload: 'tprocc', options: { vus: 4 }, tprocc: { vus: 4 } });
    // What it returns can be sent back as it is (tprocc and options together are refused: one of them).
    const back = { ...old.body } as Record<string, unknown>;
    for (const k of ['id', 'createdAt', 'updatedAt', 'tprocc']) delete back[k];
    const r = await put(old.body['id'] as number, back);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body['options']).toEqual(old.body['options']);
  });

  it('refuses a bad workload or bad options with SLEDGE_E_VALIDATION naming the field, and writes nothing', async () => {
    const before = await list();
    const bad = async (body: Record<string, unknown>) => {
      const r = await post(s, '/api/v1/configs', { name: 'bad', target: { engine: 'sqlite' }, ...body });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      return (r.body as unknown as ErrorReply).error;
    };
    expect(await bad({ workload: 'tpch' })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'workload', message: expect.stringMatching(/must be one of tprocc, tproch, chbench/) });
    expect(await bad({ workload: 'tproch', options: { scaleFactor: 0 } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'options.scaleFactor' });
    expect(await bad({ workload: 'chbench', options: { tprocc: { steps: [] } } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'options.tprocc.steps' });
    expect(await bad({ options: 'fast' })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'options' });
    expect(await bad({ tprocc: { vus: 1 }, options: {} })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'tprocc' });
    expect(await bad({ tprocc: { vus: 0 } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'tprocc.vus' });
    // Every field at fault in one reply.
    const all = await bad({ target: { engine: 'sqlite', file: 7 }, workload: 'tproch', options: { mode: 'sprint', dop: 0 } });
    expect(all.errors?.map((e) => e.field).sort()).toEqual(['options.dop', 'options.mode', 'target.file']);
    expect(await list()).toEqual(before);

    const id = before[0]!.id;
    const r = await put(id, { name: before[0]!.name, target: before[0]!.target, workload: 'nope' });
    expect(r.status).toBe(400);
    expect((r.body as unknown as ErrorReply).error.field).toBe('workload');
    expect(await list()).toEqual(before);
  });

  it('documents the shape in the OpenAPI document (tprocc deprecated)', async () => {
    const doc = JSON.parse((await s.app.inject({ method: 'GET', url: '/docs/json' })).body) as { components: { schemas: Record<string, { properties: Record<string, { deprecated?: boolean }>; required?: string[] }> } };
    const saved = doc.components.schemas['SavedConfig']!;
    expect(Object.keys(saved.properties)).toEqual(expect.arrayContaining(['name', 'target', 'workload', 'options', 'tprocc']));
    expect(saved.required).toEqual(expect.arrayContaining(['workload', 'options']));
    expect(saved.required).not.toContain('tprocc');
    expect(saved.properties['tprocc']!.deprecated).toBe(true);
  });
});
