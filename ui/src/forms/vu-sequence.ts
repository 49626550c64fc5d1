import type { Job, ProfileSummary } from '@sledge/protocol';
import type { JobCreateBody } from '../api/endpoints.js';
import { ApiError } from '../api/http.js';

/**
 * A VU sequence launched from the Run page (HammerDB's autopilot): one timed
 * run per VU count, in order, all with one performance profile id, so the
 * Compare page plots them and fits the scalability curve. Pure but for the
 * two API calls it is given.
 */

/** The form key the sequence's errors are shown at. */
export const VU_SEQUENCE_FIELD = 'vuSequence';
/** At most this many runs in one sequence (HammerDB's autopilot sequence has 8 by default). */
export const MAX_SEQUENCE = 32;

/**
 * "1 2 4 8" or "1,2,4,8" (HammerDB's autopilot_sequence is space-separated):
 * the VU counts, or an error that says what to fix. Empty text: no sequence.
 */
export function parseVuSequence(text: string, maxVus: number): number[] | ApiError | null {
  const words = text.split(/[\s,]+/).filter(Boolean);
  if (!words.length) return null;
  const bad = (m: string) => new ApiError('SLEDGE_E_VALIDATION', `VU sequence: ${m}`, 400, VU_SEQUENCE_FIELD);
  if (words.length < 2) return bad('list two or more VU counts, e.g. 1 2 4 8 (one count is a single run: set Virtual users instead)');
  if (words.length > MAX_SEQUENCE) return bad(`at most ${MAX_SEQUENCE} runs (got ${words.length})`);
  const counts: number[] = [];
  for (const w of words) {
    const n = Number(w);
    if (!/^\d+$/.test(w) || n < 1) return bad(`"${w}" is not a whole number of VUs of 1 or more`);
    if (n > maxVus) return bad(`${n} VUs is more than the ${maxVus} a run allows`);
    counts.push(n);
  }
  return counts;
}

/** The next free profile id: one past the highest in use. */
export const nextProfileId = (profiles: readonly ProfileSummary[]): number => profiles.reduce((m, p) => Math.max(m, p.profileId), 0) + 1;

/** One run body per VU count: the page's body with that many VUs, the profile id and a label naming the count. */
export function sequenceBodies(body: JobCreateBody, formKey: string, counts: readonly number[], profileId: number): JobCreateBody[] {
  const options = (body as unknown as Record<string, Record<string, unknown> | undefined>)[formKey] ?? {};
  const label = body.label?.trim();
  return counts.map((vus) => ({ ...body, [formKey]: { ...options, vus }, profileId, label: `${label ? `${label} ` : ''}${vus} VU` }) as JobCreateBody);
}

export interface SequenceApi {
  profiles: () => Promise<ProfileSummary[]>;
  createJob: (body: JobCreateBody) => Promise<Job>;
}

/**
 * Queue the sequence's runs in order (the server runs one job at a time, so
 * they run one after another). The profile id is the form's when one is
 * typed, else the next free one. The first run is checked by the server
 * before the rest are sent: a run it refuses queues nothing.
 */
export async function startVuSequence(api: SequenceApi, bodies: (profileId: number) => JobCreateBody[], typedProfileId: number | undefined): Promise<{ profileId: number; jobIds: string[] }> {
  const profileId = typedProfileId ?? nextProfileId(await api.profiles());
  const jobIds: string[] = [];
  for (const b of bodies(profileId)) jobIds.push((await api.createJob(b)).id);
  return { profileId, jobIds };
}
