import { geomeanLine, geomeanReturningRows, streamOrder, tprochQueryParams, tprochQueryText, type TprochStream } from '@sledge/core';
import { SledgeError, type TprochQueryTime } from '@sledge/protocol';
import { RunShared, errorText } from './session.js';

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
  queries: TprochQueryTime[];
}

/** Where a query runs: stream, set, its position in the stream's order. */
interface QueryAt {
  stream: number;
  vu: number;
  set: number;
  position: number;
  query: number;
}

/** A client-side guard over the server's statement timeout: cancels the query a second after the timeout. */
function watchdog(sh: RunShared, s: TprochStream): { fired: () => boolean; clear: () => void } {
  const sec = sh.o.queryTimeoutSec;
  let fired = false;
  const t = sec > 0 ? setTimeout(() => ((fired = true), void s.cancel().catch(() => undefined)), sec * 1000 + 1000) : undefined;
  return { fired: () => fired, clear: () => t && clearTimeout(t) };
}

/** Run one query: its lines, its metric frames, its time. Null when a stop cut it short. */
async function runQuery(sh: RunShared, s: TprochStream, at: QueryAt, values: Record<string, string>): Promise<TprochQueryTime | null> {
  const text = tprochQueryText(sh.sql, at.query, values);
  const where = { stream: at.stream, set: at.set, query: at.query, position: at.position };
  sh.line(at.vu, `Executing Query ${at.query} (${at.position} of 22)`);
  if (sh.o.verbose) for (const st of text.statements) sh.line(at.vu, st.sql);
  sh.metric('tproch-query', { ...where, phase: 'start' });
  const t0 = performance.now();
  const dog = watchdog(sh, s);
  try {
    const r = await s.query(text, { fetch: sh.o.verbose });
    const seconds = r.ms / 1000;
    sh.line(at.vu, `query ${at.query} completed in ${seconds.toFixed(3)} seconds`);
    if (sh.o.verbose) sh.line(at.vu, `${r.rows} rows returned${r.data ? `: ${JSON.stringify(r.data.slice(0, 20))}` : ''}`);
    sh.metric('tproch-query', { ...where, phase: 'end', seconds, rows: r.rows });
    return { ...where, seconds, rows: r.rows };
  } catch (e) {
    if (sh.halted) return null;
    const seconds = (performance.now() - t0) / 1000;
    const error = dog.fired() ? `query timed out after ${sh.o.queryTimeoutSec} s (${errorText(e)})` : errorText(e);
    sh.line(at.vu, `Error in query ${at.query}: ${error}`);
    sh.metric('tproch-query', { ...where, phase: 'end', seconds, rows: 0, error });
    if (sh.o.raiseQueryError) throw new SledgeError('SLEDGE_E_DB', `query ${at.query} of stream ${at.stream} failed: ${error}`);
    return { ...where, seconds, rows: 0, error };
  } finally {
    dog.clear();
  }
}

/** One query set: the 22 queries in the stream's Appendix A order, parameters drawn first. Null when stopped part way. */
async function runSet(sh: RunShared, s: TprochStream, stream: number, vu: number, set: number): Promise<TprochQueryTime[] | null> {
  const params = tprochQueryParams({ seed: sh.cfg.seed, stream, set, scaleFactor: sh.o.scaleFactor, validation: sh.o.validation });
  const times: TprochQueryTime[] = [];
  const order = streamOrder(stream);
  for (let i = 0; i < order.length; i++) {
    if (sh.halted) return null;
    const q = order[i]!;
    const t = await runQuery(sh, s, { stream, vu, set, position: i + 1, query: q }, params[q]!);
    if (!t) return null;
    times.push(t);
  }
  return times;
}

/**
 * A query stream on its own session: querySets sets, HammerDB's lines after
 * each ("Completed n query set(s) in W seconds", the geometric mean of the
 * set's queries that returned rows). `before`/`after` run on the same
 * session around the sets (the power test's RF1 and RF2).
 */
export async function runQueryStream(
  sh: RunShared,
  stream: number,
  vu: number,
  around: { before?: (s: TprochStream) => Promise<void>; after?: (s: TprochStream) => Promise<void>; session?: TprochStream } = {},
): Promise<StreamOutcome> {
  const s = around.session ?? (await sh.open(stream, vu));
  const out: StreamOutcome = { stream, vu, seconds: 0, startedAt: Date.now(), endedAt: 0, completedSets: 0, geomean: 0, queriesReturningRows: 0, queries: [] };
  try {
    if (around.before && !sh.halted) await around.before(s);
    const t0 = performance.now();
    for (let set = 1; set <= sh.o.querySets && !sh.halted; set++) {
      const times = await runSet(sh, s, stream, vu, set);
      if (!times) break;
      out.queries.push(...times);
      out.completedSets = set;
      out.seconds = Math.round((performance.now() - t0) / 1000);
      const g = geomeanReturningRows(times);
      Object.assign(out, { geomean: g.geomean, queriesReturningRows: g.count });
      sh.line(vu, `Completed ${set} query set(s) in ${out.seconds} seconds`);
      sh.line(vu, geomeanLine(g));
    }
    if (around.after && !sh.halted) await around.after(s);
    return out;
  } catch (e) {
    sh.fail(e);
    throw e;
  } finally {
    out.endedAt = Date.now();
    if (!around.session) await sh.close(s);
  }
}
