import { BUILD_SCHEDULES, buildPlan, expectedRows, tproccHooks, tproccTarget, type BuildPlan, type BuildSchedule } from '@sledge/core';
import { ENGINE_DISPLAY, SledgeError, type TproccJobConfig } from '@sledge/protocol';
import type { JobBody, JobEnv } from '../../engine/job-types.js';
import { discardCreated } from '../../runner/discard-created.js';
import { ProgressFeed } from '../../runner/progress.js';
import { buildMessages, buildTotals } from '../../runner/build-feed.js';
import { runWorkerGroup } from '../../runner/workers.js';
import { CTRL_RUN, RUN_STOP } from '../../shared/layout.js';
import type { BuildWorkerData, FromBuildWorker } from './build-messages.js';

const BUILD_WORKER = new URL('./build-worker.js', import.meta.url);

const schemaName = (t: { user?: string; database?: string }) => (t.database ?? t.user ?? 'tpcc').toUpperCase();

/** The build workers: worker 1 loads ITEM, the others claim the plan's units (their ranges, or table lanes). Resolves with the first failure (or null) and the generators used. */
async function loadRows(env: JobEnv<TproccJobConfig>, feed: ProgressFeed, plan: BuildPlan) {
  const { ctx, cfg, stop, generator } = env;
  const target = tproccTarget(cfg.target, cfg.tprocc.schema);
  const control = new SharedArrayBuffer(16);
  const ctrl = new Int32Array(control);
  const timestamp = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const generators = new Set<string>();
  const claims = new SharedArrayBuffer(4 * plan.queues.length);
  const ranges = plan.shares.map((r): BuildWorkerData => ({
      kind: 'build',
      engine: target.engine,
      target,
      seed: cfg.seed,
      timestamp,
      worker: r.worker,
      items: false,
      range: { start: r.start, end: r.end, lane: r.lane },
      plan: { queues: plan.queues, queue: r.queue, steal: plan.steal, claims },
      control,
      generator,
    }));
  const items: BuildWorkerData = { kind: 'build', engine: target.engine, target, seed: cfg.seed, timestamp, worker: 1, items: true, range: null, plan: null, control, generator };
  // One build VU loads ITEM and then the warehouses, as HammerDB's single-VU build does; more load them in parallel.
  const spec: BuildWorkerData[] = single(cfg) ? [{ ...ranges[0]!, worker: 1, items: true }] : [items, ...ranges];
  stop.onStop(() => Atomics.store(ctrl, CTRL_RUN, RUN_STOP));
  const failure = await runWorkerGroup<BuildWorkerData, FromBuildWorker>('build', BUILD_WORKER, spec, ctrl, buildMessages<FromBuildWorker>((vu, text) => ctx.output(vu, text), feed, generators, (m) => m.warehouse));
  return { failure, generators };
}

/** A build with one build VU: one worker loads everything (HammerDB's SINGLE-THREADED build). */
const single = (cfg: TproccJobConfig) => cfg.tprocc.buildVus === 1;

/** The closing lines: rows, rates, client CPU, generator, and the time of each phase. */
function buildReport(env: JobEnv<TproccJobConfig>, feed: ProgressFeed, t: { t0: number; tLoad: number; tFinish: number; cpu0: NodeJS.CpuUsage }, generators: Set<string>): void {
  const { ctx, cfg } = env;
  const W = cfg.tprocc.warehouses;
  const mon = (text: string) => ctx.output(1, text);
  const { secs, text } = buildTotals(feed, t.t0, t.cpu0, generators);
  mon(`Build of ${W} warehouse(s) ${text}`);
  const s1 = (a: number, b: number) => ((b - a) / 1000).toFixed(1);
  const tEnd = performance.now();
  mon(`Build phases: schema ${s1(t.t0, t.tLoad)} s, load ${s1(t.tLoad, t.tFinish)} s, indexes, routines and statistics ${s1(t.tFinish, tEnd)} s`);
  mon(`${schemaName(cfg.target as { user?: string })} SCHEMA COMPLETE`);
  ctx.update({ summary: `${W} warehouses built in ${secs.toFixed(1)} s` });
}

