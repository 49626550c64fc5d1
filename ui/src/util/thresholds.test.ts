import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http.js';
import { EMPTY_THRESHOLDS, draftOf, hasAbort, thresholdsBody, toRowErrors, withAbort } from '../components/ThresholdsEditor.js';
import { verdictOf, verdictStatus } from './verdict.js';
import { jobCreateBody } from './rerun.js';
import type { Job } from '@sledge/protocol';

describe('run form thresholds', () => {
  it('sends the non-empty rows and the baseline with its regression as a fraction', () => {
    const { fields, rowOf } = thresholdsBody({ rows: ['nopm>1', ' ', ' p95(neword)<50ms '], baseline: 'job', baselineId: ' AB ', maxRegressionPct: '5' });
    expect(fields).toEqual({ thresholds: ['nopm>1', 'p95(neword)<50ms'], baseline: { jobId: 'AB', maxRegression: 0.05 } });
    expect(rowOf).toEqual([0, 2]);
    expect(thresholdsBody(EMPTY_THRESHOLDS).fields).toEqual({});
    expect(thresholdsBody({ ...EMPTY_THRESHOLDS, baseline: 'profile', baselineId: '3', maxRegressionPct: '2.5' }).fields).toEqual({ baseline: { profileId: 3, maxRegression: 0.025 } });
  });

  it("puts the server's thresholds[i] error on the row it came from", () => {
    const e = new ApiError('SLEDGE_E_VALIDATION', 'x', 400, 'thresholds[1]');
    expect((toRowErrors(e, [0, 2]) as ApiError).field).toBe('thresholds[2]');
    const many = new ApiError('SLEDGE_E_VALIDATION', 'x', 400, undefined, [{ field: 'thresholds[0]', message: 'a' }, { field: 'baseline.jobId', message: 'b' }]);
    expect((toRowErrors(many, [1]) as ApiError).errors?.map((x) => x.field)).toEqual(['thresholds[1]', 'baseline.jobId']);
  });

  it('Edit and run and Run again keep a job\'s thresholds and baseline', () => {
    const config = { type: 'run', target: { engine: 'sqlite', file: 'x' }, tprocc: { vus: 1 }, thresholds: ['nopm>1'], baseline: { profileId: 4, maxRegression: 0.1 } };
    expect(draftOf(config)).toEqual({ rows: ['nopm>1'], baseline: 'profile', baselineId: '4', maxRegressionPct: '10' });
    expect(draftOf({})).toEqual(EMPTY_THRESHOLDS);
    const job = { id: 'A'.repeat(24), type: 'run', workload: 'tprocc', engine: 'sqlite', config } as unknown as Job;
    expect(jobCreateBody(job)).toMatchObject({ thresholds: ['nopm>1'], baseline: { profileId: 4, maxRegression: 0.1 } });
  });

  it("the row's 'stop the run when it fails' option is the ':abort' suffix of the condition", () => {
    expect(withAbort('p95(neword)<50ms', true)).toBe('p95(neword)<50ms:abort');
    expect(withAbort('p95(neword)<50ms:abort', false)).toBe('p95(neword)<50ms');
    expect(withAbort('nopm>1 : abort(30s) ', false)).toBe('nopm>1');
    expect(withAbort('nopm>1:abort(30s)', true)).toBe('nopm>1:abort(30s)');
    expect([hasAbort('nopm>1'), hasAbort('nopm>1:ABORT'), hasAbort('nopm>1:abort(2m)'), hasAbort('aborts>1')]).toEqual([false, true, true, false]);
    expect(thresholdsBody({ ...EMPTY_THRESHOLDS, rows: [withAbort('p95(neword)<50ms', true)] }).fields).toEqual({ thresholds: ['p95(neword)<50ms:abort'] });
  });
});

describe('a judged job beside its status', () => {
  const r = (expr: string, ok: boolean, abortedAt?: number) => ({ expr, metric: expr, actual: 1, limit: 1, unit: '', ok, message: `${expr}: ${ok ? 'pass' : 'fail'}`, ...(abortedAt !== undefined ? { abortedAt } : {}) });
  it('a completed run that failed a threshold reads "failed thresholds", not a green completed', () => {
    const v = verdictOf({ passed: false, thresholdResults: [r('nopm>1', true), r('p95(neword)<1us', false)] });
    expect(v).toEqual({ kind: 'failed', failed: [r('p95(neword)<1us', false)] });
    expect(verdictStatus('completed', v)).toEqual({ text: 'failed thresholds', className: 'status-thresholds-failed' });
    expect(verdictStatus('completed', verdictOf({ passed: true, thresholdResults: [r('nopm>1', true)] }))).toBeUndefined();
    expect(verdictOf({})).toBeUndefined();
  });

  it('a run a :abort threshold stopped: aborted, the aborting condition first, when', () => {
    const job = { passed: false, error: { code: 'SLEDGE_E_THRESHOLD_ABORT' as const, message: 'aborted: threshold nopm>1 failed at 00:05 of the measured window (nopm 0 is not > 1)' }, thresholdResults: [r('p95(payment)<1us', false), r('nopm>1:abort', false, 5.1)] };
    const v = verdictOf(job);
    expect(v).toMatchObject({ kind: 'aborted', atSec: 5.1, message: job.error.message });
    expect(v?.kind === 'aborted' && v.failed.map((x) => x.expr)).toEqual(['nopm>1:abort', 'p95(payment)<1us']);
    expect(verdictStatus('failed', v)).toEqual({ text: 'aborted: threshold', className: 'status-aborted' });
  });
});
