import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, post, type SledgeApp } from './helpers.js';
import { defaultDict } from '../dist/routes/hammerdb/dicts.js';
import { sledgeToDict } from '../dist/routes/hammerdb/keymap.js';

/** The connect pool REST endpoints and the HammerDB command API's pg_connect_pool without a pool file (no database needed). */
const XML = (pw: string) => `<connpool><connections>
<c1><pg_host>localhost</pg_host><pg_port>5432</pg_port><pg_user>tpcc1</pg_user><pg_pass>${pw}</pg_pass><pg_dbase>tpcc1</pg_dbase></c1>
<c2><pg_host>localhost</pg_host><pg_port>5432</pg_port><pg_user>tpcc2</pg_user><pg_pass>${pw}2</pg_pass><pg_dbase>tpcc2</pg_dbase><pg_ssl_extra>x</pg_ssl_extra></c2>
</connections><sprocs><neworder><connections>c1 c2</connections><policy>round_robin</policy></neworder></sprocs></connpool>`;

describe('connect pool REST', () => {
  let s: SledgeApp & { dataDir: string };
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('POST /pools/import converts a pool file, passwords redacted, checked against the target', async () => {
    const r = await post(s, '/api/v1/pools/import', { xml: XML('Very-Secret-1') });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(JSON.stringify(r.body)).not.toContain('Very-Secret');
    expect(r.body).toMatchObject({
      engine: 'postgresql',
      ignored: ['c2.pg_ssl_extra'],
      secrets: ['pool.connections.0.password', 'pool.connections.1.password'],
      pool: { connections: [{ name: 'c1', database: 'tpcc1', password: '********' }, { name: 'c2', user: 'tpcc2' }], ops: { neworder: { connections: ['c1', 'c2'], policy: 'round_robin' } } },
    });
    const bad = await post(s, '/api/v1/pools/import', { xml: XML('x').replace('<pg_port>5432</pg_port>', '<pg_port>70000</pg_port>'), target: { engine: 'postgresql' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('target.pool.connections.0.port');
    const broken = await post(s, '/api/v1/pools/import', { xml: '<connpool><connections>' });
    expect(broken.status).toBe(400);
    expect((broken.body['error'] as { field: string }).field).toBe('xml');
  });

  it('saved configurations: pool passwords encrypted at rest, "********" in replies, kept on update only for the same endpoint', async () => {
    const target = { engine: 'postgresql', password: 'Top-Secret-0', pool: { connections: [{ name: 'a', database: 'da', password: 'Pool-Secret-A' }, { name: 'b', host: 'h2', password: 'Pool-Secret-B' }] } };
    const r = await post(s, '/api/v1/configs', { name: 'pooled', target });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(JSON.stringify(r.body)).not.toContain('Pool-Secret');
    const id = r.body['id'] as number;
    const disk = ['sledge.db', 'sledge.db-wal'].map((f) => join(s.dataDir, f)).filter((f) => existsSync(f)).map((f) => readFileSync(f).toString('latin1')).join('');
    expect(disk).not.toContain('Pool-Secret');
    expect(disk).toContain('sledge-enc:v1:');
    const stored = s.store.getConfig(id, { withSecrets: true })!.target as unknown as { pool: { connections: { password: string }[] } };
    expect(stored.pool.connections.map((c) => c.password)).toEqual(['Pool-Secret-A', 'Pool-Secret-B']);
    // Sent back as shown: kept. Pointed elsewhere: refused, naming the field.
    const shown = r.body['target'] as typeof target;
    const put = await s.app.inject({ method: 'PUT', url: `/api/v1/configs/${id}`, payload: { name: 'pooled', target: shown } });
    expect(put.statusCode, put.body).toBe(200);
    expect((s.store.getConfig(id, { withSecrets: true })!.target as unknown as typeof stored).pool.connections[1]!.password).toBe('Pool-Secret-B');
    const moved = { ...shown, pool: { connections: [shown.pool.connections[0]!, { ...shown.pool.connections[1]!, host: 'elsewhere' }] } };
    const bad = await s.app.inject({ method: 'PUT', url: `/api/v1/configs/${id}`, payload: { name: 'pooled', target: moved } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body).error.field).toBe('target.pool.connections.1.password');
  });

  it('stores pgcpool.xml for the command API (owner-only file, redacted replies); pg_connect_pool without a file names where to put it', async () => {
    const put = await s.app.inject({ method: 'PUT', url: '/api/v1/pools/hammerdb/pg', payload: { xml: XML('Very-Secret-2') } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.body).not.toContain('Very-Secret');
    expect(statSync(join(s.dataDir, 'connectpool', 'pgcpool.xml')).mode & 0o777).toBe(0o600);
    const got = await s.app.inject({ method: 'GET', url: '/api/v1/pools/hammerdb/pg' });
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toContain('Very-Secret');
    expect((await s.app.inject({ method: 'DELETE', url: '/api/v1/pools/hammerdb/pg' })).statusCode).toBe(204);
    expect((await s.app.inject({ method: 'GET', url: '/api/v1/pools/hammerdb/pg' })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'PUT', url: '/api/v1/pools/hammerdb/nosuch', payload: { xml: XML('x') } })).statusCode).toBe(400);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    await s.app.inject({ method: 'POST', url: '/dbset', payload: ' "db": "pg" ', headers: form });
    await s.app.inject({ method: 'POST', url: '/diset', payload: ' "dict": "tpcc", "key": "pg_connect_pool", "value": "true" ', headers: form });
    await s.app.inject({ method: 'POST', url: '/loadscript', payload: '', headers: form });
    const run = await s.app.inject({ method: 'POST', url: '/vurun', payload: '', headers: form });
    expect(JSON.parse(run.body)).toEqual({ error: { message: expect.stringMatching(/^pg_connect_pool is true but there is no connect pool file pgcpool.xml: upload it with PUT \/api\/v1\/pools\/hammerdb\/pg .*\(HammerDB key pg_connect_pool\)$/) } });
  });

  it("a stored pooled job reads back as <prefix>_connect_pool true in the command API's dict", () => {
    const pooled = sledgeToDict('maria', 'mariadb', defaultDict('maria'), { target: { engine: 'mariadb', pool: { connections: [{ name: 'a' }] } }, tprocc: {} });
    expect(pooled.tpcc?.['maria_connect_pool']).toBe('true');
    expect(sledgeToDict('maria', 'mariadb', defaultDict('maria'), { target: { engine: 'mariadb' }, tprocc: {} }).tpcc?.['maria_connect_pool']).toBeUndefined();
  });
});
