/**
 * A query plan's shape: its text with what changes from run to run without
 * the plan changing (costs, row estimates, widths, timings, constants and
 * the query's parameters) taken out, so two runs' plans
 * of a query compare on their operators, their order and their nesting.
 * Pure.
 */

/**
 * `(cost=1.00..2.00 rows=3 width=4)` and `(actual ...)` go, quoted literals
 * become `'?'` (a run's query parameters: TPROC-H draws them from the run's
 * seed), numbers become `#`; whitespace runs collapse.
 */
export function planShape(plan: string): string {
  return plan
    .split('\n')
    .map((l) =>
      l
        .replace(/\((?:cost|actual)[^)]*\)/gi, '')
        .replace(/'(?:[^']|'')*'/g, "'?'")
        .replace(/\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, '#')
        .replace(/\s+/g, ' ')
        .trimEnd(),
    )
    .filter((l) => l.trim() !== '')
    .join('\n');
}

/** The queries (present in both) whose plans differ in shape, by query number. */
export function changedPlans(a: readonly { query: number; plan: string }[], b: readonly { query: number; plan: string }[]): { changed: { query: number; planA: string; planB: string }[]; compared: number } {
  const mb = new Map(b.map((p) => [p.query, p.plan]));
  const changed: { query: number; planA: string; planB: string }[] = [];
  let compared = 0;
  for (const p of [...a].sort((x, y) => x.query - y.query)) {
    const other = mb.get(p.query);
    if (other === undefined) continue;
    compared++;
    if (planShape(p.plan) !== planShape(other)) changed.push({ query: p.query, planA: p.plan, planB: other });
  }
  return { changed, compared };
}
