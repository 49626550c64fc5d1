import type { Script, ScriptCommand, SqlStatement } from './parse.js';
import { evaluate, type EvalContext } from './eval.js';
import type { ScriptRandom } from './dists.js';
import { ScriptRuntimeError } from './errors.js';
import { bindValue, fromText, type BindValue, type ScriptValue } from './values.js';
import type { ScriptFeedPlan, ScriptFeedSink } from './feed.js';

/** One result row: column name (as the engine reports it) to value. */
export type ScriptRow = Record<string, unknown>;

/**
 * What a script client needs from its session: run one statement with its
 * bound parameters (rows back when asked), transaction control the engine's
 * way, and a sleep that a stop cuts short. The driver renders the statement
 * in its placeholder syntax (renderStatement).
 */
export interface ScriptIo {
  query(st: SqlStatement, params: BindValue[], wantRows: boolean): Promise<ScriptRow[]>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  sleep(ms: number): Promise<void>;
  debug(line: string): void;
  /** Start a pipeline (`\startpipeline`); absent on engines without one (the job is refused before it runs). */
  startPipeline?(): ScriptPipeline;
}

/** An open pipeline: statements go out without waiting; `sync` is pgbench's `\syncpipeline`, `end` its `\endpipeline` (a Sync each). */
export interface ScriptPipeline {
  query(st: SqlStatement, params: BindValue[]): void;
  tx(kind: 'begin' | 'commit' | 'rollback'): void;
  /** A Sync, the pipeline going on: the implicit transaction so far ends; an error before it skips statements only up to it. */
  sync(): void;
  /** Waits for every statement sent; throws the first error (the server skipped the rest). */
  end(): Promise<void>;
}

/** pgbench's automatic variables for one client. */
export interface ClientVars {
  /** 0-based client number (pgbench's :client_id). */
  clientId: number;
  /** The schema's scale (pgbench's :scale: branches in pgbench_branches). */
  scale: number;
  /** Seed of the hash and permute functions (pgbench's :default_seed). */
  defaultSeed: bigint;
  /** The run's random seed (pgbench's :random_seed). */
  randomSeed: bigint;
}

/** A database value from \gset/\aset as a variable: integers stay exact. */
function fromDb(v: unknown): ScriptValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === 'string') return v;
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

const SLEEP_MS = { us: 0.001, ms: 1, s: 1000 } as const;

/**
 * One pgbench client: its variables (kept from script to script, as in
 * pgbench) and its random source; `run` executes one script once.
 */
export class ScriptClient {
  readonly vars = new Map<string, ScriptValue>();
  private inTx = false;
  private pipe: ScriptPipeline | undefined;

  constructor(private readonly rand: ScriptRandom, auto: ClientVars) {
    this.vars.set('client_id', BigInt(auto.clientId));
    this.vars.set('scale', BigInt(auto.scale));
    this.vars.set('default_seed', auto.defaultSeed);
    this.vars.set('random_seed', auto.randomSeed);
  }

  /** Run the script once. A database error rolls back an open transaction and throws. */
  async run(script: Script, io: ScriptIo): Promise<void> {
    try {
      await this.exec(script, io);
      if (this.pipe) {
        const line = script.commands.at(-1)?.line ?? 1;
        await this.endPipeline();
        throw new ScriptRuntimeError(script.name, line, 'the script ended inside a pipeline (\\startpipeline without \\endpipeline)');
      }
      if (this.inTx) throw new ScriptRuntimeError(script.name, script.commands.at(-1)?.line ?? 1, 'the script ended inside a transaction (BEGIN without COMMIT/END)');
    } catch (e) {
      // a pipeline left open by an error (e.g. in \set) is ended first: its Sync puts the connection back in step
      if (this.pipe) await this.endPipeline().catch(() => undefined);
      if (this.inTx) {
        this.inTx = false;
        await io.rollback().catch(() => undefined);
      }
      throw e;
    }
  }

