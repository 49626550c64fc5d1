import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const main = new URL('../dist/main.js', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'sledge-cli-artifact-'));
const sledge = (...args: string[]): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const p = spawn(process.execPath, [main, ...args], { env: { ...process.env, SLEDGE_SERVER: 'http://127.0.0.1:1' } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d));
    p.stderr.on('data', (d: Buffer) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
const local = ['--local', '--data-dir', dataDir];

describe('sledge artifact', () => {
  it('prints the v6 result artifact of a run, or writes hdb_<id>.json; a build has none', async () => {
    expect((await sledge('build', ...local, '--db', 'sqlite', '--file', 'a.sqlite', '--warehouses', '1', '--quiet')).code).toBe(0);
    for (const vus of ['1', '2']) {
      const r = await sledge('run', ...local, '--db', 'sqlite', '--file', 'a.sqlite', '--vus', vus, '--rampup', '0', '--duration', '0.05', '--profile-id', vus, '--quiet');
      expect(r.code, r.err).toBe(0);
    }
    const id = (JSON.parse((await sledge('jobs', ...local, '--json', '--type', 'run')).out) as { jobs: { id: string }[] }).jobs[0]!.id;
    const out = await sledge('artifact', id, ...local);
    expect(out.code, out.err).toBe(0);
    const a = JSON.parse(out.out) as { schema: string; job: { jobid: string }; result: { type: string; nopm: number } };
    expect(a).toMatchObject({ schema: 'hammerdb-job-report-v1', job: { jobid: id }, result: { type: 'tproc_c_result' } });
    expect(typeof a.result.nopm).toBe('number');
    const dir = mkdtempSync(join(tmpdir(), 'sledge-artifact-out-'));
    const w = await sledge('artifact', id, ...local, '-o', `${dir}/`);
    expect(w.code, w.err).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, `hdb_${id}.json`), 'utf8'))).toEqual(a);
    const jobs = JSON.parse((await sledge('jobs', ...local, '--json', '--type', 'build')).out) as { jobs: { id: string }[] };
    const none = await sledge('artifact', jobs.jobs[0]!.id, ...local);
    expect(none.code).not.toBe(0);
    expect(none.err).toMatch(/has no test result/);
    // Profiles 1 and 2 share no VU count: jobs diff says so.
    const diff = await sledge('diff', '1', '2', ...local, '--weighted');
    expect(diff.code).not.toBe(0);
    expect(diff.err).toMatch(/no active-VU count in common/);
  }, 120_000);
});
