import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobList } from '@sledge/protocol';
import { get, makeApp, post, type SledgeApp } from './helpers.js';
import { sqliteDatabase, unwritableDir } from './fs-helpers.js';

const Database = sqliteDatabase();

type Err = { error: { code: string; field?: string; message: string } };

/**
 * These jobs only have to get as far as creating their file or directory: where
 * it lands is the subject, not the 1-warehouse build or datagen after it. Wait
 * until `path` exists (or the job ends), then stop the job and wait for the
 * engine to be idle. A stopped SQLite build keeps its file.
 */
async function stopOnceCreated(s: SledgeApp, id: string, path: string): Promise<void> {
  const ended = () => ['completed', 'failed', 'stopped', 'interrupted'].includes(s.store.getJob(id)?.status ?? '');
  for (const end = Date.now() + 120_000; !existsSync(path) && !ended() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
  if (!ended()) await s.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/stop` });
  await s.engine.idle();
}

/**
 * Where jobs may put files: relative paths under the files root, the job
 * store's own files refused, no directory trees created outside the root,
 * unwritable places refused at preflight (nothing created, no job stored).
 */
describe('job file paths', () => {
  let s: SledgeApp & { dataDir: string };
  let scratch: string;
  const jobCount = async () => (await get<JobList>(s, '/api/v1/jobs')).total;
  const datagen = (dir: string) => ({ type: 'datagen', target: { engine: 'sqlite' }, tprocc: { warehouses: 1 }, datagen: { dir, workers: 1 } });
  const build = (file: string) => ({ type: 'build', target: { engine: 'sqlite', file }, tprocc: { warehouses: 1 } });

  const refused = async (body: unknown, field: string, message: RegExp) => {
    const before = await jobCount();
    const r = await post(s, '/api/v1/jobs', body);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect((r.body as Err).error).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field });
    expect((r.body as Err).error.message).toMatch(message);
    expect(await jobCount()).toBe(before);
  };

  beforeAll(async () => {
    s = await makeApp();
    scratch = mkdtempSync(join(tmpdir(), 'sledge-paths-'));
  });
  afterAll(async () => {
    await s.app.close();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(s.dataDir, { recursive: true, force: true });
  });

  it('creates no directory tree outside the files root (datagen dir "/nonexistent/fz")', async () => {
    const top = `/sledge-sb-nonexistent-${process.pid}`;
    await refused(datagen(`${top}/fz`), 'datagen.dir', new RegExp(`${top} does not exist, and outside ${s.dataDir} Sledge creates no directory trees`));
    expect(existsSync(top)).toBe(false);
    // One missing level under an existing directory is fine (and inside the root, any depth is).
    const ok = await post(s, '/api/v1/jobs', { ...datagen(join(scratch, 'one-level')), tprocc: { warehouses: 1 } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    await stopOnceCreated(s, String(ok.body.id), join(scratch, 'one-level'));
    expect(existsSync(join(scratch, 'one-level'))).toBe(true);
  });

  it('refuses the job store and its siblings as a SQLite target, and leaves the store alone', async () => {
    for (const file of ['sledge.db', './sledge.db-wal', 'sledge.db-shm', 'sledge.lock', 'secret.key', 'sledge.reserve', join(s.dataDir, 'sledge.db')]) {
      await refused(build(file), 'target.file', /is one of the job store's own files/);
    }
    // The same holds through a symbolic link to the data directory.
    const link = join(scratch, 'link-to-data');
    symlinkSync(s.dataDir, link);
    await refused(build(join(link, 'sledge.db')), 'target.file', /job store's own files/);
    s.store.flush();
    const db = new Database(join(s.dataDir, 'sledge.db'), { readonly: true });
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    db.close();
    expect(tables).not.toContain('warehouse');
    expect(tables).not.toContain('district');
  });

  it('refuses relative paths that climb out of the root, and the data directory itself for datagen', async () => {
    await refused(build('../elsewhere.sqlite'), 'target.file', /climbs out of the files root/);
    await refused(datagen('.'), 'datagen.dir', /is the data directory that holds the job store/);
    await refused(datagen(s.dataDir), 'datagen.dir', /is the data directory/);
  });

  it('refuses, at preflight, a SQLite file or datagen directory on a read-only or unwritable file system: nothing created, no job', async () => {
    const ro = join(scratch, 'ro');
    const { code, undo } = unwritableDir(ro);
    try {
      await refused(build(join(ro, 'sub', 't.sqlite')), 'target.file', new RegExp(`cannot be created in ${ro} \\(${code}`));
      await refused(datagen(join(ro, 'gen')), 'datagen.dir', new RegExp(code));
      const t = await post(s, '/api/v1/targets/test', { target: { engine: 'sqlite', file: join(ro, 'x.sqlite') } });
      expect(t.status).toBeLessThan(500);
    } finally {
      undo();
    }
    expect(existsSync(join(ro, 'sub'))).toBe(false);
    expect(existsSync(join(ro, 'gen'))).toBe(false);
  });

  it('resolves relative SQLite files under the data directory', async () => {
    const r = await post(s, '/api/v1/jobs', build('targets/relative.sqlite'));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await stopOnceCreated(s, String(r.body.id), join(s.dataDir, 'targets', 'relative.sqlite'));
    expect(existsSync(join(s.dataDir, 'targets', 'relative.sqlite'))).toBe(true);
    const job = await get<{ config: { target: { file: string } } }>(s, `/api/v1/jobs/${String(r.body.id)}`);
    expect(job.config.target.file).toBe(join(s.dataDir, 'targets', 'relative.sqlite'));
  });
});

describe('SLEDGE_FILES_ROOT', () => {
  it('confines every job path to the root, symbolic links included', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sledge-files-root-'));
    const outside = mkdtempSync(join(tmpdir(), 'sledge-outside-'));
    mkdirSync(join(root, 'in'));
    symlinkSync(outside, join(root, 'escape'));
    writeFileSync(join(outside, 'marker'), 'x');
    const s = await makeApp({ filesRoot: root });
    try {
      const body = (file: string) => ({ type: 'build', target: { engine: 'sqlite', file }, tprocc: { warehouses: 1 } });
      for (const file of [join(outside, 'x.sqlite'), join(root, 'escape', 'x.sqlite'), '../x.sqlite']) {
        const r = await post(s, '/api/v1/jobs', body(file));
        expect(r.status, file).toBe(400);
        expect((r.body as Err).error).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.file' });
      }
      const dg = await post(s, '/api/v1/jobs', { type: 'datagen', target: { engine: 'sqlite' }, datagen: { dir: join(outside, 'gen'), workers: 1 } });
      expect((dg.body as Err).error).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'datagen.dir' });
      expect(existsSync(join(outside, 'gen'))).toBe(false);
      expect((await get<JobList>(s, '/api/v1/jobs')).total).toBe(0);
      // Relative paths resolve under the root; deeper directories inside it are created.
      const ok = await post(s, '/api/v1/jobs', body('in/deeper/t.sqlite'));
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      await stopOnceCreated(s, String(ok.body.id), join(root, 'in', 'deeper', 't.sqlite'));
      expect(existsSync(join(root, 'in', 'deeper', 't.sqlite'))).toBe(true);
    } finally {
      await s.app.close();
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  });
});
