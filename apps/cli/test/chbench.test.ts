import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliProcess } from './cli-process.js';
import { PACED_FLAGS } from './paced.js';

const cwd = mkdtempSync(join(tmpdir(), 'sledge-cli-chbench-out-'));
const { sledge, local } = cliProcess('chbench', { cwd });
const db = ['--db', 'sqlite', '--workload', 'chbench'];

interface RunJson {
  job: { id: string; status: string; workload?: string };
  result: { nopm: number; tpm: number; line: string; analytic?: { streams: number; completedQueries: number; errors: number; queriesPerHour: number; perQuery: { query: number; count: number; meanSeconds: number }[] } };
}

/** CH-benCHmark through the CLI (`--workload chbench --analytic-streams M`), in-process with --local on SQLite. */
describe('sledge --workload chbench', () => {
  beforeAll(async () => {
    const b = await sledge('build', ...local, ...db, '--warehouses', '1');
    expect(b.code, b.err).toBe(0);
    expect(b.out).toMatch(/build job \w+ completed: 1 warehouses and CH-benCHmark's 3 tables built/);
  }, 240_000);

  it('checks the built schema: TPROC-C rows plus REGION, NATION and SUPPLIER', async () => {
    const c = await sledge('check', ...local, ...db);
    expect(c.code, c.err).toBe(0);
    // The job's output lines go to stderr, the summary to stdout.
    expect(c.err).toContain('SUPPLIER rows: OK (10000 of 10000)');
    expect(c.out).toMatch(/check job \w+ completed: schema OK, 1 warehouses and CH-benCHmark's 3 tables/);
  });

  // The mixed run's VUs are paced (./paced.ts; the analytic stream is not: it runs flat out), and the baseline is short:
  // the subject is the streams and what is recorded of them, not the load level.
  it('runs 2 VUs with 0 analytic streams (the baseline) and with 1, and prints the analytic queries', async () => {
    const alone = await sledge('run', ...local, ...db, '--vus', '2', '--analytic-streams', '0', '--rampup', '0', '--duration', '0.05', '--json', '--quiet');
    expect(alone.code, alone.err).toBe(0);
    const a = JSON.parse(alone.out) as RunJson;
    expect(a.job.status).toBe('completed');
    expect(a.result.nopm).toBeGreaterThan(0);
    expect(a.result.line).toBe(`TEST RESULT : System achieved ${a.result.nopm} NOPM from ${a.result.tpm} SQLite TPM`);
    expect(a.result.analytic?.streams ?? 0).toBe(0);

    const mixed = await sledge('run', ...local, ...db, '--vus', '2', '--analytic-streams', '1', '--rampup', '0', '--duration', '0.25', ...PACED_FLAGS);
    expect(mixed.code, mixed.err).toBe(0);
    expect(mixed.out).toMatch(/TEST RESULT : System achieved \d+ NOPM from \d+ SQLite TPM/);
    const jobs = await sledge('jobs', ...local, '--json');
    const list = JSON.parse(jobs.out) as { id: string; workload?: string; type: string }[] | { jobs: { id: string; workload?: string; type: string }[] };
    const rows = Array.isArray(list) ? list : list.jobs;
    const last = rows.find((j) => j.type === 'run' && j.id !== a.job.id);
    expect(last?.workload).toBe('chbench');
    const shown = await sledge('job', last!.id, ...local, '--json');
    expect(shown.code, shown.err).toBe(0);
    const r = (JSON.parse(shown.out) as { result: RunJson['result'] } | { job: { result: RunJson['result'] } });
    const result = 'result' in r ? r.result : r.job.result;
    expect(result.nopm).toBeGreaterThan(0);
    expect(result.analytic).toMatchObject({ streams: 1, errors: 0 });
    expect(result.analytic!.completedQueries).toBeGreaterThan(0);
    expect(result.analytic!.queriesPerHour).toBeGreaterThan(0);
    // One row per query, 1..22; a query no stream finished inside the window (a slow machine) has count 0 and no time.
    expect(result.analytic!.perQuery.map((q) => q.query)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(result.analytic!.perQuery.reduce((s, q) => s + q.count, 0)).toBe(result.analytic!.completedQueries);
    for (const q of result.analytic!.perQuery) {
      if (q.count > 0) expect(q.meanSeconds, `Q${q.query}`).toBeGreaterThan(0);
      else expect(q.meanSeconds, `Q${q.query}`).toBe(0);
    }
  }, 240_000);

  it('refuses a negative --analytic-streams, naming the flag, and stores no job', async () => {
    const before = (await sledge('jobs', ...local, '--json')).out;
    const bad = await sledge('run', ...local, ...db, '--analytic-streams', '-1', '--duration', '0.1');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/analytic/i);
    expect((await sledge('jobs', ...local, '--json')).out).toBe(before);
  });

  it('still passes the check after the mixed load', async () => {
    const c = await sledge('check', ...local, ...db);
    expect(c.code, c.err).toBe(0);
    expect(c.out).toMatch(/schema OK/);
  });
});
