import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http.js';
import { EMPTY_THRESHOLDS, draftOf, thresholdsBody, toRowErrors } from '../components/ThresholdsEditor.js';
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
});
