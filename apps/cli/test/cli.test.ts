import { spawn } from 'node:child_process';
import { cliProcess } from './cli-process.js';
import { describe, expect, it } from 'vitest';

const { sledge, local, dataDir } = cliProcess('main');

describe('sledge CLI', () => {
  it('prints usage and rejects unknown commands and flags with exit code 2', async () => {
    expect((await sledge('help')).out).toContain('usage: sledge <command>');
    const bad = (await sledge('frobnicate'));
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown command');
    const flag = (await sledge('run', '--warehousez', '3'));
    expect(flag.code).toBe(2);
    expect(flag.err).toContain('unknown flag --warehousez: did you mean --warehouses?');
    const vu = (await sledge('run', '--vu', '3'));
    expect(vu.err).toContain('did you mean --vus?');
    expect(vu.err).not.toContain('usage:');
    // A mistyped command, and a mistyped value of a flag with a fixed set of values (issue 31 item 10d).
    const rnu = await sledge('rnu');
    expect(rnu.code).toBe(2);
    expect.soft(rnu.err).toContain('unknown command "rnu": did you mean "run"?');
    expect.soft((await sledge('jbos')).err).toContain('did you mean "jobs" or "job"?');
    expect.soft((await sledge('xyzzy')).err).not.toContain('did you mean');
    const db = await sledge('build', ...local, '--db', 'postgress');
    expect.soft(db.code).toBe(2);
    expect.soft(db.err).toContain('--db "postgress" is not a known engine: did you mean "postgresql"?');
    expect.soft(db.err).toContain('[--db]');
    const driver = await sledge('run', ...local, '--driver', 'timd');
    expect.soft(driver.code).toBe(2);
    expect.soft(driver.err).toContain('--driver must be one of test, timed (got "timd"): did you mean "timed"?');
    expect.soft((await sledge('run', ...local, '--workload', 'tproc')).err).toContain('did you mean "tprocc" or "tproch"?');
    expect.soft((await sledge('run', ...local, '--workload', 'tproch', '--mode', 'powr')).err).toContain('did you mean "power"?');
  });

  it('a negative number is a value with its range error, not a parser ambiguity; fields read as flags', async () => {
    const r = (await sledge('run', ...local, '--vus', '-2'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('--vus must be >= 1');
    expect(r.err).toContain('[--vus]');
    expect(r.err).not.toContain('ambiguous');
  });

  it('reports an unreachable server with what to do', async () => {
    const r = (await sledge('jobs'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/SLEDGE_E_CONNECT: cannot reach the Sledge server at http:\/\/127\.0\.0\.1:1.*--local/);
  });

  it('bad input: a 4xx names the field, exit code 2, no job', async () => {
    const r = (await sledge('build', ...local, '--db', 'sqlite', '--warehouses', '0'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('[--warehouses]');
    const u = (await sledge('build', ...local, '--db', 'mongo'));
    expect(u.code).toBe(2);
    expect(u.err).toContain('SLEDGE_E_UNKNOWN_ENGINE');
    const n = (await sledge('build', ...local, '--warehouses', 'many'));
    expect(n.err).toContain('--warehouses must be a number');
    expect(JSON.parse((await sledge('jobs', ...local, '--json')).out).total).toBe(0);
  });

  it('builds and runs on SQLite in-process: the TEST RESULT line on stdout, exit 0', async () => {
    const b = (await sledge('build', ...local, '--db', 'sqlite', '--warehouses', '1'));
    expect(b.code, b.err).toBe(0);
    expect(b.out).toMatch(/build job [0-9A-F]{24} completed/);
    expect(b.err).toContain('TPROCC.SQLITE SCHEMA COMPLETE'.slice(0, 0) + 'SCHEMA COMPLETE');
    // stderr is a pipe here, not a terminal: progress comes as whole lines, a few per phase, never a carriage return (issue 31 item 10b).
    expect.soft(b.err).not.toContain('\r');
    const progress = b.err.split('\n').filter((l) => /^\[\w+\] \d+ \/ ~\d+ rows/.test(l));
    expect.soft(progress.length).toBeGreaterThan(0);
    expect.soft(progress.length).toBeLessThanOrEqual(30);
    expect.soft(progress.at(-1)).toMatch(/^\[done\] (\d+) \/ ~\1 rows \(100%\)$/);
    const r = (await sledge('run', ...local, '--db', 'sqlite', '--vus', '2', '--rampup', '0', '--duration', '0.05'));
    expect(r.code, r.err).toBe(0);
    const j = (await sledge('run', ...local, '--db', 'sqlite', '--vus', '1', '--rampup', '0', '--duration', '0.05', '--json', '--quiet'));
    expect(j.code, j.err).toBe(0);
    expect((JSON.parse(j.out) as { result: { nopm: number } }).result.nopm).toBeGreaterThan(0);
    const m = /^TEST RESULT : System achieved (\d+) NOPM from (\d+) SQLite TPM$/m.exec(r.out);
    expect(m, r.out).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(0);
    expect(Number(m![2])).toBeGreaterThan(0);
    expect(r.err).toContain('Rampup complete, Taking start Transaction Count.');
    const jobs = JSON.parse((await sledge('jobs', ...local, '--json')).out) as { jobs: { type: string; status: string; id: string }[] };
    expect(jobs.jobs.map((j) => `${j.type}:${j.status}`)).toEqual(['run:completed', 'run:completed', 'build:completed']);
    const detail = (await sledge('job', jobs.jobs[1]!.id, ...local));
    expect(detail.out).toContain('NEWORD');
    const csv = (await sledge('export', jobs.jobs[1]!.id, ...local, '--format', 'csv', '--series', 'timing'));
    // The test driver prints every transaction: far more output than a pipe buffer holds.
    const t = (await sledge('run', ...local, '--db', 'sqlite', '--vus', '1', '--driver', 'test', '--total-iterations', '3000', '--quiet'));
    expect(t.code, t.err).toBe(0);
    const testJob = (JSON.parse((await sledge('jobs', ...local, '--json', '--limit', '1')).out) as { jobs: { id: string }[] }).jobs[0]!.id;
    // The count line says how many of the matching jobs it shows (issue 31 item 10c).
    const limited = await sledge('jobs', ...local, '--limit', '2');
    expect(limited.out).toMatch(/\n2 of 4 job\(s\)\n$/);
    expect(limited.out.trim().split('\n')).toHaveLength(1 + 2 + 1);
    expect((await sledge('jobs', ...local)).out).toMatch(/\n4 job\(s\)\n$/);
    // The `sledge` bin, its output cut by `head -1`: exit 0, no EPIPE stack trace.
    const bin = new URL('../bin/sledge.js', import.meta.url).pathname;
    const piped = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const p = spawn('bash', ['-c', `set -o pipefail; "${process.execPath}" "${bin}" job ${testJob} --output --local --data-dir "${dataDir}" | head -1`]);
      let out = '';
      let err = '';
      p.stdout.on('data', (d: Buffer) => (out += d));
      p.stderr.on('data', (d: Buffer) => (err += d));
      p.on('close', (code) => resolve({ code, out, err }));
    });
    expect(piped.err).toBe('');
    expect(piped.code).toBe(0);
    expect(piped.out.split('\n').filter(Boolean)).toHaveLength(1);
    expect(csv.out.split('\n')[0]).toBe('proc,vu,calls,min_ms,avg_ms,max_ms,total_ms,p25_ms,p50_ms,p75_ms,p95_ms,p99_ms,sd_ms,ratio_pct,elapsed_ms');
  });

  it('runs a performance profile (one run per VU count, same profile id)', async () => {
    const r = (await sledge('profile', ...local, '--db', 'sqlite', '--sequence', '1,2', '--rampup', '0', '--duration', '0.05', '--json'));
    expect(r.code, r.err).toBe(0);
    const p = JSON.parse(r.out) as { profileId: number; runs: { vus: number; nopm: number }[] };
    expect(p.profileId).toBe(1);
    expect(p.runs.map((x) => x.vus)).toEqual([1, 2]);
    expect(p.runs.every((x) => x.nopm > 0)).toBe(true);
    // Two VU counts: no scalability fit yet. A third run in the same profile brings the summary.
    expect(p).not.toHaveProperty('scalability');
    const third = await sledge('profile', ...local, '--db', 'sqlite', '--sequence', '3', '--profile-id', '1', '--rampup', '0', '--duration', '0.05');
    expect(third.code, third.err).toBe(0);
    expect(third.out).toMatch(/^Contention σ=[\d.e-]+, coherency κ=[\d.e-]+ \(R²=/m);
    const bad = (await sledge('profile', ...local, '--sequence', '1,x'));
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--sequence');
  });

  it('capabilities --json lists every engine, Db2 unavailable with install steps', async () => {
    const c = JSON.parse((await sledge('capabilities', ...local, '--json')).out) as { engines: { engine: string; available: boolean; install?: string }[] };
    const by = Object.fromEntries(c.engines.map((e) => [e.engine, e]));
    for (const e of ['sqlite', 'postgresql', 'mysql', 'mariadb', 'mssql', 'oracle']) expect(by[e]?.available, e).toBe(true);
    expect(by['db2']?.available).toBe(false);
    expect(by['db2']?.install).toContain('IBM_DB_HOME');
  });

});
