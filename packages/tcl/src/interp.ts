import { TclControl, TclError, TclExit } from './errors.js';
import { parseList } from './lists.js';
import { parseScript, type ParsedCommand, type Part } from './parser.js';
import { Frame, readVar, splitName, writeVar, type Var } from './vars.js';

/** What a command gets besides its words: the interpreter and where it was called. */
export interface CallContext {
  interp: Interp;
  /** 0-based line of the command in the current file. */
  line: number;
  /** 0-based line of each word (args[i]), for script arguments evaluated later. */
  argLines: number[];
}

export type Command = (args: string[], ctx: CallContext) => string | Promise<string>;

export interface InterpOptions {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** The env array (defaults to process.env). */
  env?: Record<string, string | undefined>;
}

interface Timer {
  id: string;
  at: number;
  script: string;
}

/**
 * The interpreter: commands, the call stack of variable frames, the current
 * file (for error reports) and the timer queue behind `after` and `vwait`.
 * Every command may be async (HammerDB verbs wait on a server), so
 * evaluation is async throughout.
 */
export class Interp {
  readonly commands = new Map<string, Command>();
  readonly procs = new Set<string>();
  readonly global = new Frame(0);
  private frames: Frame[] = [this.global];
  /** Script file being run (error reports name it). */
  file: string | undefined;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  private timers: Timer[] = [];
  private timerSeq = 0;

  constructor(opts: InterpOptions = {}) {
    this.out = opts.stdout ?? ((s) => process.stdout.write(s));
    this.err = opts.stderr ?? ((s) => process.stderr.write(s));
    const env = this.global.get('env', true)!;
    env.array = new Map(Object.entries(opts.env ?? process.env).filter((e): e is [string, string] => e[1] !== undefined));
  }

