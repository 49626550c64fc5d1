import type { ProfileOperator, QueryProfile } from '@sledge/core';

/** One node of DuckDB's JSON profile (`PRAGMA enable_profiling = 'json'`): the fields Sledge reads. */
interface JsonNode {
  operator_name?: unknown;
  operator_type?: unknown;
  operator_timing?: unknown;
  operator_cardinality?: unknown;
  cpu_time?: unknown;
  extra_info?: unknown;
  children?: unknown;
}

/** Longest operator detail kept (DuckDB's projections of a wide query run long). */
const DETAIL_MAX = 240;

const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

/** DuckDB's extra_info object as one line: `Table: lineitem; Filters: l_shipdate<='1998-09-02'`. */
function detailOf(extra: unknown): string | undefined {
  if (!extra || typeof extra !== 'object') return undefined;
  const parts = Object.entries(extra as Record<string, unknown>).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.map(String).join(', ') : String(v)}`);
  const s = parts.join('; ').replace(/\s+/g, ' ').trim();
  if (!s) return undefined;
  return s.length > DETAIL_MAX ? `${s.slice(0, DETAIL_MAX - 1)}…` : s;
}

function walk(node: JsonNode, depth: number, out: ProfileOperator[]): void {
  const name = typeof node.operator_name === 'string' && node.operator_name ? node.operator_name : typeof node.operator_type === 'string' ? node.operator_type : '?';
  const cpu = num(node.cpu_time);
  const detail = detailOf(node.extra_info);
  out.push({ depth, name: name.trim(), seconds: num(node.operator_timing) ?? 0, rows: num(node.operator_cardinality) ?? 0, ...(cpu !== undefined ? { cpuSeconds: cpu } : {}), ...(detail ? { detail } : {}) });
  for (const c of Array.isArray(node.children) ? (node.children as JsonNode[]) : []) if (c && typeof c === 'object') walk(c, depth + 1, out);
}

/**
 * DuckDB's JSON profile of one query (the file `profiling_output` names) as
 * operator rows, depth-first from the root, with the query's latency and
 * CPU time as DuckDB measured them. Null when the text is not such a
 * profile or profiles another statement than `sql` (the query DuckDB names
 * in it is compared with whitespace collapsed).
 */
export function parseDuckdbProfile(text: string, sql: string): QueryProfile | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return null;
  const root = doc as JsonNode & { query_name?: unknown; latency?: unknown };
  const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
  if (typeof root.query_name !== 'string' || flat(root.query_name) !== flat(sql)) return null;
  const operators: ProfileOperator[] = [];
  for (const c of Array.isArray(root.children) ? (root.children as JsonNode[]) : []) if (c && typeof c === 'object') walk(c, 0, operators);
  const cpu = num(root.cpu_time);
  return { seconds: num(root.latency) ?? 0, ...(cpu !== undefined ? { cpuSeconds: cpu } : {}), operators };
}
