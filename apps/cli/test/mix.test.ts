import { describe, expect, it } from 'vitest';
import { cliProcess } from './cli-process.js';
import { copySqliteTprocc } from './prebuilt.js';

const { sledge, local, dataDir } = cliProcess('mix');
const run = [...local, '--db', 'sqlite', '--file', 'mix.sqlite', '--vus', '2', '--rampup', '0', '--duration', '0.05', '--user-delay', '0'];

/** sledge run --mix on a SQLite file: the weights reach the run, and a weight the server refuses is named as the flag. */
describe('sledge run --mix', () => {
  it('--mix neworder=100 runs new orders only and says the mix is not the standard one; a bad weight exits 2 naming --mix', async () => {
    copySqliteTprocc(dataDir, 'mix.sqlite');
    const bad = await sledge('run', ...run, '--mix', 'neworder=5000');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('error: SLEDGE_E_VALIDATION: --mix neworder must be <= 1000 (got 5000) [--mix]');
    const zero = await sledge('run', ...run, '--mix', 'neworder=0');
    expect(zero.code).toBe(2);
    expect(zero.err).toContain('[--mix]');
    const r = await sledge('run', ...run, '--mix', 'neworder=100');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/TEST RESULT : System achieved [1-9]\d* NOPM/);
    expect(r.out + r.err).toContain("Transaction mix neworder 100, payment 0, delivery 0, stocklevel 0, orderstatus 0: not HammerDB's standard 10/10/1/1/1");
    expect(r.out).toMatch(/Standard transaction mix: the mix \(neworder 100, payment 0, delivery 0, stocklevel 0, orderstatus 0\) is not HammerDB's standard/);
  });
});
