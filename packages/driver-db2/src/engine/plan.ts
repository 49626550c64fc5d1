/** One operator of a Db2 access plan (EXPLAIN_OPERATOR). */
export interface PlanOperator {
  id: number;
  type: string;
  cost: number;
}

/** One stream of a Db2 access plan (EXPLAIN_STREAM): operator or data object ('D', a table or index) into an operator. */
export interface PlanStream {
  sourceType: string;
  sourceId: number;
  targetId: number;
  rows: number;
  objectName: string | null;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/**
 * The access plan as an indented tree (what db2exfmt draws as a graph):
 * each operator with its id, the estimated rows it returns and its total
 * cost, each table or index it reads as a leaf.
 */
export function renderPlan(operators: readonly PlanOperator[], streams: readonly PlanStream[]): string {
  if (!operators.length) return '';
  const byId = new Map(operators.map((o) => [o.id, o]));
  const inputs = new Map<number, PlanStream[]>();
  const outRows = new Map<number, number>();
  const sources = new Set<number>();
  for (const s of streams) {
    if (!inputs.has(s.targetId)) inputs.set(s.targetId, []);
    inputs.get(s.targetId)!.push(s);
    if (s.sourceType === 'O') {
      sources.add(s.sourceId);
      outRows.set(s.sourceId, s.rows);
    }
  }
  const roots = operators.filter((o) => !sources.has(o.id));
  const lines: string[] = [];
  const seen = new Set<number>();
  const walk = (op: PlanOperator, depth: number) => {
    if (seen.has(op.id)) return;
    seen.add(op.id);
    const rows = outRows.get(op.id);
    lines.push(`${'  '.repeat(depth)}${op.type.trim()} (${op.id})${rows === undefined ? '' : ` rows=${fmt(rows)}`} cost=${fmt(op.cost)}`);
    for (const s of inputs.get(op.id) ?? []) {
      if (s.sourceType === 'O') {
        const child = byId.get(s.sourceId);
        if (child) walk(child, depth + 1);
      } else {
        lines.push(`${'  '.repeat(depth + 1)}${(s.objectName ?? '?').trim()} rows=${fmt(s.rows)}`);
      }
    }
  };
  for (const r of roots) walk(r, 0);
  return lines.join('\n');
}
