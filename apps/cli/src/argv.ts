/**
 * Command-line details that node:util parseArgs leaves to the caller:
 * negative numbers as flag values, and "did you mean" for unknown flags.
 */

type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/**
 * `--vus -2` would read as a flag "-2" (parseArgs calls it ambiguous): a
 * string flag followed by a negative number becomes `--vus=-2`, so the value
 * reaches validation and gets its range error.
 */
export function joinNegativeValues(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

/** The known flag closest to an unknown one (edit distance <= 2, or a prefix), or undefined. */
export function nearestFlag(given: string, options: Options): string | undefined {
  const g = given.replace(/^-+/, '').split('=')[0]!;
  let best: { name: string; d: number } | undefined;
  for (const name of Object.keys(options)) {
    const d = name.startsWith(g) && g.length >= 3 ? 0.5 : distance(g, name);
    if (d <= 2 && (!best || d < best.d)) best = { name, d };
  }
  return best ? `--${best.name}` : undefined;
}

/** The flag named in parseArgs' "Unknown option '--x'" message. */
export function unknownOptionOf(message: string): string | undefined {
  return /Unknown option '([^']+)'/.exec(message)?.[1];
}