  get frame(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  register(name: string, fn: Command): void {
    this.commands.set(name, fn);
  }

  // ---- variables -------------------------------------------------------

  private locate(name: string, create: boolean): { v: Var | undefined; base: string; index: string | undefined } {
    const [full, index] = splitName(name);
    const global = full.startsWith('::');
    const base = global ? full.replace(/^:+/, '') : full;
    return { v: (global ? this.global : this.frame).get(base, create), base, index };
  }

  getVar(name: string): string {
    const { v, base, index } = this.locate(name, false);
    return readVar(v, base, index);
  }

  setVar(name: string, value: string): string {
    const { v, base, index } = this.locate(name, true);
    return writeVar(v!, base, index, value);
  }

  /** The variable object itself (global, upvar, vwait, array commands). */
  varRef(name: string, create = true): Var | undefined {
    return this.locate(name, create).v;
  }

  exists(name: string): boolean {
    const { v, index } = this.locate(name, false);
    if (!v) return false;
    return index === undefined ? v.value !== undefined || v.array !== undefined : v.array?.has(index) === true;
  }

  unsetVar(name: string, complain = true): void {
    const { base, index } = this.locate(name, false);
    const frame = name.startsWith('::') ? this.global : this.frame;
    const v = frame.vars.get(base);
    const missing = () => {
      if (complain) throw new TclError(`can't unset "${name}": no such ${index === undefined ? 'variable' : 'element in array'}`);
    };
    if (!v || (v.value === undefined && v.array === undefined)) return missing();
    if (index === undefined) {
      v.value = undefined;
      v.array = undefined;
      frame.vars.delete(base);
    } else if (!v.array?.delete(index)) missing();
  }

  /** Link `local` in the current frame to `other` in the frame `level` levels up (upvar/global). */
  link(frameLevel: number, other: string, local: string): void {
    const target = this.frames[frameLevel];
    if (!target) throw new TclError(`bad level "${frameLevel}"`);
    const [base] = splitName(other.replace(/^:+/, ''));
    const from = other.startsWith('::') ? this.global : target;
    this.frame.vars.set(local, from.get(base, true)!);
  }

  /** "#0", "#N", "N" (levels up from the current one) -> absolute frame index. */
  level(spec: string): number {
    const cur = this.frames.length - 1;
    const n = spec.startsWith('#') ? Number(spec.slice(1)) : cur - Number(spec);
    if (!Number.isInteger(n) || n < 0 || n > cur) throw new TclError(`bad level "${spec}"`);
    return n;
  }

  get depth(): number {
    return this.frames.length - 1;
  }

  /** Run `fn` with the frame stack cut back to `level` (uplevel). */
  async atLevel<T>(level: number, fn: () => Promise<T>): Promise<T> {
    const saved = this.frames;
    this.frames = saved.slice(0, level + 1);
    try {
      return await fn();
    } finally {
      this.frames = saved;
    }
  }

  async inFrame<T>(frame: Frame, fn: () => Promise<T>): Promise<T> {
    this.frames.push(frame);
    try {
      return await fn();
    } finally {
      this.frames.pop();
    }
  }

  // ---- evaluation ------------------------------------------------------

  /** Evaluate a script whose first character is on 0-based line `base` of the current file. */
  async eval(src: string, base = 0): Promise<string> {
    let result = '';
    for (const cmd of this.parse(src, base)) result = await this.evalCommand(cmd, base);
    return result;
  }

  private parse(src: string, base: number): ParsedCommand[] {
    try {
      return parseScript(src);
    } catch (e) {
      if (e instanceof TclError && e.line !== undefined && e.file === undefined) {
        e.line += base + 1;
        e.file = this.file;
      }
      throw e;
    }
  }

  private async evalCommand(cmd: ParsedCommand, base: number): Promise<string> {
    try {
      const args: string[] = [];
      const argLines: number[] = [];
      for (const w of cmd.words) {
        const value = w.braced ? w.text : await this.substParts(w.parts, base);
        if (w.expand) {
          for (const x of parseList(value)) {
            args.push(x);
            argLines.push(base + w.line);
          }
        } else {
          args.push(value);
          argLines.push(base + w.line);
        }
      }
      if (args.length === 0) return '';
      const name = args[0]!;
      const fn = this.commands.get(name) ?? this.commands.get(name.replace(/^::/, ''));
      if (!fn) throw new TclError(`invalid command name "${name}"`);
      return await fn(args, { interp: this, line: base + cmd.line, argLines });
    } catch (e) {
      if (e instanceof TclError && e.line === undefined) {
        e.line = base + cmd.line + 1;
        e.command = cmd.text;
        e.file = this.file;
        e.proc = this.frame.proc;
      }
      throw e;
    }
  }

  /** Substitute a word's parts (variables, commands, backslashes already resolved). */
  async substParts(parts: readonly Part[], base: number): Promise<string> {
    if (parts.length === 1 && parts[0]!.t === 'lit') return parts[0]!.s;
    let out = '';
    for (const p of parts) {
      if (p.t === 'lit') out += p.s;
      else if (p.t === 'cmd') out += await this.eval(p.script, base + p.line);
      else {
        const index = p.index ? await this.substParts(p.index, base) : undefined;
        out += readVar(this.locate(p.name, false).v, p.name, index);
      }
    }
    return out;
  }

  /** Call a command by name with already-substituted words. */
  async call(...args: string[]): Promise<string> {
    const fn = this.commands.get(args[0]!);
    if (!fn) throw new TclError(`invalid command name "${args[0]}"`);
    return fn(args, { interp: this, line: 0, argLines: args.map(() => 0) });
  }

  /**
   * Run a whole script file's text: `return` at top level ends it, and an
   * error keeps the file and line where it happened.
   */
  async evalFile(src: string, file: string | undefined): Promise<string> {
    const saved = this.file;
    this.file = file;
    try {
      return await this.eval(src, 0);
    } catch (e) {
      if (e instanceof TclControl && e.code === 'return') return e.value;
      if (e instanceof TclControl) throw new TclError(`invoked "${e.code}" outside of a loop`);
      throw e;
    } finally {
      this.file = saved;
    }
  }

  // ---- timers (after, vwait, update) -----------------------------------

  schedule(ms: number, script: string): string {
    const id = `after#${this.timerSeq++}`;
    this.timers.push({ id, at: Date.now() + ms, script });
    this.timers.sort((a, b) => a.at - b.at);
    return id;
  }

  cancel(idOrScript: string): void {
    this.timers = this.timers.filter((t) => t.id !== idOrScript && t.script !== idOrScript);
  }

  get pendingTimers(): readonly string[] {
    return this.timers.map((t) => t.id);
  }

  /** Run timers that are due (update); with `wait`, first sleep until the next one is due. */
  async runTimers(wait: boolean): Promise<boolean> {
    const next = this.timers[0];
    if (!next) return false;
    if (wait && next.at > Date.now()) await new Promise((r) => setTimeout(r, next.at - Date.now()));
    const due = this.timers.filter((t) => t.at <= Date.now());
    this.timers = this.timers.filter((t) => t.at > Date.now());
    for (const t of due) await this.atLevel(0, () => this.eval(t.script));
    return true;
  }

  /** vwait: run timers until the variable is written. */
  async vwait(name: string): Promise<void> {
    const v = this.varRef(name, true)!;
    v.written = false;
    while (!v.written) {
      if (!this.timers.length) throw new TclError(`can't wait for variable "${name}": would wait forever`);
      await this.runTimers(true);
    }
  }
}

export { TclControl, TclError, TclExit };
