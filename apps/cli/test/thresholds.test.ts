import { cliProcess } from './cli-process.js';
import { copySqliteTprocc } from './prebuilt.js';
import { describe, expect, it } from 'vitest';
import { parseBaselineFlag, parseMaxRegression, thresholdFields } from '../src/thresholds.js';

const { sledge, local, dataDir } = cliProcess('thresholds');
const run = [...local, '--db', 'sqlite', '--file', 'thr.sqlite', '--vus', '1', '--rampup', '0', '--duration', '0.05', '--timeprofile', '--quiet'];

describe('threshold flags', () => {
  it('map onto the job body: thresholds, baseline job:/profile:, --max-regression as % or fraction', () => {
    expect(thresholdFields({ threshold: ['nopm>1', 'p95(neword)<50ms'] })).toEqual({ thresholds: ['nopm>1', 'p95(neword)<50ms'] });
    expect(thresholdFields({ baseline: `job:${'ab'.repeat(12)}`, 'max-regression': '2.5%' })).toEqual({ baseline: { jobId: 'AB'.repeat(12), maxRegression: 0.025 } });
    expect(parseBaselineFlag('profile:7')).toEqual({ profileId: 7 });
    expect(parseBaselineFlag('AB'.repeat(12))).toEqual({ jobId: 'AB'.repeat(12) });
    expect(parseMaxRegression('0.05')).toBe(0.05);
    expect(() => parseBaselineFlag('profile:x')).toThrow(/--baseline must be job:<job id>/);
    expect(() => parseMaxRegression('lots')).toThrow(/--max-regression must be a percentage/);
    expect(() => thresholdFields({ 'max-regression': '5%' })).toThrow(/applies to a --baseline/);
  });

  it("--abort-on-fail marks every --threshold ':abort' (one that has it keeps its own)", () => {
    expect(thresholdFields({ threshold: ['nopm>1', 'p95(neword)<50ms:abort(30s)'], 'abort-on-fail': true })).toEqual({ thresholds: ['nopm>1:abort', 'p95(neword)<50ms:abort(30s)'] });
    expect(() => thresholdFields({ 'abort-on-fail': true })).toThrow(/give at least one --threshold/);
  });
});

describe('sledge run --threshold', () => {
  it('exits 0 when every threshold holds, 1 when one fails (printing which), 2 for a bad expression', async () => {
    copySqliteTprocc(dataDir, 'thr.sqlite');
    const bad = await sledge('run', ...run, '--threshold', 'nopm>1', '--threshold', 'p95(nope)<5ms');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('"nope" is not a TPROC-C operation');
    expect(bad.err).toContain('[thresholds[1]]');
    const pass = await sledge('run', ...run, '--profile-id', '1', '--threshold', 'nopm>1', '--threshold', 'p95(neword)<60s', '--verify');
    expect(pass.code, pass.err + pass.out).toBe(0);
    // The run's validity verdict is printed after its result: --verify adds the consistency conditions.
    expect(pass.out).toMatch(/^PASS {2}Schema consistency after the run \(C1-C4\): all \d+ checkschema conditions held$/m);
    expect(pass.out).toMatch(/^SKIP {2}Foreign load on the server: TPM is counted by the client/m);
    expect(pass.out).toMatch(/^VALIDITY (PASS|WARN|FAIL): \d+ passed, \d+ warned, \d+ failed, \d+ skipped$/m);
    expect(pass.out).toMatch(/^PASS {2}nopm>1 {2}\(nopm \d+ > 1: pass\)$/m);
    expect(pass.out).toContain('THRESHOLDS PASSED: 2 of 2 held');
    const fail = await sledge('run', ...run, '--profile-id', '2', '--threshold', 'nopm>1', '--threshold', 'p95(neword)<1us');
    expect(fail.code, fail.err + fail.out).toBe(1);
    expect(fail.out).toMatch(/^FAIL {2}p95\(neword\)<1us {2}\(p95\(neworder\) [\d.]+ ms is not < 0.001 ms: fail\)$/m);
    expect(fail.out).toContain('THRESHOLDS FAILED: 1 of 2 failed');
    const jobs = JSON.parse((await sledge('jobs', ...local, '--json')).out) as { jobs: { id: string; passed?: boolean }[] };
    const [failed, passed] = jobs.jobs;
    expect([failed!.passed, passed!.passed]).toEqual([false, true]);
    expect((await sledge('jobs', ...local)).out).toContain('[FAIL] TEST RESULT');
    // An old job judged again over REST: a generous baseline passes, its own thresholds still fail.
    const again = await sledge('thresholds', failed!.id, ...local, '--baseline', `job:${passed!.id}`, '--max-regression', '100%');
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(new RegExp(`^PASS  nopm vs job ${passed!.id}: regression <= 100.00%`, 'm'));
    expect((await sledge('thresholds', failed!.id, ...local)).code).toBe(1);
    // HammerDB jobs diff of the two one-point profiles.
    const diff = await sledge('diff', '1', '2', ...local, '--max-regression', '100%');
    expect(diff.code, diff.err).toBe(0);
    expect(diff.out).toMatch(/^Profiles compared \(unweighted\): matched=1, avg_base=\d+, avg_comp=\d+\n[+-]\d\.\d+\nPASS: regression /);
    expect((await sledge('diff', '1', ...local)).code).toBe(2);
  });

  it('--abort-on-fail: a threshold that fails during the measured window stops the run early, prints ABORTED and exits 1', async () => {
    // The schema was built by the test above; 30 s planned, stopped at the first judgement (5 s in).
    const r = await sledge('run', ...run.map((a) => (a === '0.05' ? '0.5' : a)), '--threshold', 'p95(neword)<1us', '--abort-on-fail');
    expect(r.code, r.err + r.out).toBe(1);
    expect(r.out).toMatch(/^FAIL {2}p95\(neword\)<1us:abort {2}\(p95\(neworder\) [\d.]+ ms is not < 0.001 ms: fail\)$/m);
    expect(r.out).toMatch(/^ABORTED: threshold p95\(neword\)<1us failed at 00:\d\d of the measured window/m);
    expect(r.out).not.toContain('TEST RESULT');
  });
});

