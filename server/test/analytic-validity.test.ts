import { describe, expect, it } from 'vitest';
import { analyticOnlyValidity } from '../dist/workloads/chbench/analytic-validity.js';

describe('validity of a CH-benCHmark run with the analytic streams alone', () => {
  it('skips the transactional checks and passes when queries completed in the window without error', () => {
    const v = analyticOnlyValidity({ streams: 2, completedQueries: 40, errors: 0 }, 60);
    expect(v.status).toBe('pass');
    expect(v.checks.map((c) => [c.id, c.status])).toEqual([['transactions', 'skip'], ['analytic-window', 'pass'], ['analytic-errors', 'pass']]);
    expect(v.checks[1]!.detail).toBe('40 queries of 2 stream(s) started and finished inside the 60.0 s measured window');
  });
  it('fails when no query finished inside the window, and says how to fix it', () => {
    const v = analyticOnlyValidity({ streams: 1, completedQueries: 0, errors: 0 }, 6);
    expect(v.status).toBe('fail');
    expect(v.checks[1]!.detail).toMatch(/lengthen tprocc\.duration$/);
  });
  it('warns when queries failed in the window', () => {
    const v = analyticOnlyValidity({ streams: 1, completedQueries: 10, errors: 3 }, 60);
    expect(v.status).toBe('warn');
    expect(v.checks[2]).toMatchObject({ status: 'warn', detail: '3 analytic queries failed in the window (10 completed): the job output names each' });
  });
});
