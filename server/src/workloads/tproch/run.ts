import { tprochOldSalesKeys, tprochQueryParams, tprochQueryText, type Driver, type TprochStream } from '@sledge/core';
import { SledgeError, defaultStreams, type TprochOptions, type TprochResult, type TprochJobConfig, type Validity } from '@sledge/protocol';
import type { JobBody, JobEnv } from '../../engine/job-types.js';
import { engineName, sfText, withAdmin } from './common.js';
import { firstFreeUpdate, newSales, oldSales, runRefreshStream } from './refresh.js';
import { answerCheck, answerSkipReason } from './answers.js';
import { performanceResult, powerResult, throughputResult, type PowerOutcome, type ThroughputOutcome } from './result.js';
import { tprochRun, type TprochRun } from './session.js';
import { errorText, type StreamOutcome } from '../../runner/streams.js';

/** The run's options with the schema's scale factor: HammerDB auto-corrects a configured SF that does not match count(supplier)/10000, saying so. */
async function settleOptions(env: JobEnv<TprochJobConfig>): Promise<TprochOptions> {
  const cfg = env.cfg;
  return withAdmin(env, async (admin, mon) => {
    const state = await admin.schemaState();
    if (!state.exists || !(state.scaleFactor > 0)) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', 'there is no TPROC-H schema on the target: build one first (job type "build")', { field: 'target' });
    }
    const o = { ...cfg.tproch };
    if (state.scaleFactor !== o.scaleFactor) {
      mon(`Scale factor ${o.scaleFactor} does not match the schema's (count(supplier)/10000 = ${state.scaleFactor}): setting the scale factor to ${state.scaleFactor}`);
      o.scaleFactor = state.scaleFactor;
    }
    if (o.mode !== 'power' && !o.streams) o.streams = defaultStreams(o.scaleFactor);
    return o;
  });
}

/**
 * EXPLAIN of each query with the first stream's set-1 parameters, stored as
 * `tproch-plan` metrics (before the measured test) with the query text it
 * explains (every statement of it: Q15's view, select and drop where the
 * engine uses a view), so the plan is read beside its SQL.
 */
async function explainAll(sh: TprochRun, s: TprochStream, stream: number, vu: number): Promise<void> {
  const params = tprochQueryParams({ seed: sh.seed, stream, set: 1, scaleFactor: sh.o.scaleFactor, validation: sh.o.validation });
  let n = 0;
  for (let q = 1; q <= 22 && !sh.halted; q++) {
    try {
      const text = tprochQueryText(sh.sql, q, params[q]!);
      const plan = await s.explain(text);
      sh.metric('tproch-plan', { query: q, plan, sql: text.statements.map((st) => st.sql.trim().replace(/;$/, '')).join(';\n\n') });
      n++;
    } catch (e) {
      if (sh.halted) return;
      sh.line(vu, `EXPLAIN of query ${q} failed: ${errorText(e)}`);
    }
  }
  sh.line(vu, `Stored the plans of ${n} of 22 queries`);
}

/**
 * Power test (one session, VU 1): RF1 (with refresh), the 22 queries in
 * Appendix A row 0 order, RF2. With `validation` each query's rows go to the
 * answer check (answers.ts) as it ends.
 */
async function powerTest(sh: TprochRun): Promise<{ outcome: PowerOutcome; validity?: Validity } | null> {
  const s = await sh.open(0, 1);
  try {
    if (sh.o.explain) await explainAll(sh, s, 0, 1);
    const update = sh.o.refresh || sh.o.validation ? await firstFreeUpdate(sh, s) : 0;
    if (sh.o.refresh) sh.line(1, `Power test refresh functions use update set ${update}`);
    const answers = sh.o.validation ? answerCheck(answerSkipReason(sh.o, update - 1)) : null;
    const rf: { rf1: number | null; rf2: number | null } = { rf1: null, rf2: null };
    sh.ctx.status('measuring');
    const t0 = performance.now();
    const out = await sh.runStream(0, 1, {
      sets: sh.o.querySets,
      session: s,
      ...(sh.o.refresh
        ? { before: async (x) => void (rf.rf1 = await newSales(sh, x, 1, 0, update, 0)), after: async (x) => void (rf.rf2 = await oldSales(sh, x, 1, 0, update, 0)) }
        : {}),
      ...(answers ? { onRows: answers.onRows } : {}),
    });
    const elapsed = (performance.now() - t0) / 1000;
    if (sh.halted) return null;
    const orders = sh.o.refresh ? tprochOldSalesKeys(sh.o.scaleFactor, update).length : 0;
    const refresh = sh.o.refresh && rf.rf1 !== null && rf.rf2 !== null ? { update, rf1Seconds: rf.rf1, rf2Seconds: rf.rf2, orders } : null;
    const validity = answers?.verdict(out.queries);
    if (validity) {
      // Status after the title: "PASS: <text>" would read as a password to the output's secret redaction.
      for (const c of validity.checks) sh.line(1, `Validity check ${c.title}: ${c.status.toUpperCase()} - ${c.detail}`);
      const n = (st: string) => validity.checks.filter((c) => c.status === st).length;
      sh.line(1, `Validity verdict: ${validity.status.toUpperCase()} (${n('pass')} passed, ${n('warn')} warned, ${n('fail')} failed, ${n('skip')} skipped)`);
    }
    return { outcome: { stream: out, refresh, elapsed }, ...(validity ? { validity } : {}) };
  } finally {
    await sh.close(s);
  }
}

