import { tprochHooks, type Driver, type TprochStream } from '@sledge/core';
import { sqlSet } from '@sledge/sql';
import { SledgeError, type TprochJobConfig, type TprochOptions } from '@sledge/protocol';
import type { JobContext } from '../../engine/job-context.js';
import type { StopToken } from '../../engine/stop.js';

/** What every stream of one TPROC-H run shares. */
export class RunShared {
  /** The queries.sql statements of the engine (q1..q22, q15_view/q15_drop where used). */
  readonly sql: Readonly<Record<string, string>>;
  private readonly sessions = new Set<TprochStream>();
  /** Set when a stream failed with raiseQueryError: the others end too. */
  private failure: unknown = null;

  constructor(
    readonly ctx: JobContext,
    readonly cfg: TprochJobConfig,
    /** The options with the scale factor the schema has (auto-corrected). */
    readonly o: TprochOptions,
    private readonly driver: Driver,
    readonly stop: StopToken,
  ) {
    this.sql = sqlSet(cfg.target.engine, 'tproch').statements('queries.sql');
    stop.onStop(() => this.cancelAll());
  }

  /** Stop requested or another stream failed: streams end before their next query. */
  get halted(): boolean {
    return this.stop.requested || this.failure !== null;
  }

  get failed(): unknown {
    return this.failure;
  }

  /** A stream failed (raiseQueryError): record it and cancel what the others run. */
  fail(e: unknown): void {
    this.failure ??= e;
    this.cancelAll();
  }

  private cancelAll(): void {
    for (const s of this.sessions) s.cancel().catch(() => undefined);
  }

  /** One session for a stream; `vu` is the HammerDB VU number its lines go to. */
  async open(stream: number, vu: number): Promise<TprochStream> {
    const s = await tprochHooks(this.driver).openStream(this.cfg.target, {
      stream,
      dop: this.o.dop,
      queryTimeoutSec: this.o.queryTimeoutSec,
      log: (text) => this.ctx.output(vu, text),
    });
    this.sessions.add(s);
    if (this.halted) await s.cancel().catch(() => undefined);
    return s;
  }

  async close(s: TprochStream): Promise<void> {
    this.sessions.delete(s);
    await s.close().catch(() => undefined);
  }

  /** A `tproch-*` metric frame (stored and streamed). */
  metric(kind: 'tproch-query' | 'tproch-refresh' | 'tproch-plan', data: Record<string, unknown>): void {
    this.ctx.metric(kind, [{ ts: Date.now(), data }]);
  }

  line(vu: number, text: string): void {
    this.ctx.output(vu, text);
  }
}

/** A message of a thrown value (driver errors are SledgeErrors). */
export function errorText(e: unknown): string {
  if (SledgeError.is(e)) return (e as SledgeError).message;
  return e instanceof Error ? e.message : String(e);
}
