import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type SledgeApp } from './helpers.js';

/** Share links can be revoked one by one without deleting the job. */
describe('share link revocation', () => {
  let s: SledgeApp & { dataDir: string };
  let jobId: string;
  beforeAll(async () => {
    s = await makeApp({ token: 'sb-secret-token' });
    jobId = s.store.createJob({ type: 'check', workload: 'tprocc', engine: 'sqlite', config: { target: { engine: 'sqlite', file: 'x.sqlite' } }, seed: 1, profileId: 0, clientVersion: 'test' }).id;
  });
  afterAll(async () => {
    await s.app.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  });
  const auth = { authorization: 'Bearer sb-secret-token' };
  const req = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string> = auth) => s.app.inject({ method, url, headers });

  it('lists, revokes one link (204), leaves the job and the other link, and 404s a revoked or foreign token', async () => {
    const a = JSON.parse((await req('POST', `/api/v1/jobs/${jobId}/share`)).body) as { token: string };
    const b = JSON.parse((await req('POST', `/api/v1/jobs/${jobId}/share`)).body) as { token: string };
    expect((await req('GET', `/api/v1/shared/${a.token}`, {})).statusCode).toBe(200);
    const list = JSON.parse((await req('GET', `/api/v1/jobs/${jobId}/share`)).body) as { token: string; path: string }[];
    expect(list.map((l) => l.token).sort()).toEqual([a.token, b.token].sort());
    expect(list[0]?.path).toMatch(/^\/s\//);

    expect((await req('DELETE', `/api/v1/jobs/${jobId}/share/${a.token}`, {})).statusCode).toBe(401); // needs the API token
    expect((await req('DELETE', `/api/v1/jobs/${jobId}/share/${a.token}`)).statusCode).toBe(204);
    expect((await req('GET', `/api/v1/shared/${a.token}`, {})).statusCode).toBe(404);
    expect((await req('GET', `/api/v1/shared/${b.token}`, {})).statusCode).toBe(200);
    expect((await req('GET', `/api/v1/jobs/${jobId}`)).statusCode).toBe(200);

    const again = await req('DELETE', `/api/v1/jobs/${jobId}/share/${a.token}`);
    expect(again.statusCode).toBe(404);
    expect(JSON.parse(again.body)).toMatchObject({ error: { code: 'SLEDGE_E_NOT_FOUND', field: 'token' } });
    expect(again.body).not.toContain(a.token);
    expect((await req('DELETE', `/api/v1/jobs/no-such-job/share/${b.token}`)).statusCode).toBe(404);
    expect((await req('GET', `/api/v1/shared/${b.token}`, {})).statusCode).toBe(200);
  });

  it('is in the OpenAPI document', async () => {
    const doc = JSON.parse((await req('GET', '/docs/json')).body) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/v1/jobs/{id}/share/{token}'] ?? {})).toContain('delete');
    expect(Object.keys(doc.paths['/api/v1/jobs/{id}/share'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
  });
});
