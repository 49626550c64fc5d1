import { describe, expect, it } from 'vitest';
import { jobInput, tempStore } from './test/helpers.js';

describe('share links', () => {
  it('lists a job\'s links and revokes one without touching the job or its other links', () => {
    const { store } = tempStore();
    const job = store.createJob(jobInput());
    const other = store.createJob(jobInput());
    const a = store.createShare(job.id).token;
    const b = store.createShare(job.id).token;
    const c = store.createShare(other.id).token;
    expect(store.listShares(job.id).map((s) => s.token).sort()).toEqual([a, b].sort());

    expect(store.revokeShare(c, job.id)).toBe(false); // another job's link
    expect(store.resolveShare(c)).toBe(other.id);
    expect(store.revokeShare(a, job.id)).toBe(true);
    expect(store.revokeShare(a, job.id)).toBe(false);
    expect(store.resolveShare(a)).toBeUndefined();
    expect(store.resolveShare(b)).toBe(job.id);
    expect(store.getJob(job.id)?.id).toBe(job.id);
    expect(store.listShares(job.id).map((s) => s.token)).toEqual([b]);
  });
});
