import { TclError } from './errors.js';

/** A variable: a scalar, an array, or not yet set; shared between frames by global/upvar. */
export interface Var {
  value?: string | undefined;
  array?: Map<string, string> | undefined;
  /** Set when written while vwait watches it. */
  written?: boolean;
}

/** One procedure call's variables (the global frame is level 0). */
export class Frame {
  readonly vars = new Map<string, Var>();
  constructor(
    readonly level: number,
    readonly proc?: string,
  ) {}

  get(name: string, create: boolean): Var | undefined {
    let v = this.vars.get(name);
    if (!v && create) {
      v = {};
      this.vars.set(name, v);
    }
    return v;
  }
}

/** "a(b)" -> ["a", "b"]; "a" -> ["a", undefined]. */
export function splitName(name: string): [string, string | undefined] {
  if (name.endsWith(')')) {
    const open = name.indexOf('(');
    if (open > 0) return [name.slice(0, open), name.slice(open + 1, -1)];
  }
  return [name, undefined];
}

export function readVar(v: Var | undefined, name: string, index: string | undefined): string {
  const shown = index === undefined ? name : `${name}(${index})`;
  if (!v || (v.value === undefined && v.array === undefined)) throw new TclError(`can't read "${shown}": no such variable`);
  if (index === undefined) {
    if (v.array) throw new TclError(`can't read "${shown}": variable is array`);
    return v.value!;
  }
  if (!v.array) throw new TclError(`can't read "${shown}": variable isn't array`);
  const x = v.array.get(index);
  if (x === undefined) throw new TclError(`can't read "${shown}": no such element in array`);
  return x;
}

export function writeVar(v: Var, name: string, index: string | undefined, value: string): string {
  if (index === undefined) {
    if (v.array) throw new TclError(`can't set "${name}": variable is array`);
    v.value = value;
  } else {
    if (v.value !== undefined) throw new TclError(`can't set "${name}(${index})": variable isn't array`);
    (v.array ??= new Map()).set(index, value);
  }
  v.written = true;
  return value;
}
