import { lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliProcess } from './cli-process.js';
import { describe, expect, it } from 'vitest';

const { sledge, local } = cliProcess('artifact');

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
    expect(statSync(join(dir, `hdb_${id}.json`)).mode & 0o777).toBe(0o600);
    // A symbolic link planted at the -o name is not followed: its target keeps its content.
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'victim content\n');
    symlinkSync(victim, join(dir, 'linked.json'));
    const linked = await sledge('artifact', id, ...local, '-o', join(dir, 'linked.json'));
    expect(linked.code).not.toBe(0);
    expect(linked.err).toContain('is a symbolic link');
    expect(readFileSync(victim, 'utf8')).toBe('victim content\n');
    expect(lstatSync(join(dir, 'linked.json')).isSymbolicLink()).toBe(true);
    const jobs = JSON.parse((await sledge('jobs', ...local, '--json', '--type', 'build')).out) as { jobs: { id: string }[] };
    const none = await sledge('artifact', jobs.jobs[0]!.id, ...local);
    expect(none.code).not.toBe(0);
    expect(none.err).toMatch(/has no test result/);
    // Profiles 1 and 2 share no VU count: jobs diff says so.
    const diff = await sledge('diff', '1', '2', ...local, '--weighted');
    expect(diff.code).not.toBe(0);
    expect(diff.err).toMatch(/no active-VU count in common/);
  }, 300_000);
});
