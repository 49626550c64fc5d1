import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobList } from '@sledge/protocol';
import { buildApp } from '../dist/app.js';
import { get, makeApp, post } from './helpers.js';

const PW = 'sb-Distinct-Pw-4471';
const SU = 'sb-Distinct-Su-8802';
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'sledge_sb_user', password: PW, superuser: 'postgres', superuserPassword: SU, database: 'sledge_sb_db' };
const storeBytes = (dir: string) =>
  ['sledge.db', 'sledge.db-wal', 'sledge.db-shm']
    .map((f) => join(dir, f))
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('');

/** Saved passwords are encrypted at rest with a key kept apart from the store; a lost key asks for the password again. */
describe('saved secrets at rest (server)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('keep the store files owner-only and free of the password; a wrong key gives 422 SLEDGE_E_SECRET_UNREADABLE, no job', async () => {
    const s = await makeApp();
    dirs.push(s.dataDir);
    const saved = await post(s, '/api/v1/configs', { name: 'pg', target });
    expect(saved.status).toBe(201);
    expect(storeBytes(s.dataDir)).not.toContain(PW);
    for (const f of ['sledge.db', 'sledge.db-wal', 'sledge.db-shm', 'sledge.lock', 'secret.key']) expect([f, (statSync(join(s.dataDir, f)).mode & 0o777).toString(8)]).toEqual([f, '600']);
    await s.app.close();
    expect(storeBytes(s.dataDir)).not.toContain(PW);
    expect(storeBytes(s.dataDir)).not.toContain(SU);

    // Another key (SLEDGE_SECRET_KEY set, or secret.key lost): the configuration lists, its secrets cannot be used.
    const other = await buildApp({ dataDir: s.dataDir, logger: false, uiDir: null, secretKey: randomBytes(32).toString('base64') });
    try {
      const list = await get<{ id: number; target: Record<string, unknown> }[]>(other, '/api/v1/configs');
      expect(list[0]?.target).toMatchObject({ host: '127.0.0.1', user: 'sledge_sb_user', password: '********' });
      const before = (await get<JobList>(other, '/api/v1/jobs')).total;
      const r = await post(other, '/api/v1/jobs', { type: 'check', configId: saved.body.id, target: { ...target, password: '********', superuserPassword: '********' } });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_SECRET_UNREADABLE', field: 'target.password' } });
      expect(String((r.body.error as { message: string }).message)).toMatch(/Type the secret again/);
      expect((await get<JobList>(other, '/api/v1/jobs')).total).toBe(before);
    } finally {
      await other.app.close();
    }
  });
});