/**
 * Throughput test: S query streams, each on its own session and Appendix A
 * row (stream s uses row s; with refresh, VU 1 runs the refresh stream and
 * stream s is VU s+1), plus the refresh stream. Ts runs from the first
 * stream's start to the last stream's end. In a performance test the plans
 * were stored by its power test.
 */
async function throughputTest(sh: TprochRun): Promise<ThroughputOutcome | null> {
  const S = sh.o.streams ?? defaultStreams(sh.o.scaleFactor);
  const vuOf = (s: number) => (sh.o.refresh ? s + 1 : s);
  const rs = await sh.open(S + 1, 1);
  try {
    if (sh.o.explain && sh.o.mode === 'throughput') await explainAll(sh, rs, 1, 1);
    const first = sh.o.refresh ? await firstFreeUpdate(sh, rs) : 0;
    sh.line(1, `Throughput test: ${S} query stream(s)${sh.o.refresh ? `, refresh stream from update set ${first}` : ''}`);
    sh.ctx.status('measuring');
    const t0 = Date.now();
    const jobs: Promise<unknown>[] = Array.from({ length: S }, (_, i) => sh.runStream(i + 1, vuOf(i + 1), { sets: sh.o.querySets }));
    if (sh.o.refresh) jobs.push(runRefreshStream(sh, rs, S + 1, first));
    const settled = await Promise.allSettled(jobs);
    const bad = settled.find((x) => x.status === 'rejected');
    if (bad) throw (bad as PromiseRejectedResult).reason;
    if (sh.halted) return null;
    const streams = settled.slice(0, S).map((x) => (x as PromiseFulfilledResult<StreamOutcome>).value);
    const refresh = sh.o.refresh ? (settled[S] as PromiseFulfilledResult<Awaited<ReturnType<typeof runRefreshStream>>>).value : null;
    const end = Math.max(...streams.map((x) => x.endedAt), refresh?.endedAt ?? 0);
    return { streams, refreshes: refresh?.refreshes ?? [], elapsed: (end - t0) / 1000 };
  } finally {
    await sh.close(rs);
  }
}

/** The test the options ask for: power, throughput, or power then throughput (performance). Null when stopped. */
async function runTest(sh: TprochRun): Promise<TprochResult | null> {
  if (sh.o.mode === 'throughput') {
    const t = await throughputTest(sh);
    return t && throughputResult(sh, t);
  }
  const p = await powerTest(sh);
  if (!p) return null;
  if (sh.o.mode === 'power') return powerResult(sh, p.outcome, p.validity);
  sh.line(1, `Power test done in ${p.outcome.elapsed.toFixed(3)} seconds: starting the throughput test`);
  const t = await throughputTest(sh);
  return t && performanceResult(sh, p.outcome, t, p.validity);
}

const TEST_NAMES: Record<TprochOptions['mode'], string> = { power: 'power test', throughput: 'throughput test', performance: 'performance test (power test, then throughput test)' };

/** The scores' line: Sledge's names, per hour at the scale factor. */
function scoresText(r: TprochResult): string {
  const m = [
    r.powerAtSize !== undefined ? `power score ${r.powerAtSize.toFixed(1)}` : '',
    r.throughputAtSize !== undefined ? `throughput score ${r.throughputAtSize.toFixed(1)}` : '',
    r.qphh !== undefined ? `composite score ${r.qphh.toFixed(1)}` : '',
  ].filter(Boolean);
  return m.length ? `${m.join(', ')} (per hour at SF ${sfText(r.scaleFactor)}; by the TPC-H formulas, not TPC results)` : '';
}

/** A TPROC-H run: a power, throughput or performance test, HammerDB's lines, Sledge's scores, the result document. */
export const runJob: JobBody<TprochJobConfig> = async (env) => {
  const { ctx, stop } = env;
  const cfg = env.cfg;
  const o = await settleOptions(env);
  ctx.status('running');
  const sh = tprochRun(ctx, cfg, o, env.driver as Driver, stop);
  const what = o.mode === 'power' ? TEST_NAMES.power : `${TEST_NAMES[o.mode]} with ${o.streams ?? defaultStreams(o.scaleFactor)} stream(s)`;
  ctx.output(1, `TPROC-H ${what} on ${engineName(cfg)}: scale factor ${sfText(o.scaleFactor)}, ${o.querySets} query set(s), refresh ${o.refresh ? 'on' : 'off'}, DOP ${o.dop}`);
  const result = await runTest(sh);
  if (sh.failed) throw sh.failed;
  if (!result) {
    ctx.output(1, 'Run stopped: no result stored');
    return 'stopped';
  }
  ctx.result(result, []);
  const scores = scoresText(result);
  ctx.output(1, `TEST RESULT : ${result.line}${scores ? `; ${scores}` : ''}${result.errors ? `; ${result.errors} query error(s)` : ''}`);
  return 'completed';
};
