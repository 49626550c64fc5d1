/**
 * Thresholds on the command line: --threshold (repeatable), --baseline
 * job:<id>|profile:<id>, --max-regression 2.5% become the job body's
 * `thresholds` and `baseline`; the verdict is printed one line per condition
 * and decides the exit code (a failed condition exits 1).
 */
import { SledgeError, type Job, type ThresholdEvaluation } from '@sledge/protocol';

export const THRESHOLD_FLAGS = {
  threshold: { type: 'string', multiple: true },
  'abort-on-fail': { type: 'boolean' },
  baseline: { type: 'string' },
  'max-regression': { type: 'string' },
} as const;

export interface ThresholdFlags {
  threshold?: string[];
  /** Every --threshold gets `:abort` (one that has it already is left as it is). */
  'abort-on-fail'?: boolean;
  baseline?: string;
  'max-regression'?: string;
}

/** '2.5%' -> 0.025; '0.025' -> 0.025 (a bare number is a fraction, as the REST field). */
export function parseMaxRegression(v: string): number {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)\s*$/.exec(v);
  if (!m) throw new SledgeError('SLEDGE_E_VALIDATION', `--max-regression must be a percentage like 2.5% or a fraction like 0.025 (got ${JSON.stringify(v)})`, { field: '--max-regression' });
  return m[2] ? Number(m[1]) / 100 : Number(m[1]);
}

/** job:<24 hex> | profile:<n> | a bare job id. */
export function parseBaselineFlag(v: string): { jobId: string } | { profileId: number } {
  const m = /^(?:(job|profile):)?\s*(\S+)$/i.exec(v.trim());
  const kind = m?.[1]?.toLowerCase() ?? 'job';
  const val = m?.[2] ?? '';
  if (kind === 'job' && /^[0-9A-Fa-f]{24}$/.test(val)) return { jobId: val.toUpperCase() };
  if (kind === 'profile' && /^\d+$/.test(val) && Number(val) >= 1) return { profileId: Number(val) };
  throw new SledgeError('SLEDGE_E_VALIDATION', `--baseline must be job:<job id> (24 hex characters) or profile:<profile id> (got ${JSON.stringify(v)})`, { field: '--baseline' });
}

/** The body fields of the threshold flags (none given: none). */
export function thresholdFields(f: ThresholdFlags): { thresholds?: string[]; baseline?: Record<string, unknown> } {
  const out: { thresholds?: string[]; baseline?: Record<string, unknown> } = {};
  if (f['abort-on-fail'] && !f.threshold?.length) {
    throw new SledgeError('SLEDGE_E_VALIDATION', "--abort-on-fail marks the --threshold conditions ':abort': give at least one --threshold", { field: '--abort-on-fail' });
  }
  if (f.threshold?.length) out.thresholds = f['abort-on-fail'] ? f.threshold.map((t) => (/:\s*abort\b/i.test(t) ? t : `${t}:abort`)) : f.threshold;
  if (f['max-regression'] !== undefined && f.baseline === undefined) {
    throw new SledgeError('SLEDGE_E_VALIDATION', '--max-regression applies to a --baseline: add --baseline job:<id> or profile:<id>', { field: '--max-regression' });
  }
  if (f.baseline !== undefined) {
    out.baseline = { ...parseBaselineFlag(f.baseline), ...(f['max-regression'] !== undefined ? { maxRegression: parseMaxRegression(f['max-regression']) } : {}) };
  }
  return out;
}

/** One line per condition and a verdict line. */
export function thresholdReport(ev: Pick<ThresholdEvaluation, 'thresholdResults'> & { passed?: boolean }): string {
  const lines = ev.thresholdResults.map((r) => `${r.ok ? 'PASS' : 'FAIL'}  ${r.expr}  (${r.message})`);
  const failed = ev.thresholdResults.filter((r) => !r.ok).length;
  lines.push(failed ? `THRESHOLDS FAILED: ${failed} of ${ev.thresholdResults.length} failed` : `THRESHOLDS PASSED: ${ev.thresholdResults.length} of ${ev.thresholdResults.length} held`);
  return lines.join('\n') + '\n';
}

/** A job's verdict, when it has thresholds: printed report (with the abort line when a `:abort` condition stopped the run) and whether they all held. */
export function jobVerdict(job: Job): { report: string; passed: boolean } | undefined {
  if (!job.thresholdResults) return undefined;
  const aborted = job.error?.code === 'SLEDGE_E_THRESHOLD_ABORT' ? `ABORTED: ${job.error.message.replace(/^aborted: /, '')}\n` : '';
  return { report: thresholdReport({ thresholdResults: job.thresholdResults }) + aborted, passed: job.passed === true };
}
