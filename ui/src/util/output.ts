import type { OutputLine } from '@sledge/protocol';

/** Lines matching a VU (null = all) and a case-insensitive text filter. */
export function filterLines(lines: readonly OutputLine[], vu: number | null, text: string): OutputLine[] {
  const q = text.trim().toLowerCase();
  if (vu === null && !q) return lines as OutputLine[];
  const out: OutputLine[] = [];
  for (const l of lines) {
    if (vu !== null && l.vu !== vu) continue;
    if (q && !l.text.toLowerCase().includes(q)) continue;
    out.push(l);
  }
  return out;
}

/** The VUs that appear in the lines, ascending. */
export function vusOf(lines: readonly OutputLine[]): number[] {
  const s = new Set<number>();
  for (const l of lines) s.add(l.vu);
  return [...s].sort((a, b) => a - b);
}

/** Merge an older page in front of the lines held, by seq, without duplicates. */
export function prependOlder(held: readonly OutputLine[], older: readonly OutputLine[]): OutputLine[] {
  const first = held.length ? held[0]!.seq : Infinity;
  const fresh = older.filter((l) => l.seq < first);
  return fresh.length ? fresh.concat(held) : (held as OutputLine[]);
}

/** VU label as HammerDB names them: 0 is the status stream, 1 the monitor. */
export function vuLabel(vu: number): string {
  if (vu === 0) return 'status';
  if (vu === 1) return 'monitor (VU 1)';
  return `VU ${vu}`;
}
