import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProcess } from './cli-process.js';

const { sledge, local, dataDir } = cliProcess('duckdb');

/** `--db duckdb --file f.duckdb`: a TPROC-H build and power run in-process (--local), and TPROC-C refused with the reason. */
describe('sledge --db duckdb', () => {
  const file = join(dataDir, 'cli-tproch.duckdb');
  const target = ['--db', 'duckdb', '--file', file, '--workload', 'tproch'];

  it('builds TPROC-H SF 0.01 into the file, then runs the power test', async () => {
    const b = await sledge('build', ...local, ...target, '--scale', '0.01', '--quiet');
    expect(b.code, b.err).toBe(0);
    expect(existsSync(file)).toBe(true);
    const r = await sledge('run', ...local, ...target, '--mode', 'power', '--json', '--quiet');
    expect(r.code, r.err).toBe(0);
    const { job } = JSON.parse(r.out) as { job: { engine: string; status: string; result: { queries: { query: number; rows: number }[]; geomean: number; powerAtSize: number } } };
    expect(job.engine).toBe('duckdb');
    expect(job.status).toBe('completed');
    expect(job.result.queries).toHaveLength(22);
    expect(job.result.geomean).toBeGreaterThan(0);
    expect(job.result.powerAtSize).toBeGreaterThan(0);
  });

  it('the duckdb: URL form names the file too', async () => {
    const r = await sledge('check', ...local, '--db', 'duckdb', '--url', `duckdb:${file}`, '--workload', 'tproch', '--quiet');
    expect(r.code, r.err).toBe(0);
  });

  it("builds TPROC-C's schema on DuckDB, and refuses a TPROC-C run with the reason, exit code 2", async () => {
    const c = join(dataDir, 'c.duckdb');
    const refused = await sledge('run', ...local, '--db', 'duckdb', '--file', c, '--vus', '1', '--rampup', '0', '--duration', '0.05');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('SLEDGE_E_DRIVER_UNAVAILABLE');
    expect(refused.err).toContain('optimistic concurrency');
    expect(existsSync(c)).toBe(false);
    const built = await sledge('build', ...local, '--db', 'duckdb', '--file', c, '--workload', 'tprocc', '--warehouses', '1', '--quiet');
    expect(built.code, built.err).toBe(0);
    expect(existsSync(c)).toBe(true);
    const checked = await sledge('check', ...local, '--db', 'duckdb', '--file', c, '--workload', 'tprocc', '--quiet');
    expect(checked.code, checked.err).toBe(0);
  }, 120_000);
});
