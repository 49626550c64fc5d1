/**
 * Run-to-run spread and a regression verdict that uses it (issue 34 item 5).
 *
 * A run's spread is the coefficient of variation (sample standard deviation /
 * mean) of its headline over repeats of the same configuration. A change from
 * A to B is read against the noise two such runs explain: the relative
 * difference of two independent measurements with relative spreads cvA and
 * cvB has a standard deviation of about √(cvA² + cvB²), and a move larger
 * than twice that (≈ 95%) is called a regression or an improvement. With no
 * measured spread there is no verdict (never a flat percentage). Pure.
 */

export interface Spread {
  /** sd / mean over the repeats. */
  cv: number;
  repeats: number;
}

/** The spread of repeated readings (at least two, mean > 0), else undefined. */
export function spreadOf(values: readonly number[]): Spread | undefined {
  const v = values.filter((x) => Number.isFinite(x));
  if (v.length < 2) return undefined;
  const mean = v.reduce((s, x) => s + x, 0) / v.length;
  if (!(mean > 0)) return undefined;
  const variance = v.reduce((s, x) => s + (x - mean) ** 2, 0) / (v.length - 1);
  return { cv: Math.sqrt(variance) / mean, repeats: v.length };
}

export type Verdict = 'regression' | 'improvement' | 'within-noise' | 'unknown';

export interface VerdictInput {
  a: number | null;
  b: number | null;
  lowerIsBetter: boolean;
  /** The measured spreads: A's and B's (one is enough: it stands for both). */
  spreadA?: Spread | undefined;
  spreadB?: Spread | undefined;
}

export interface VerdictFigures {
  /** (b − a) / a. */
  change: number | null;
  /** 2 × √(cvA² + cvB²): the relative move the spread explains. */
  noise: number | null;
  verdict: Verdict;
}

/** A's value against B's, read against the measured spread. */
export function regressionVerdict(i: VerdictInput): VerdictFigures {
  if (i.a === null || i.b === null || !Number.isFinite(i.a) || !Number.isFinite(i.b) || !(i.a > 0)) return { change: null, noise: null, verdict: 'unknown' };
  const change = (i.b - i.a) / i.a;
  const cvA = i.spreadA?.cv ?? i.spreadB?.cv;
  const cvB = i.spreadB?.cv ?? i.spreadA?.cv;
  if (cvA === undefined || cvB === undefined) return { change, noise: null, verdict: 'unknown' };
  const noise = 2 * Math.sqrt(cvA * cvA + cvB * cvB);
  if (Math.abs(change) <= noise) return { change, noise, verdict: 'within-noise' };
  const worse = i.lowerIsBetter ? change > 0 : change < 0;
  return { change, noise, verdict: worse ? 'regression' : 'improvement' };
}
