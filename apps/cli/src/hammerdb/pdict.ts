import { formatList, parseList } from '@sledge/tcl';

/**
 * HammerDB's CLI `pdict`: a dict printed one key per line, keys padded to the
 * longest at their level, nested dicts in braces, up to `maxLevel` levels.
 *
 *   connection {
 *    pg_host    = localhost
 *   }
 */
export type DictValue = string | { [k: string]: DictValue };

export function pdict(d: { [k: string]: DictValue }, maxLevel: number, level = 1): string[] {
  const keys = Object.keys(d);
  if (!keys.length) return [];
  const sp = ' '.repeat(level - 1);
  const size = Math.max(...keys.map((k) => k.length));
  const lines: string[] = [];
  for (const key of keys) {
    const v = d[key]!;
    const head = `${sp}${key.padEnd(size)}`;
    if (level < maxLevel && typeof v === 'object') {
      if (!Object.keys(v).length) lines.push(`${head} = {}`);
      else lines.push(`${head} {`, ...pdict(v, maxLevel, level + 1), `${sp}}`);
    } else lines.push(`${head} = ${typeof v === 'object' ? formatList(Object.entries(v).flatMap(([k, x]) => [k, typeof x === 'string' ? x : ''])) : v}`);
  }
  return lines;
}

/** "1 {WAIT IDLE} 2 RUNNING" (Tcl list) -> {1: "WAIT IDLE", 2: "RUNNING"}. */
export function pairsOf(list: string): { [k: string]: string } {
  const items = parseList(list);
  const out: { [k: string]: string } = {};
  for (let i = 0; i + 1 < items.length; i += 2) out[items[i]!] = items[i + 1]!;
  return out;
}
