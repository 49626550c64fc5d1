import { geomeanLine, geomeanReturningRows, type StreamSession, type StreamWorkload } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import type { JobContext } from '../engine/job-context.js';
import type { StopToken } from '../engine/stop.js';

/**
 * The stream shape's runner: query streams of any stream workload
 * (core/src/shapes/stream.ts), each on its own session, pass after pass.
 * It opens and closes the sessions, asks the workload for each pass's
 * queries, runs and times them (with a client-side guard over the server's
 * statement timeout), writes HammerDB's lines and a metric frame per query,
 * and cancels what runs when the job stops, a stream fails with
 * raiseQueryError, or its owner halts it (the end of a measured window).
 * Workload-neutral: TPROC-H's power and throughput tests and CH-benCHmark's
 * analytic streams are built on it.
 */

/** One query as a stream ran it. */
export interface QueryRecord {
  stream: number;
  set: number;
  query: number;
  /** Position in the pass, 1-based. */
  position: number;
  seconds: number;
  rows: number;
  /** Epoch ms when the timed statement was sent. */
  startedAt: number;
  /** CPU seconds the process used while the query ran, from sessions that report it (in-process engines). */
  cpuSeconds?: number;
  error?: string;
}

/** A stream's outcome: HammerDB's per-VU figures and every query it ran. */
export interface StreamOutcome {
  stream: number;
  vu: number;
  /** Whole seconds of its query sets. */
  seconds: number;
  /** ms, wall clock. */
  startedAt: number;
  endedAt: number;
  completedSets: number;
  geomean: number;
  queriesReturningRows: number;
  queries: QueryRecord[];
}

/** What a stream run needs besides the job. */
export interface StreamRunConfig<Options, S extends StreamSession> {
  workload: StreamWorkload<Options>;
  options: Options;
  seed: number;
  /** The engine's query statements by name (packages/sql/<engine>/<workload.sqlArea>/<workload.sqlFile>). */
  sql: Readonly<Record<string, string>>;
  /** Server-side statement timeout (s); 0 = none. The client cancels a second after it. */
  queryTimeoutSec: number;
  /** A failed query fails the run (and ends the other streams) instead of being recorded. */
  raiseQueryError: boolean;
  /** Each query's text and rows in the output. */
  verbose: boolean;
  /** Kind of each query's start/end metric frames, e.g. 'tproch-query'. */
  metricKind: string;
  /**
   * Kind of the metric frame holding each query's engine profile (operator
   * timings), e.g. 'tproch-profile'; absent: no profile is asked for. Only
   * sessions that profile (`StreamSession.profiles`) give one.
   */
  profileMetricKind?: string;
  /** Opens stream `stream`'s session, logging to `log`. */
  open(stream: number, log: (text: string) => void): Promise<S>;
}

/** Where a query runs. */
interface QueryAt {
  stream: number;
  vu: number;
  set: number;
  position: number;
  query: number;
}

/** How a stream runs: how many passes (Infinity: until halted), what runs around them, on which session. */
export interface StreamPlan<S> {
  sets: number;
  before?: (s: S) => Promise<void>;
  after?: (s: S) => Promise<void>;
  /** Run on this session (the caller's) instead of opening one. */
  session?: S;
  /** Fetch each query's rows and hand them here after it ends (TPROC-H's answer check); the rows are not kept. */
  onRows?: (q: { set: number; query: number }, rows: unknown[][]) => void;
}

/** A message of a thrown value (driver errors are SledgeErrors). */
export function errorText(e: unknown): string {
  if (SledgeError.is(e)) return (e as SledgeError).message;
  return e instanceof Error ? e.message : String(e);
}

export class StreamRun<Options, S extends StreamSession> {
  private readonly sessions = new Set<S>();
  /** Set when a stream failed with raiseQueryError: the others end too. */
  private failure: unknown = null;
  private haltedByOwner = false;

  constructor(
    readonly ctx: JobContext,
    readonly stop: StopToken,
    private readonly cfg: StreamRunConfig<Options, S>,
  ) {
    stop.onStop(() => this.cancelAll());
  }

  /** The workload's options for this run. */
  get o(): Options {
    return this.cfg.options;
  }

  get seed(): number {
    return this.cfg.seed;
  }

  get sql(): Readonly<Record<string, string>> {
    return this.cfg.sql;
  }

  /** Stop requested, a stream failed, or the owner halted the streams: streams end before their next query. */
  get halted(): boolean {
    return this.stop.requested || this.failure !== null || this.haltedByOwner;
  }

  get failed(): unknown {
    return this.failure;
  }

  /** A stream failed (raiseQueryError): record it and cancel what the others run. */
  fail(e: unknown): void {
    this.failure ??= e;
    this.cancelAll();
  }

  /** End every stream now (the end of the measured window): what runs is cancelled and not recorded. */
  halt(): void {
    this.haltedByOwner = true;
    this.cancelAll();
  }

  private cancelAll(): void {
    for (const s of this.sessions) s.cancel().catch(() => undefined);
  }

  /** One session for a stream; `vu` is the output VU its lines go to. */
  async open(stream: number, vu: number): Promise<S> {
    const s = await this.cfg.open(stream, (text) => this.ctx.output(vu, text));
    this.sessions.add(s);
    if (this.halted) await s.cancel().catch(() => undefined);
    return s;
  }

  async close(s: S): Promise<void> {
    this.sessions.delete(s);
    await s.close().catch(() => undefined);
  }

  /** A metric frame (stored and streamed). */
  metric(kind: string, data: Record<string, unknown>): void {
    this.ctx.metric(kind, [{ ts: Date.now(), data }]);
  }

