import { describe, expect, it } from 'vitest';
import type { Job, ProfileSummary } from '@sledge/protocol';
import type { JobCreateBody } from '../api/endpoints.js';
import { ApiError } from '../api/http.js';
import { nextProfileId, parseVuSequence, sequenceBodies, startVuSequence, VU_SEQUENCE_FIELD } from './vu-sequence.js';

const body = { type: 'run', target: { engine: 'sqlite' }, tprocc: { vus: 9, duration: 1, rampup: 0 }, label: 'base' } as unknown as JobCreateBody;

describe('VU sequence (autopilot from the Run page)', () => {
  it('reads HammerDB\'s space-separated sequence or a comma list; empty is no sequence', () => {
    expect(parseVuSequence('1 2 4 8', 1000)).toEqual([1, 2, 4, 8]);
    expect(parseVuSequence(' 1,2, 4 ', 1000)).toEqual([1, 2, 4]);
    expect(parseVuSequence('   ', 1000)).toBeNull();
  });

  it('says what to fix, at the sequence field', () => {
    const err = (t: string, max = 1000) => {
      const e = parseVuSequence(t, max);
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).field).toBe(VU_SEQUENCE_FIELD);
      return (e as ApiError).message;
    };
    expect(err('4')).toMatch(/two or more VU counts/);
    expect(err('1 x 4')).toBe('VU sequence: "x" is not a whole number of VUs of 1 or more');
    expect(err('0 2')).toMatch(/"0" is not a whole number of VUs of 1 or more/);
    expect(err('1 2.5')).toMatch(/"2.5"/);
    expect(err('1 2000', 1000)).toBe('VU sequence: 2000 VUs is more than the 1000 a run allows');
    expect(err(Array.from({ length: 33 }, (_, i) => i + 1).join(' '))).toMatch(/at most 32 runs \(got 33\)/);
  });

  it('one body per count: that many VUs, the profile id and a label naming the count; the rest of the body unchanged', () => {
    const bodies = sequenceBodies(body, 'tprocc', [1, 4], 7);
    expect(bodies).toEqual([
      { ...body, tprocc: { vus: 1, duration: 1, rampup: 0 }, profileId: 7, label: 'base 1 VU' },
      { ...body, tprocc: { vus: 4, duration: 1, rampup: 0 }, profileId: 7, label: 'base 4 VU' },
    ]);
    expect(sequenceBodies({ ...body, label: undefined } as unknown as JobCreateBody, 'tprocc', [2, 3], 1).map((b) => b.label)).toEqual(['2 VU', '3 VU']);
  });

  it('takes the next free profile id unless one is typed, and queues the runs in order', async () => {
    expect(nextProfileId([])).toBe(1);
    expect(nextProfileId([{ profileId: 3 }, { profileId: 9 }, { profileId: 2 }] as ProfileSummary[])).toBe(10);
    const sent: JobCreateBody[] = [];
    const api = {
      profiles: async () => [{ profileId: 4 }] as ProfileSummary[],
      createJob: async (b: JobCreateBody) => {
        sent.push(b);
        return { id: `J${sent.length}` } as Job;
      },
    };
    expect(await startVuSequence(api, (pid) => sequenceBodies(body, 'tprocc', [1, 2, 4], pid), undefined)).toEqual({ profileId: 5, jobIds: ['J1', 'J2', 'J3'] });
    expect(sent.map((b) => [(b as unknown as { tprocc: { vus: number } }).tprocc.vus, b.profileId])).toEqual([[1, 5], [2, 5], [4, 5]]);
    sent.length = 0;
    expect((await startVuSequence(api, (pid) => sequenceBodies(body, 'tprocc', [1, 2], pid), 12)).profileId).toBe(12);
    // A run the server refuses stops the sequence there: the rest is not sent.
    const refusing = { ...api, createJob: async () => Promise.reject(new ApiError('SLEDGE_E_VALIDATION', 'no schema', 422)) };
    await expect(startVuSequence(refusing, (pid) => sequenceBodies(body, 'tprocc', [1, 2], pid), undefined)).rejects.toThrow('no schema');
  });
});
