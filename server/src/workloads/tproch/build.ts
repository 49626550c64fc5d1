import { tprochBaseRows, tprochBuildPlan, tprochExpectedRows, tprochLineitemCount, type TprochAdmin, type TprochWorkerPlan } from '@sledge/core';
import { SledgeError, type TprochJobConfig } from '@sledge/protocol';
import type { JobBody, JobEnv } from '../../engine/job-types.js';
import { discardCreated } from '../../runner/discard-created.js';
import { ProgressFeed } from '../../runner/progress.js';
import { buildMessages, buildTotals } from '../../runner/build-feed.js';
import { runWorkerGroup } from '../../runner/workers.js';
import { CTRL_RUN, RUN_STOP } from '../../shared/layout.js';
import type { FromTprochBuildWorker, TprochBuildWorkerData } from './build-messages.js';
import { engineName, schemaLabel, sfText, withAdmin } from './common.js';
import { makeTprochTextPool } from './generator.js';

const BUILD_WORKER = new URL('./build-worker.js', import.meta.url);

/** The monitor's worker (REGION, NATION) and the build workers, in parallel. Resolves with the first failure (or null) and the generators used. */
async function loadRows(env: JobEnv<TprochJobConfig>, feed: ProgressFeed, plan: TprochWorkerPlan[]) {
  const { ctx, stop, generator } = env;
  const cfg = env.cfg;
  const control = new SharedArrayBuffer(16);
  const ctrl = new Int32Array(control);
  const generators = new Set<string>();
  // One text pool for every worker (each would otherwise build its own 300 MiB).
  const textPool = await makeTprochTextPool(generator);
  const common = { kind: 'tproch-build' as const, engine: cfg.target.engine, target: cfg.target, scaleFactor: cfg.tproch.scaleFactor, control, generator, textPool };
  const spec: TprochBuildWorkerData[] = [{ ...common, worker: 1, units: [{ kind: 'region' }] }, ...plan.map((w) => ({ ...common, worker: w.worker, units: w.units }))];
  stop.onStop(() => Atomics.store(ctrl, CTRL_RUN, RUN_STOP));
  const failure = await runWorkerGroup<TprochBuildWorkerData, FromTprochBuildWorker>('build', BUILD_WORKER, spec, ctrl, buildMessages<FromTprochBuildWorker>((vu, text) => ctx.output(vu, text), feed, generators, (m) => m.base));
  return { failure, generators };
}

/** The progress document: worker 1 (REGION, NATION) and one row per build worker with its range of order indexes. */
function buildFeed(env: JobEnv<TprochJobConfig>, plan: TprochWorkerPlan[]): ProgressFeed {
  const sf = env.cfg.tproch.scaleFactor;
  const expected = tprochExpectedRows(tprochBaseRows(sf), tprochLineitemCount(sf));
  return new ProgressFeed(env.ctx, {
    ts: Date.now(),
    phase: 'schema',
    expected: { ...expected },
    workers: [
      { worker: 1, warehouses: [0, 0], rows: {}, done: false },
      ...plan.map((w) => ({ worker: w.worker, warehouses: w.ranges.orders, rows: {}, done: false })),
    ],
  });
}

/** The closing lines: rows, rate, client CPU, generator, phase times. */
function buildReport(env: JobEnv<TprochJobConfig>, feed: ProgressFeed, t: { t0: number; tLoad: number; tFinish: number; cpu0: NodeJS.CpuUsage }, generators: Set<string>): void {
  const { ctx } = env;
  const cfg = env.cfg;
  const mon = (text: string) => ctx.output(1, text);
  const { secs, text } = buildTotals(feed, t.t0, t.cpu0, generators);
  const sf = sfText(cfg.tproch.scaleFactor);
  mon(`Build of scale factor ${sf} ${text}`);
  const s1 = (a: number, b: number) => ((b - a) / 1000).toFixed(1);
  mon(`Build phases: schema ${s1(t.t0, t.tLoad)} s, load ${s1(t.tLoad, t.tFinish)} s, keys and statistics ${s1(t.tFinish, performance.now())} s`);
  mon(`${schemaLabel(cfg)} SCHEMA COMPLETE`);
  ctx.update({ summary: `SF ${sf} built in ${secs.toFixed(1)} s` });
}

/**
 * TPROC-H schema build as HammerDB's do_tpch (hammerdb.md §10.2): the
 * monitor creates the tables and loads REGION and NATION while the build
 * workers load their shares in parallel; then keys, foreign keys with their
 * indexes, and statistics. Progress streams per table per worker.
 */
export const buildJob: JobBody<TprochJobConfig> = (env) =>
  withAdmin(env, async (admin, mon) => {
    const { ctx } = env;
    const cfg = env.cfg;
    const { scaleFactor: sf, buildVus: n } = cfg.tproch;
    const state = await admin.schemaState();
    if (state.exists) {
      throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `the target already holds a TPROC-H schema (SF ${state.scaleFactor}): delete it first or choose another database`, { field: 'target' });
    }
    await admin.assertBuildable?.();
    ctx.status('running');
    mon(`Ready to create a Scale Factor ${sfText(sf)} ${engineName(cfg)} TPROC-H schema`);
    mon(`CREATING ${schemaLabel(cfg)} SCHEMA`);
    const plan = tprochBuildPlan(tprochBaseRows(sf), n);
    const feed = buildFeed(env, plan);
    feed.push(true);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    try {
      return await buildSchema(env, admin, mon, feed, plan, { t0, cpu0 });
    } catch (e) {
      // As TPROC-C's: the database and the role this build created are dropped (ones that existed before stay).
      await discardCreated(admin, mon);
      throw e;
    }
  });

/** createSchema, the load, keys and statistics: what a failure of any of them undoes (buildJob). */
async function buildSchema(env: JobEnv<TprochJobConfig>, admin: TprochAdmin, mon: (text: string) => void, feed: ProgressFeed, plan: TprochWorkerPlan[], t: { t0: number; cpu0: NodeJS.CpuUsage }): Promise<'completed' | 'stopped'> {
  const { stop } = env;
  const { scaleFactor: sf, buildVus: n } = env.cfg.tproch;
  const { t0, cpu0 } = t;
  await admin.createSchema({ scaleFactor: sf, buildVus: n });
  if (stop.requested) return 'stopped';
  mon(`Monitor Thread: loading REGION and NATION; ${plan.length} build virtual user(s) for scale factor ${sf}`);
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
  mon('Creating primary keys, foreign keys, their indexes and statistics');
  await admin.finishSchema({ scaleFactor: sf, buildVus: n }, (what) => mon(what));
  feed.progress.phase = 'done';
  feed.push(true);
  buildReport(env, feed, { t0, tLoad, tFinish, cpu0 }, generators);
  return 'completed';
}