  line(vu: number, text: string): void {
    this.ctx.output(vu, text);
  }

  /** A client-side guard over the server's statement timeout: cancels the query a second after the timeout. */
  private watchdog(s: S): { fired: () => boolean; clear: () => void } {
    const sec = this.cfg.queryTimeoutSec;
    let fired = false;
    const t = sec > 0 ? setTimeout(() => ((fired = true), void s.cancel().catch(() => undefined)), sec * 1000 + 1000) : undefined;
    return { fired: () => fired, clear: () => t && clearTimeout(t) };
  }

  /** Run one query: its lines, its metric frames, its record. Null when a stop or a halt cut it short. */
  private async runQuery(s: S, at: QueryAt, text: Parameters<S['query']>[0], onRows?: StreamPlan<S>['onRows']): Promise<QueryRecord | null> {
    const where = { stream: at.stream, set: at.set, query: at.query, position: at.position };
    const total = this.cfg.workload.queries.length;
    this.line(at.vu, `Executing Query ${at.query} (${at.position} of ${total})`);
    if (this.cfg.verbose) for (const st of text.statements) this.line(at.vu, st.sql);
    this.metric(this.cfg.metricKind, { ...where, phase: 'start' });
    const startedAt = Date.now();
    const t0 = performance.now();
    const dog = this.watchdog(s);
    try {
      const profileKind = s.profiles ? this.cfg.profileMetricKind : undefined;
      const r = await s.query(text, { fetch: this.cfg.verbose || onRows !== undefined, ...(profileKind ? { profile: true } : {}) });
      if (this.haltedByOwner && !this.stop.requested) return null;
      const seconds = r.ms / 1000;
      const cpu = r.cpuSeconds !== undefined ? { cpuSeconds: r.cpuSeconds } : {};
      this.line(at.vu, `query ${at.query} completed in ${seconds.toFixed(3)} seconds`);
      if (this.cfg.verbose) this.line(at.vu, `${r.rows} rows returned${r.data ? `: ${JSON.stringify(r.data.slice(0, 20))}` : ''}`);
      this.metric(this.cfg.metricKind, { ...where, phase: 'end', seconds, rows: r.rows, ...cpu });
      if (profileKind && r.profile) this.metric(profileKind, { ...where, profile: r.profile });
      onRows?.({ set: at.set, query: at.query }, r.data ?? []);
      return { ...where, seconds, rows: r.rows, startedAt, ...cpu };
    } catch (e) {
      if (this.halted) return null;
      const seconds = (performance.now() - t0) / 1000;
      const error = dog.fired() ? `query timed out after ${this.cfg.queryTimeoutSec} s (${errorText(e)})` : errorText(e);
      this.line(at.vu, `Error in query ${at.query}: ${error}`);
      this.metric(this.cfg.metricKind, { ...where, phase: 'end', seconds, rows: 0, error });
      if (this.cfg.raiseQueryError) throw new SledgeError('SLEDGE_E_DB', `query ${at.query} of stream ${at.stream} failed: ${error}`);
      return { ...where, seconds, rows: 0, startedAt, error };
    } finally {
      dog.clear();
    }
  }

  /** One pass: the workload's queries for (stream, set), in its order. Null when stopped part way. */
  private async runSet(s: S, stream: number, vu: number, set: number, onQuery?: (q: QueryRecord) => void, onRows?: StreamPlan<S>['onRows']): Promise<QueryRecord[] | null> {
    const planned = this.cfg.workload.querySet({ seed: this.cfg.seed, options: this.cfg.options, stream, set, sql: this.cfg.sql });
    const times: QueryRecord[] = [];
    for (const p of planned) {
      if (this.halted) return null;
      const t = await this.runQuery(s, { stream, vu, set, position: p.position, query: p.text.query }, p.text, onRows);
      if (!t) return null;
      times.push(t);
      onQuery?.(t);
    }
    return times;
  }

  /**
   * A query stream on its own session: `plan.sets` passes (Infinity: until
   * halted), HammerDB's lines after each ("Completed n query set(s) in W
   * seconds", the geometric mean of the pass's queries that returned rows).
   * `before`/`after` run on the same session around the passes (TPROC-H's
   * RF1 and RF2 in the power test). `onQuery` sees each query as it ends.
   */
  async runStream(stream: number, vu: number, plan: StreamPlan<S>, onQuery?: (q: QueryRecord) => void): Promise<StreamOutcome> {
    const s = plan.session ?? (await this.open(stream, vu));
    const out: StreamOutcome = { stream, vu, seconds: 0, startedAt: Date.now(), endedAt: 0, completedSets: 0, geomean: 0, queriesReturningRows: 0, queries: [] };
    try {
      if (plan.before && !this.halted) await plan.before(s);
      const t0 = performance.now();
      for (let set = 1; set <= plan.sets && !this.halted; set++) {
        const times = await this.runSet(s, stream, vu, set, (q) => (out.queries.push(q), onQuery?.(q)), plan.onRows);
        if (!times) break;
        out.completedSets = set;
        out.seconds = Math.round((performance.now() - t0) / 1000);
        const g = geomeanReturningRows(times);
        Object.assign(out, { geomean: g.geomean, queriesReturningRows: g.count });
        this.line(vu, `Completed ${set} query set(s) in ${out.seconds} seconds`);
        this.line(vu, geomeanLine(g));
      }
      if (plan.after && !this.halted) await plan.after(s);
      return out;
    } catch (e) {
      this.fail(e);
      throw e;
    } finally {
      out.endedAt = Date.now();
      if (!plan.session) await this.close(s);
    }
  }
}
