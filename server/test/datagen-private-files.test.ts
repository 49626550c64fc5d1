import { closeSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPrivateFile, reopenPrivateFile, writePrivateFile } from '../dist/files/private-file.js';
import { MANIFEST_NAME, writeManifest, type DatagenManifest } from '../dist/workloads/tprocc/datagen-dir.js';
import { writeLoadScripts } from '../dist/workloads/tprocc/datagen-scripts.js';
import { makeApp, post, runJob, waitJob, type SledgeApp } from './helpers.js';

/**
 * Files datagen writes (TPROC-C and TPROC-H data files, manifests, load
 * scripts; HammerDB datagenrun runs the same jobs): owner-only (0600, 0700
 * for a shell script, in a 0700 directory) and never written through a
 * symbolic link planted at the name: the link's target keeps its content.
 */

const mode = (f: string) => statSync(f).mode & 0o777;
const VICTIM = 'victim content\n';

describe('datagen files are private and never follow a planted link', () => {
  let s: SledgeApp & { dataDir: string };
  const root = mkdtempSync(join(tmpdir(), 'sledge-dg-private-'));
  let n = 0;
  /** A fresh directory and a victim file outside it. */
  const fresh = () => {
    const dir = join(root, `d${++n}`);
    mkdirSync(dir, { mode: 0o755 });
    const victim = join(root, `victim-${n}`);
    writeFileSync(victim, VICTIM, { mode: 0o644 });
    return { dir, victim };
  };

  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(s.dataDir, { recursive: true, force: true });
  });

  it('openPrivateFile (data files): a planted link is refused, its target unchanged; a fresh file is 0600 and replaces our own earlier one', () => {
    const { dir, victim } = fresh();
    symlinkSync(victim, join(dir, 'stock_2.csv'));
    expect(() => openPrivateFile(dir, 'stock_2.csv', 'datagen.dir')).toThrow(expect.objectContaining({ code: 'SLEDGE_E_CONFLICT', field: 'datagen.dir' }));
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM);
    expect(lstatSync(join(dir, 'stock_2.csv')).isSymbolicLink()).toBe(true);

    writeFileSync(join(dir, 'item_1.csv'), 'old', { mode: 0o644 });
    const fd = openPrivateFile(dir, 'item_1.csv', 'datagen.dir');
    writeSync(fd, 'new');
    closeSync(fd);
    expect(readFileSync(join(dir, 'item_1.csv'), 'utf8')).toBe('new');
    expect(mode(join(dir, 'item_1.csv'))).toBe(0o600);
  });

  it('reopenPrivateFile (resumed data files): a planted link is refused, its target unchanged; our own file is made 0600', () => {
    const { dir, victim } = fresh();
    symlinkSync(victim, join(dir, 'stock_2.csv'));
    expect(() => reopenPrivateFile(dir, 'stock_2.csv', 'datagen.dir')).toThrow(expect.objectContaining({ code: 'SLEDGE_E_CONFLICT' }));
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM);
    writeFileSync(join(dir, 'item_1.csv'), 'abc', { mode: 0o644 });
    closeSync(reopenPrivateFile(dir, 'item_1.csv', 'datagen.dir'));
    expect(mode(join(dir, 'item_1.csv'))).toBe(0o600);
  });

  it('writePrivateFile with mode 0700 (shell load scripts): owner-only, a planted link refused', () => {
    const { dir, victim } = fresh();
    symlinkSync(victim, join(dir, 'load_oracle.sh'));
    expect(() => writePrivateFile(dir, 'load_oracle.sh', 'echo x\n', 'datagen.dir', { mode: 0o700 })).toThrow(expect.objectContaining({ code: 'SLEDGE_E_CONFLICT' }));
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM);
    writePrivateFile(dir, 'load_mssql.sh', 'echo x\n', 'datagen.dir', { mode: 0o700 });
    expect(mode(join(dir, 'load_mssql.sh'))).toBe(0o700);
    expect(mode(dir)).toBe(0o700);
  });

  it('TPROC-C writeManifest: a planted link at sledge-datagen.json is refused, its target unchanged; the manifest is 0600', () => {
    const { dir, victim } = fresh();
    const m: DatagenManifest = {
      tool: 'sledge datagen',
      settings: { seed: 1, warehouses: 1, workers: 1, timestamp: '2025-06-01 12:00:00', format: 'csv', formatVersion: 1 },
      generators: [],
      workers: [],
      complete: false,
      updatedAt: '',
    };
    symlinkSync(victim, join(dir, MANIFEST_NAME));
    expect(() => writeManifest(dir, m)).toThrow(expect.objectContaining({ code: 'SLEDGE_E_CONFLICT', field: 'datagen.dir' }));
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM);
    rmSync(join(dir, MANIFEST_NAME));
    writeManifest(dir, m);
    expect(mode(join(dir, MANIFEST_NAME))).toBe(0o600);
  });

  it('TPROC-C writeLoadScripts: a planted link at load_postgresql.sql is refused, its target unchanged; scripts are 0600 (0700 for .sh)', async () => {
    const { dir, victim } = fresh();
    const layout = { dir, seed: 1, warehouses: 1, workers: 1, timestamp: '2025-06-01 12:00:00', files: [{ table: 'item' as const, worker: 1, file: 'item_1.csv', rows: 1 }] };
    symlinkSync(victim, join(dir, 'load_postgresql.sql'));
    await expect(writeLoadScripts(layout)).rejects.toMatchObject({ code: 'SLEDGE_E_CONFLICT' });
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM);
    rmSync(join(dir, 'load_postgresql.sql'));
    const names = await writeLoadScripts(layout);
    expect(names).toContain('load_postgresql.sql');
    for (const f of names) expect([f, mode(join(dir, f))]).toEqual([f, f.endsWith('.sh') ? 0o700 : 0o600]);
  });

  it('a TPROC-C datagen job writes every file 0600 (scripts .sh 0700) in a 0700 directory', async () => {
    const dir = join(root, 'tprocc-job');
    const job = await runJob(s, { type: 'datagen', target: { engine: 'sqlite' }, tprocc: { warehouses: 1 }, seed: 3, datagen: { dir, workers: 1, timestamp: '2025-06-01 12:00:00' } });
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect(mode(dir)).toBe(0o700);
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith('.csv')).length).toBeGreaterThan(0);
    for (const f of files) expect([f, mode(join(dir, f))]).toEqual([f, f.endsWith('.sh') ? 0o700 : 0o600]);
  });

  it('a resumed TPROC-C datagen job refuses a link planted at a data file; the link target is unchanged', async () => {
    const dir = join(root, 'tprocc-job');
    // Make the finished directory look interrupted after worker 2's first unit, and swap a data file for a link.
    const m = JSON.parse(readFileSync(join(dir, MANIFEST_NAME), 'utf8')) as DatagenManifest;
    const w2 = m.workers.find((w) => w.worker === 2)!;
    m.complete = false;
    w2.units = 1;
    writeFileSync(join(dir, MANIFEST_NAME), JSON.stringify(m));
    const victim = join(root, 'victim-resume');
    const target = join(dir, 'stock_2.csv');
    writeFileSync(victim, readFileSync(target)); // as long as the manifest records, so the directory check passes
    const before = readFileSync(victim);
    rmSync(target);
    symlinkSync(victim, target);
    const job = await runJob(s, { type: 'datagen', target: { engine: 'sqlite' }, tprocc: { warehouses: 1 }, seed: 3, datagen: { dir, workers: 1, timestamp: '2025-06-01 12:00:00' } });
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'SLEDGE_E_CONFLICT', message: expect.stringContaining('symbolic link') });
    expect(readFileSync(victim).equals(before)).toBe(true);
    expect(lstatSync(target).isSymbolicLink()).toBe(true);
  });

  it('a TPROC-H datagen job writes every file 0600 (scripts .sh 0700) in a 0700 directory', async () => {
    const dir = join(root, 'tproch-job');
    const r = await post(s, '/api/v1/jobs', { type: 'datagen', workload: 'tproch', target: { engine: 'postgresql' }, tproch: { scaleFactor: 0.01 }, datagen: { dir, workers: 1 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect(mode(dir)).toBe(0o700);
    const files = readdirSync(dir);
    expect(files.some((f) => f.startsWith('lineitem.tbl.'))).toBe(true);
    expect(files).toContain('sledge-tproch.json');
    for (const f of files) expect([f, mode(join(dir, f))]).toEqual([f, f.endsWith('.sh') ? 0o700 : 0o600]);
  });
});
