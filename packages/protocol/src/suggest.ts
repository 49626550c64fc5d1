/**
 * "Did you mean" for a mistyped name: flags and commands on the command line,
 * values of fields that take one of a fixed set (engines, workloads, modes...)
 * in every API error. One rule everywhere.
 */

/** Edits (insert, delete, substitute one character) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

/**
 * The known names closest to `given` (case aside): those it is the start of
 * (3 characters or more), else those at most 2 edits away; ties are all
 * returned, in the candidates' order. Empty when nothing is close.
 */
export function nearestNames(given: string, candidates: readonly string[]): string[] {
  const g = given.toLowerCase();
  let best: string[] = [];
  let bestD = Infinity;
  for (const name of candidates) {
    const n = name.toLowerCase();
    if (n === g) continue;
    const d = g.length >= 3 && n.startsWith(g) ? 0.5 : editDistance(g, n);
    if (d > 2) continue;
    if (d < bestD) {
      best = [name];
      bestD = d;
    } else if (d === bestD) best.push(name);
  }
  return best;
}

/** `: did you mean "a"?` (or `"a" or "b"?`) for a mistyped value, or '' when nothing is close. */
export function didYouMean(given: unknown, candidates: readonly string[]): string {
  if (typeof given !== 'string' || !given) return '';
  const near = nearestNames(given, candidates);
  return near.length ? `: did you mean ${near.map((n) => JSON.stringify(n)).join(' or ')}?` : '';
}
