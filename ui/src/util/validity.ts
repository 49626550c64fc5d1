import { isTprochResult, validityOfResult, type Job, type Validity, type ValidityStatus } from '@sledge/protocol';

/** What a job page's Validity panel shows: nothing (not a run, not ended, or a TPROC-H run), "not computed" (a run stored before verdicts), or the verdict. */
export type ValidityView = { kind: 'none' } | { kind: 'not-computed' } | { kind: 'verdict'; validity: Validity; counts: Record<ValidityStatus, number> };

export function validityView(job: Pick<Job, 'type' | 'status' | 'result'>): ValidityView {
  if (job.type !== 'run' || job.status !== 'completed' || !job.result) return { kind: 'none' };
  // TPROC-H computes no validity verdict (TPROC-C's and CH-benCHmark's checks): nothing to say, not "stored before verdicts".
  if (isTprochResult(job.result)) return { kind: 'none' };
  const v = validityOfResult(job.result);
  if (!v) return { kind: 'not-computed' };
  const counts = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const c of v.checks) counts[c.status]++;
  return { kind: 'verdict', validity: v, counts };
}

/** The mark and CSS class of a status. */
export const VALIDITY_MARK: Record<ValidityStatus, { text: string; className: string }> = {
  pass: { text: '✓ pass', className: 'good' },
  warn: { text: '! warn', className: 'warn' },
  fail: { text: '✗ fail', className: 'bad' },
  skip: { text: '– skip', className: 'muted' },
};