  /**
   * Evaluate the script once without a database (feed.ts): its statements
   * and parameters go to `sink` in order, as run() would send them. Only for
   * scripts notFeedable() accepts (no \gset/\aset, \sleep or pipeline).
   * Returns the message run() would have thrown (an interpreter error, or
   * the script ending inside a transaction), after the steps sent before it;
   * the caller then rolls back an open transaction, as run() does.
   */
  runAhead(script: Script, plan: ScriptFeedPlan, sink: ScriptFeedSink, debug: (line: string) => void): string | undefined {
    const io = this.aheadIo(debug);
    let inTx = false;
    try {
      const cmds = script.commands;
      let i = 0;
      let entering = false;
      while (i < cmds.length) {
        const c = cmds[i]!;
        const enter = entering;
        entering = false;
        switch (c.k) {
          case 'set': this.vars.set(c.name, evaluate(c.expr, this.ctx(script, c, io))); i++; break;
          case 'sql':
            for (const st of c.statements) {
              if (st.kind !== 'sql') { sink.control(st.kind); inTx = st.kind === 'begin'; continue; }
              const params = this.params(script, c.line, st);
              const text = new Array<string | null>(params.length);
              for (let k = 0; k < params.length; k++) { const v = params[k]!; text[k] = v === null ? null : String(v); }
              sink.sql(plan.indexOf(st), text);
            }
            i++;
            break;
          case 'if': case 'elif':
            if (c.k === 'elif' && !enter) { i = c.end + 1; break; }
            if (this.truthy(script, c, io)) i++;
            else { i = c.next; entering = true; }
            break;
          case 'else': i = enter ? i + 1 : c.end + 1; break;
          case 'endif': i++; break;
          default: throw new ScriptRuntimeError(script.name, c.line, `\\${c.k} cannot be evaluated ahead (the script runs in JavaScript)`);
        }
      }
      if (inTx) throw new ScriptRuntimeError(script.name, script.commands.at(-1)?.line ?? 1, 'the script ended inside a transaction (BEGIN without COMMIT/END)');
      return undefined;
    } catch (e) {
      if (e instanceof ScriptRuntimeError) return e.message;
      throw e;
    }
  }

  private ahead: { debug: (line: string) => void; io: ScriptIo } | undefined;

  /** The io runAhead's evaluation contexts carry: only debug() is used (no statement runs through it). */
  private aheadIo(debug: (line: string) => void): ScriptIo {
    if (this.ahead?.debug === debug) return this.ahead.io;
    const none = (): never => { throw new Error('runAhead sends no statement through its io'); };
    const io: ScriptIo = { query: none, begin: none, commit: none, rollback: none, sleep: none, debug };
    this.ahead = { debug, io };
    return io;
  }

  /** Each command's evaluation context, made once per client (and io): a \set runs without allocating one. */
  private readonly ctxs = new WeakMap<object, { io: ScriptIo; ctx: EvalContext }>();

  private ctx(script: Script, c: ScriptCommand, io: ScriptIo): EvalContext {
    const hit = this.ctxs.get(c);
    if (hit?.io === io) return hit.ctx;
    const line = c.line;
    const ctx: EvalContext = {
      vars: this.vars,
      rand: this.rand,
      debug: (l) => io.debug(`${script.name}:${line}: ${l}`),
      fail: (m) => { throw new ScriptRuntimeError(script.name, line, m); },
    };
    this.ctxs.set(c, { io, ctx });
    return ctx;
  }

  private async exec(script: Script, io: ScriptIo): Promise<void> {
    const cmds = script.commands;
    let i = 0;
    let entering = false;
    while (i < cmds.length) {
      const c = cmds[i]!;
      const enter = entering;
      entering = false;
      switch (c.k) {
        case 'set': this.vars.set(c.name, evaluate(c.expr, this.ctx(script, c, io))); i++; break;
        case 'sleep': await io.sleep(this.sleepMs(script, c)); i++; break;
        case 'sql': await this.sql(script, c, io); i++; break;
        case 'if': case 'elif':
          if (c.k === 'elif' && !enter) { i = c.end + 1; break; }
          if (this.truthy(script, c, io)) i++;
          else { i = c.next; entering = true; }
          break;
        case 'else': i = enter ? i + 1 : c.end + 1; break;
        case 'endif': i++; break;
        case 'pipeline':
          if (c.op === 'start') {
            if (this.pipe) throw new ScriptRuntimeError(script.name, c.line, '\\startpipeline: already in a pipeline');
            if (!io.startPipeline) throw new ScriptRuntimeError(script.name, c.line, 'pipelines are not supported on this engine');
            this.pipe = io.startPipeline();
          } else if (c.op === 'sync') {
            if (!this.pipe) throw new ScriptRuntimeError(script.name, c.line, '\\syncpipeline: not in a pipeline');
            this.pipe.sync();
          } else {
            if (!this.pipe) throw new ScriptRuntimeError(script.name, c.line, '\\endpipeline: not in a pipeline');
            await this.endPipeline();
          }
          i++;
          break;
      }
    }
  }

