import { existsSync, readdirSync } from 'node:fs';
import { tprochBaseRows, tprochBuildPlan, tprochExpectedRows, tprochLineitemCount, type TprochDatagenFile, type TprochDatagenLayout, type TprochWorkerPlan } from '@sledge/core';
import { ENGINES, SledgeError, type TprochTable, type TprochJobConfig } from '@sledge/protocol';
import type { FileJobBody, FileJobEnv } from '../../engine/job-types.js';
import { privateDir, writePrivateFile } from '../../files/private-file.js';
import { ProgressFeed } from '../../runner/progress.js';
import { runWorkerGroup } from '../../runner/workers.js';
import { CTRL_RUN, RUN_STOP } from '../../shared/layout.js';
import { loadDriver } from '../../shared/drivers.js';
import type { FromTprochDatagenWorker, TprochDatagenWorkerData } from './datagen-messages.js';
import { sfText } from './common.js';
import { makeTprochTextPool } from './generator.js';

const DATAGEN_WORKER = new URL('./datagen-worker.js', import.meta.url);
export const MANIFEST = 'sledge-tproch.json';

/** Datagen preflight (no database): the directory is new or empty, the workers fit the SF. */
export function preflightDatagen(cfg: TprochJobConfig): void {
  const dir = cfg.datagen!.dir;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new SledgeError('SLEDGE_E_CONFLICT', `datagen.dir ${dir} is not empty: TPROC-H datagen writes into a new or empty directory`, { field: 'datagen.dir' });
  }
}

/** Workers writing their shares of the build split; progress per table per worker; the files written. */
async function writeFiles(env: FileJobEnv<TprochJobConfig>, feed: ProgressFeed, plan: TprochWorkerPlan[]) {
  const cfg = env.cfg;
  const control = new SharedArrayBuffer(16);
  const ctrl = new Int32Array(control);
  const files = new Map<string, TprochDatagenFile>();
  const generators = new Set<string>();
  // One text pool for every worker (each would otherwise build its own 300 MiB).
  const textPool = await makeTprochTextPool(env.generator);
  const common = { kind: 'tproch-datagen' as const, dir: cfg.datagen!.dir, scaleFactor: cfg.tproch.scaleFactor, control, generator: env.generator, textPool };
  const specs: TprochDatagenWorkerData[] = [{ ...common, worker: 1, units: [{ kind: 'region' }] }, ...plan.map((w) => ({ ...common, worker: w.worker, units: w.units }))];
  env.stop.onStop(() => Atomics.store(ctrl, CTRL_RUN, RUN_STOP));
  const failure = await runWorkerGroup<TprochDatagenWorkerData, FromTprochDatagenWorker>('datagen', DATAGEN_WORKER, specs, ctrl, (vu, m) => {
    if (m.t === 'log') env.ctx.output(vu, m.text);
    else if (m.t === 'progress') {
      const f = files.get(m.file) ?? { table: m.table as TprochTable, worker: m.worker, file: m.file, rows: 0 };
      f.rows += m.rows;
      files.set(m.file, f);
      const p = feed.worker(m.worker);
      p.rows[m.table] = (p.rows[m.table] ?? 0) + m.rows;
      feed.push();
    } else if (m.t === 'done') {
      generators.add(m.generator);
      feed.worker(m.worker).done = true;
      feed.push(true);
    }
  });
  return { failure, files: [...files.values()], generators };
}

/** Every engine's TPROC-H load script its driver renders (datagenScripts), written beside the files (owner-only, never through a link). */
async function writeScripts(layout: TprochDatagenLayout): Promise<string[]> {
  const names: string[] = [];
  for (const engine of ENGINES) {
    const hooks = await loadDriver(engine).then((d) => d.workloads.tproch, () => undefined);
    for (const f of hooks?.datagenScripts?.(layout) ?? []) {
      writePrivateFile(layout.dir, f.name, f.text, 'datagen.dir', { mode: f.executable ? 0o700 : 0o600 });
      names.push(f.name);
    }
  }
  return names;
}

/** TPROC-H flat files: the build's split over datagen.workers workers, '|' separated .tbl files, a manifest, and the engines' load scripts. */
export const datagenJob: FileJobBody<TprochJobConfig> = async (env) => {
  const { ctx, stop } = env;
  const cfg = env.cfg;
  const dg = cfg.datagen!;
  const sf = cfg.tproch.scaleFactor;
  const mon = (text: string) => ctx.output(1, text);
  privateDir(dg.dir, 'datagen.dir'); // owner-only output: 0700, never a link
  ctx.status('running');
  const plan = tprochBuildPlan(tprochBaseRows(sf), dg.workers);
  mon(`Generating TPROC-H scale factor ${sfText(sf)} into ${dg.dir} with ${plan.length} worker(s) besides REGION and NATION`);
  const feed = new ProgressFeed(ctx, {
    ts: Date.now(),
    phase: 'datagen',
    expected: { ...tprochExpectedRows(tprochBaseRows(sf), tprochLineitemCount(sf)) },
    workers: [{ worker: 1, warehouses: [0, 0], rows: {}, done: false }, ...plan.map((w) => ({ worker: w.worker, warehouses: w.ranges.orders, rows: {}, done: false }))],
  });
  feed.push(true);
  const t0 = performance.now();
  const { failure, files, generators } = await writeFiles(env, feed, plan);
  if (failure) throw SledgeError.fromInfo(failure);
  if (stop.requested) {
    mon('Datagen stopped: the directory is incomplete');
    return 'stopped';
  }
  const layout = { dir: dg.dir, seed: cfg.seed, scaleFactor: sf, workers: dg.workers, files: files.sort((a, b) => a.file.localeCompare(b.file)) };
  writePrivateFile(dg.dir, MANIFEST, JSON.stringify({ tool: 'sledge datagen', workload: 'tproch', separator: '|', ...layout, generators: [...generators], complete: true }, null, 2) + '\n', 'datagen.dir');
  const scripts = await writeScripts(layout);
  feed.progress.phase = 'done';
  feed.push(true);
  const rows = files.reduce((a, f) => a + f.rows, 0);
  mon(`Wrote ${files.length} files, ${rows} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s (generator ${[...generators].join('+')})`);
  mon(scripts.length ? `Load scripts: ${scripts.join(', ')}` : 'No engine renders TPROC-H load scripts yet: load the .tbl files with the engine\'s bulk tool (separator |)');
  ctx.update({ summary: `SF ${sf}: ${rows} rows in ${files.length} files` });
  return 'completed';
};
