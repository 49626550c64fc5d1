import { TclError } from '../errors.js';

/** `wrong # args` unless min <= number of arguments (after the command name) <= max. */
export function arity(args: readonly string[], min: number, max: number, usage: string): void {
  const n = args.length - 1;
  if (n < min || n > max) throw new TclError(`wrong # args: should be "${usage}"`);
}

/** Split leading -options (until "--" or a non-option) from the rest. */
export function options(args: readonly string[], from: number, known: readonly string[], withValue: readonly string[] = []): { opts: Map<string, string>; rest: string[] } {
  const opts = new Map<string, string>();
  let i = from;
  while (i < args.length && args[i]!.startsWith('-')) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (withValue.includes(a)) {
      if (i + 1 >= args.length) throw new TclError(`missing value for "${a}" option`);
      opts.set(a, args[i + 1]!);
      i += 2;
    } else if (known.includes(a)) {
      opts.set(a, '1');
      i++;
    } else if (args.length - i <= 1) break;
    else throw new TclError(`bad option "${a}": must be ${[...known, ...withValue].join(', ')}`);
  }
  return { opts, rest: args.slice(i) };
}

/** A subcommand by its full name or a unique prefix (Tcl accepts `info command` for `info commands`). */
export function subcommand(given: string | undefined, names: readonly string[]): string {
  if (given !== undefined && names.includes(given)) return given;
  const hits = given ? names.filter((n) => n.startsWith(given)) : [];
  if (hits.length === 1) return hits[0]!;
  const list = [...names].sort();
  throw new TclError(`unknown or ambiguous subcommand "${given ?? ''}": must be ${list.slice(0, -1).join(', ')}, or ${list.at(-1)}`);
}
