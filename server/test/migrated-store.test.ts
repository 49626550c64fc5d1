import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type SledgeApp } from '../dist/app.js';
import { get } from './helpers.js';

/**
 * fixtures/store-v1.db.gz is a job store written by Sledge before job results
 * became workload-neutral (schema version 1), and store-v1.expected.json what
 * that Sledge answered for it (fixtures/store-v1.make.mjs made both). Opened
 * now, the store is migrated; every job must read and export as before.
 */
const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);
const expected = JSON.parse(readFileSync(fixture('store-v1.expected.json'), 'utf8')) as {
  ids: { run: string; build: string };
  best: Record<string, string>;
  profiles: unknown[];
  profile3: unknown[];
  exports: Record<string, Record<string, unknown>>;
};

describe('a job store written before migration 0002', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sledge-v1-'));
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'sledge.db'), gunzipSync(readFileSync(fixture('store-v1.db.gz'))), { mode: 0o600 });
    s = await buildApp({ dataDir, logger: false, uiDir: null });
  });
  afterAll(async () => {
    await s.app.close();
  });

  it.each(['run', 'build'] as const)('the %s job exports the same JSON', async (which) => {
    const id = expected.ids[which];
    const doc = await get(s, `/api/v1/jobs/${id}/export?format=json`);
    expect(typeof doc['exportedAt']).toBe('string');
    expect(JSON.stringify({ ...doc, exportedAt: undefined })).toBe(JSON.stringify(expected.exports[id]));
    expect(await get(s, `/api/v1/jobs/${id}`)).toEqual(expected.exports[id]!['job']);
  });

  it('its NOPM and TPM are still queried: best job per engine, profiles, the result', async () => {
    expect(await get(s, '/api/v1/best')).toEqual(expected.best);
    expect(await get(s, '/api/v1/profiles')).toEqual(expected.profiles);
    expect(await get(s, '/api/v1/profiles/3')).toEqual({ profileId: 3, jobs: expected.profile3 });
    expect(await get(s, `/api/v1/jobs/${expected.ids.run}/result`)).toEqual(expected.exports[expected.ids.run]!['result']);
  });
});
