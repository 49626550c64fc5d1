import type { GeneratedTable } from '@sledge/core';

/** The first byte where two buffers differ, with some context, or undefined when equal. */
export function firstDifference(actual: Uint8Array, expected: Uint8Array): string | undefined {
  const a = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
  const e = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  if (a.equals(e)) return undefined;
  let i = 0;
  while (i < a.length && i < e.length && a[i] === e[i]) i++;
  const around = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, i - 60), i + 30).toString('utf8'));
  return `lengths ${a.length} vs ${e.length}, first difference at byte ${i}: native ${around(a)} vs typescript ${around(e)}`;
}

/** Native tables against TypeScript ones: same tables, row counts and bytes (TS string as UTF-8). */
export function tableDifferences(native: GeneratedTable[], ts: GeneratedTable[]): string[] {
  const out: string[] = [];
  if (native.length !== ts.length) return [`${native.length} tables vs ${ts.length}`];
  for (let i = 0; i < ts.length; i++) {
    const n = native[i]!;
    const t = ts[i]!;
    if (n.table !== t.table) out.push(`table ${i}: ${n.table} vs ${t.table}`);
    if (n.rows !== t.rows) out.push(`${t.table}: ${n.rows} rows vs ${t.rows}`);
    if (!(n.data instanceof Uint8Array)) {
      out.push(`${t.table}: native data is not a Buffer`);
      continue;
    }
    if (typeof t.data !== 'string') {
      out.push(`${t.table}: typescript data is not a string`);
      continue;
    }
    const d = firstDifference(n.data, Buffer.from(t.data, 'utf8'));
    if (d) out.push(`${t.table}: ${d}`);
  }
  return out;
}
