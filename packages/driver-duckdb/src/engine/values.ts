/**
 * DuckDB values as the stream runner reports them: numbers (BIGINT as a
 * number when it is safe, else its digits), DECIMAL as a number, DATE and
 * TIMESTAMP as DuckDB prints them ('YYYY-MM-DD', whatever the process's time
 * zone), text as text, NULL as null.
 */
export function jsValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'bigint':
      return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
    case 'number':
    case 'string':
    case 'boolean':
      return v;
    case 'object': {
      const o = v as { toDouble?: () => number; toString(): string; width?: unknown; scale?: unknown };
      // DuckDBDecimalValue: width, scale, toDouble().
      if (typeof o.toDouble === 'function' && o.scale !== undefined) return o.toDouble();
      return o.toString();
    }
    default:
      return String(v);
  }
}

export function jsRows(rows: readonly (readonly unknown[])[]): unknown[][] {
  return rows.map((r) => r.map(jsValue));
}