  /**
   * pgbench's \endpipeline: a Sync, then every statement's result. On an
   * error the server skipped the rest up to the next Sync (\syncpipeline or
   * this one) and ran what came after it; the script counts one error
   * however many parts failed, as pgbench 17 counts one failed transaction.
   * A transaction the pipeline opened (or one it meant to COMMIT) may be left
   * aborted, so the client rolls back as for any failed script.
   */
  private async endPipeline(): Promise<void> {
    const p = this.pipe!;
    this.pipe = undefined;
    try {
      await p.end();
    } catch (e) {
      this.inTx = true;
      throw e;
    }
  }

  private truthy(script: Script, c: ScriptCommand & { k: 'if' | 'elif' }, io: ScriptIo): boolean {
    const ctx = this.ctx(script, c, io);
    const v = evaluate(c.expr, ctx);
    if (v === null || typeof v === 'boolean') return v === true;
    const n = typeof v === 'string' ? fromText(v, ctx.fail) : v;
    return typeof n === 'bigint' ? n !== 0n : n !== 0;
  }

  private sleepMs(script: Script, c: ScriptCommand & { k: 'sleep' }): number {
    let n: number;
    if ('v' in c.arg) n = c.arg.v;
    else {
      const v = this.vars.get(c.arg.name);
      if (v === undefined) throw new ScriptRuntimeError(script.name, c.line, `undefined variable "${c.arg.name}" in \\sleep`);
      const t = typeof v === 'string' ? fromText(v, (m) => { throw new ScriptRuntimeError(script.name, c.line, m); }) : v;
      if (typeof t !== 'bigint') throw new ScriptRuntimeError(script.name, c.line, `\\sleep needs an integer, not ${String(t)}`);
      n = Number(t);
    }
    return Math.max(0, n * SLEEP_MS[c.unit]);
  }

  private params(script: Script, line: number, st: SqlStatement): BindValue[] {
    const names = st.vars;
    const out = new Array<BindValue>(names.length);
    for (let i = 0; i < names.length; i++) {
      const v = this.vars.get(names[i]!);
      if (v === undefined) throw new ScriptRuntimeError(script.name, line, `undefined variable "${names[i]}"`);
      out[i] = bindValue(v);
    }
    return out;
  }

  private async sql(script: Script, c: ScriptCommand & { k: 'sql' }, io: ScriptIo): Promise<void> {
    const last = c.statements.length - 1;
    const pipe = this.pipe;
    if (pipe) {
      if (c.store) throw new ScriptRuntimeError(script.name, c.line, `\\${c.store.mode} is not allowed in a pipeline`);
      for (const st of c.statements) {
        if (st.kind === 'sql') pipe.query(st, this.params(script, c.line, st));
        else {
          pipe.tx(st.kind);
          this.inTx = st.kind === 'begin';
        }
      }
      return;
    }
    for (let k = 0; k <= last; k++) {
      const st = c.statements[k]!;
      if (st.kind !== 'sql') { await this.tx(st.kind, io); continue; }
      const store = c.store && (c.store.mode === 'aset' || k === last) ? c.store : undefined;
      const rows = await io.query(st, this.params(script, c.line, st), store !== undefined);
      if (!store) continue;
      if (store.mode === 'gset' && rows.length !== 1) {
        throw new ScriptRuntimeError(script.name, c.line, `\\gset expects one row, the query returned ${rows.length}`);
      }
      for (const row of rows) for (const [col, v] of Object.entries(row)) this.vars.set(store.prefix + col, fromDb(v));
    }
  }

  private async tx(kind: 'begin' | 'commit' | 'rollback', io: ScriptIo): Promise<void> {
    if (kind === 'begin') { await io.begin(); this.inTx = true; return; }
    this.inTx = false;
    await (kind === 'commit' ? io.commit() : io.rollback());
  }
}
