import { countersFromRows, statementDelta, type Driver, type QuerySession, type StatementCounter } from '@sledge/core';
import { CHANGE_METRICS, type JobStatus, type StatementStatsRecord, type WorkloadConfig } from '@sledge/protocol';
import type { JobContext } from '../../engine/job-context.js';
import { errorText, openReader, rowsOf, settingsStatements } from './engine-sql.js';

/** Statements kept per run: the top N by time in the measured window. */
export const STATEMENT_TOP = 25;

/**
 * Per-statement statistics of a run's measured window where the engine keeps
 * cumulative counters (settings.sql `statement_counters`, after
 * `statements_missing` says they can be read): one snapshot when the job
 * enters its measured window ('measuring', or 'running' for an untimed run),
 * one when it leaves it ('stopping', or the end of the run), the difference
 * stored as metric kind statement-stats (top STATEMENT_TOP by time). Where
 * there are none the job records why ("not available: ..."). Never fails the
 * job.
 */
export class StatementWindow {
  private session: QuerySession | null = null;
  private sql = '';
  private before: Promise<{ at: number; counters: StatementCounter[] } | string> | null = null;
  private done: Promise<void> | null = null;

  private constructor(
    private readonly ctx: JobContext,
    private readonly source: string,
  ) {}

  /** Check the engine's counters and watch the job's status; records "not available" at once when there are none. */
  static async open(ctx: JobContext, cfg: WorkloadConfig, driver: Driver): Promise<StatementWindow> {
    const engine = cfg.target.engine;
    const st = settingsStatements(engine);
    // The record names what its counters come from: the view statement_counters reads (pg_stat_statements, performance_schema's digest summary).
    const view = st?.statement_counters ? /\bFROM\s+([\w.]+)/i.exec(st.statement_counters)?.[1] : undefined;
    const w = new StatementWindow(ctx, view ?? `packages/sql/${engine}/engine/settings.sql`);
    if (!st?.statement_counters) {
      w.unavailable(`${engine} keeps no per-statement counters`);
      return w;
    }
    try {
      w.session = await openReader(cfg, driver, 'statements', (l) => ctx.output(1, l));
      const why = st.statements_missing ? (await rowsOf(w.session, st.statements_missing))[0]?.[0] : null;
      if (typeof why === 'string' && why) {
        w.unavailable(why);
        await w.closeSession();
        return w;
      }
      // One reading now: counters that exist but cannot be read (an extension whose library is not loaded, a missing grant) say so before the run.
      await rowsOf(w.session, st.statement_counters);
      w.sql = st.statement_counters;
    } catch (e) {
      w.unavailable(`the statement counters cannot be read: ${errorText(e)}`);
      await w.closeSession();
      return w;
    }
    ctx.statusListeners.push((s) => w.onStatus(s));
    return w;
  }

  private onStatus(s: JobStatus): void {
    if ((s === 'measuring' || s === 'running') && !this.before && this.session) this.before = this.snapshot();
    else if (s === 'stopping' && this.before) void this.end();
  }

  private async snapshot(): Promise<{ at: number; counters: StatementCounter[] } | string> {
    try {
      const at = Date.now();
      return { at, counters: countersFromRows(await rowsOf(this.session!, this.sql)) };
    } catch (e) {
      return `reading the statement counters failed: ${errorText(e)}`;
    }
  }

  private unavailable(why: string): void {
    const rec: StatementStatsRecord = { ts: Date.now(), source: this.source, windowMs: 0, top: STATEMENT_TOP, statements: [], unavailable: `not available: ${why}` };
    this.ctx.metric(CHANGE_METRICS.statements, [{ ts: rec.ts, data: rec }]);
    this.ctx.output(1, `Statement statistics: ${rec.unavailable}`);
  }

  /** Take the closing snapshot and store the window's statistics (once); called at 'stopping' and when the run ends. */
  end(): Promise<void> {
    this.done ??= this.finish();
    return this.done;
  }

  private async finish(): Promise<void> {
    if (!this.session) return;
    try {
      if (!this.before) return this.unavailable('the run ended before its measured window');
      const b = await this.before;
      const a = await this.snapshot();
      if (typeof b === 'string') return this.unavailable(b);
      if (typeof a === 'string') return this.unavailable(a);
      const statements = statementDelta(b.counters, a.counters, STATEMENT_TOP);
      const now = Date.now();
      const rec: StatementStatsRecord = { ts: now, source: this.source, windowMs: now - b.at, top: STATEMENT_TOP, statements };
      this.ctx.metric(CHANGE_METRICS.statements, [{ ts: rec.ts, data: rec }]);
      this.ctx.output(1, `Statement statistics: ${statements.length} statements ran in the measured window (top ${STATEMENT_TOP} by time kept)`);
    } finally {
      await this.closeSession();
    }
  }

  private async closeSession(): Promise<void> {
    const s = this.session;
    this.session = null;
    await s?.close().catch(() => undefined);
  }
}
