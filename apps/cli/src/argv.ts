import { nearestNames } from '@sledge/protocol';

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

/** The known flag closest to an unknown one (edit distance <= 2, or a prefix), or undefined (protocol's nearestNames). */
export function nearestFlag(given: string, options: Options): string | undefined {
  const near = nearestNames(given.replace(/^-+/, '').split('=')[0]!, Object.keys(options));
  return near[0] === undefined ? undefined : `--${near[0]}`;
}

/** The flag named in parseArgs' "Unknown option '--x'" message. */
export function unknownOptionOf(message: string): string | undefined {
  return /Unknown option '([^']+)'/.exec(message)?.[1];
}