/** The progress document of a build: the monitor's worker 1 (ITEM) and one row per range worker (the warehouses it may load rows of); with one build VU, worker 1 only. */
function buildFeed(env: JobEnv<TproccJobConfig>, plan: BuildPlan): ProgressFeed {
  const expected = expectedRows(env.cfg.tprocc.warehouses);
  return new ProgressFeed(env.ctx, {
    ts: Date.now(),
    phase: 'schema',
    expected: { ...(expected as unknown as Record<string, number>) },
    workers: single(env.cfg)
      ? [{ worker: 1, warehouses: [1, env.cfg.tprocc.warehouses], rows: {}, done: false }]
      : [
          { worker: 1, warehouses: [0, 0], rows: {}, done: false },
          ...plan.shares.map((r) => ({ worker: r.worker, warehouses: [r.start, r.end] as [number, number], rows: {}, done: false })),
        ],
  });
}

/** How the range workers share out the units: SLEDGE_BUILD_SCHEDULE (benches compare schedules with it), else the driver's choice, else HammerDB's ranges. */
function buildSchedule(env: JobEnv<TproccJobConfig>, target: ReturnType<typeof tproccTarget>): BuildSchedule {
  const v = process.env.SLEDGE_BUILD_SCHEDULE as BuildSchedule | undefined;
  if (v && BUILD_SCHEDULES.includes(v)) return v;
  return tproccHooks(env.driver).buildSchedule?.(target) ?? 'ranges';
}

/**
 * Schema build as HammerDB does it (hammerdb.md §5.3): the monitor creates the
 * database/user and tables, ITEM is loaded by its own worker while N build
 * workers load their warehouse ranges in parallel, then the monitor adds
 * indexes, routines and statistics. Progress streams per table per worker.
 */
export const buildJob: JobBody<TproccJobConfig> = async (env) => {
  const { ctx, cfg, driver, stop } = env;
  const W = cfg.tprocc.warehouses;
  const n = cfg.tprocc.buildVus;
  const target = tproccTarget(cfg.target, cfg.tprocc.schema);
  const mon = (text: string) => ctx.output(1, text);
  const admin = await tproccHooks(driver).openAdmin(target, mon);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  try {
    const version = await admin.serverVersion();
    ctx.update({ engineVersion: version });
    mon(`DBVersion:${version}`);
    const state = await admin.schemaState();
    if (state.exists) {
      throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `the target already holds a TPROC-C schema (${state.warehouses} warehouses): delete it first or choose another database`, {
        field: 'target',
      });
    }
    ctx.status('running');
    mon(`Ready to create a ${W} Warehouse ${ENGINE_DISPLAY[target.engine]} TPROC-C schema`);
    mon(`CREATING ${schemaName(target as { user?: string })} SCHEMA`);
    const plan = buildPlan(W, n, buildSchedule(env, target));
    const feed = buildFeed(env, plan);
    feed.push(true);
    await admin.createSchema({ warehouses: W, buildVus: n });
    if (stop.requested) return 'stopped';
    mon(n > 1 ? `Monitor Thread: ${n} build virtual users for ${W} warehouses` : `Loading ${W} warehouse(s) with 1 build virtual user`);
    feed.progress.phase = 'load';
    feed.push(true);
    const tLoad = performance.now();
    const { failure, generators } = await loadRows(env, feed, plan);
    if (failure) throw SledgeError.fromInfo(failure);
    if (stop.requested) {
      mon('Build stopped: the schema is incomplete; delete it before building again');
      return 'stopped';
    }
    feed.progress.phase = 'indexes';
    feed.push(true);
    const tFinish = performance.now();
    mon('Creating indexes, transaction routines and statistics');
    await admin.finishSchema({ warehouses: W, buildVus: n });
    feed.progress.phase = 'done';
    feed.push(true);
    buildReport(env, feed, { t0, tLoad, tFinish, cpu0 }, generators);
    return 'completed';
  } catch (e) {
    await discardCreated(admin, mon);
    throw e;
  } finally {
    await admin.close();
  }
};
