import { expectedRows, splitWarehouses } from '@sledge/core';
import { SledgeError, type TproccTable, type TproccJobConfig } from '@sledge/protocol';
import { writeLoadScripts, type DatagenFile } from './datagen-scripts.js';
import type { JobContext } from '../../engine/job-context.js';
import type { FileJobEnv } from '../../engine/job-types.js';
import type { StopToken } from '../../engine/stop.js';
import { ProgressFeed } from '../../runner/progress.js';
import { runWorkerGroup } from '../../runner/workers.js';
import { CTRL_RUN, RUN_STOP } from '../../shared/layout.js';
import type { DatagenWorkerData, FromDatagenWorker } from './datagen-messages.js';
import { checkDatagenDir, fileName, workerUnits, writeManifest, type DatagenManifest, type DatagenPlan, type DatagenWorkerState } from './datagen-dir.js';

const DATAGEN_WORKER = new URL('./datagen-worker.js', import.meta.url);

const sum = (r: Partial<Record<TproccTable, number>>) => Object.values(r).reduce((a, b) => a + (b ?? 0), 0);
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** The directory's plan and manifest: the one found (resuming) or a fresh one; its worker ranges must be these settings'. */
function openManifest(dg: Datagen, W: number, seed: number): { plan: DatagenPlan; manifest: DatagenManifest } {
  // Checked again: a job queued behind another may find the directory changed.
  const plan = checkDatagenDir({ dir: dg.dir, seed, seedExplicit: true, warehouses: W, workers: dg.workers, ...(dg.timestamp ? { timestamp: dg.timestamp } : {}) });
  const { settings } = plan;
  const ranges = splitWarehouses(W, dg.workers);
  const fresh = (): DatagenWorkerState[] => [
    { worker: 1, warehouses: [0, 0], totalUnits: workerUnits(null).length, units: 0, bytes: {}, rows: {} },
    ...ranges.map((r): DatagenWorkerState => ({ worker: r.worker, warehouses: [r.start, r.end], totalUnits: workerUnits([r.start, r.end]).length, units: 0, bytes: {}, rows: {} })),
  ];
  const manifest: DatagenManifest = plan.manifest ?? { tool: 'sledge datagen', settings, generators: [], workers: fresh(), complete: false, updatedAt: '' };
  const expectedStates = fresh();
  const sameLayout =
    manifest.workers.length === expectedStates.length &&
    expectedStates.every((e, i) => {
      const m = manifest.workers[i]!;
      return m.worker === e.worker && m.warehouses[0] === e.warehouses[0] && m.warehouses[1] === e.warehouses[1] && m.totalUnits === e.totalUnits && m.units <= m.totalUnits;
    });
  if (!sameLayout) {
    throw new SledgeError('SLEDGE_E_CONFLICT', `datagen.dir ${dg.dir} holds a manifest whose worker ranges do not match its settings: use an empty directory`, { field: 'datagen.dir' });
  }
  return { plan, manifest };
}

/** The workers of the units still to write; the manifest records each completed unit. Resolves with the first failure (or null) and the generators used. */
async function writeFiles(ctx: JobContext, stop: StopToken, dg: Datagen, manifest: DatagenManifest, feed: ProgressFeed, generator: FileJobEnv<TproccJobConfig>['generator']) {
  const { settings } = manifest;
  const control = new SharedArrayBuffer(16);
  const ctrl = new Int32Array(control);
  /** Generators of this run (the manifest keeps those of every run). */
  const generators = new Set<string>();
  const pending = manifest.workers.filter((w) => w.units < w.totalUnits);
  const specs = pending.map(
    (state): DatagenWorkerData => ({
      kind: 'datagen',
      dir: dg.dir,
      seed: settings.seed,
      timestamp: settings.timestamp,
      worker: state.worker,
      range: state.worker === 1 ? null : { start: state.warehouses[0], end: state.warehouses[1] },
      startUnit: state.units,
      bytes: state.bytes,
      rows: state.rows,
      control,
      generator,
    }),
  );
  const stateOf = new Map(pending.map((w) => [w.worker, w]));
  stop.onStop(() => Atomics.store(ctrl, CTRL_RUN, RUN_STOP));
  const failure = await runWorkerGroup<DatagenWorkerData, FromDatagenWorker>('datagen', DATAGEN_WORKER, specs, ctrl, (vu, m) => {
    const state = stateOf.get(vu)!;
    switch (m.t) {
      case 'log':
        ctx.output(vu, m.text);
        break;
      case 'unit': {
        state.units = m.units;
        state.bytes = m.bytes;
        state.rows = m.rows;
        writeManifest(dg.dir, manifest);
        const p = feed.worker(m.worker);
        p.rows = { ...m.rows } as Record<string, number>;
        if (m.warehouse !== null) p.currentWarehouse = m.warehouse;
        feed.push();
        break;
      }
      case 'done':
        generators.add(m.generator);
        feed.worker(m.worker).done = state.units === state.totalUnits;
        feed.push(true);
        break;
    }
  });
  return { failure, generators };
}

type Datagen = NonNullable<FileJobEnv<TproccJobConfig>['cfg']['datagen']>;
const totalOf = (manifest: DatagenManifest, k: 'rows' | 'bytes') => manifest.workers.reduce((s, w) => s + sum(w[k]), 0);

/** All files are there: the load scripts, the manifest marked complete, the closing lines. */
async function finishFiles(ctx: JobContext, dg: Datagen, W: number, manifest: DatagenManifest, feed: ProgressFeed, run: { secs: number; resumed: boolean; rowsBefore: number; bytesBefore: number; generators: Set<string> }): Promise<void> {
  const mon = (text: string) => ctx.output(1, text);
  const { settings } = manifest;
  const { secs, generators } = run;
  const rows = totalOf(manifest, 'rows');
  const bytes = totalOf(manifest, 'bytes');
  const files: DatagenFile[] = manifest.workers.flatMap((w) =>
    (Object.keys(w.rows) as TproccTable[]).map((table) => ({ table, worker: w.worker, file: fileName(table, w.worker), rows: w.rows[table] ?? 0 })),
  );
  const scripts = await writeLoadScripts({ dir: dg.dir, seed: settings.seed, warehouses: W, workers: dg.workers, timestamp: settings.timestamp, files });
  manifest.complete = true;
  writeManifest(dg.dir, manifest);
  feed.progress.phase = 'done';
  feed.push(true);
  mon(`Load scripts: ${scripts.filter((s) => s.startsWith('load_')).join(', ')} (create the tables first with packages/sql/<engine>/tprocc/tables.sql)`);
  const newRows = rows - run.rowsBefore;
  const newBytes = bytes - run.bytesBefore;
  mon(
    `Datagen of ${W} warehouse(s) took ${secs.toFixed(1)} s: ${newRows} rows (${Math.round(newRows / secs)} rows/s), ${mb(newBytes)} (${(newBytes / 1e6 / secs).toFixed(1)} MB/s)` +
      `${run.resumed ? `, ${rows} rows and ${mb(bytes)} in all after resuming` : ''}, ${files.length} files, generator ${[...generators].join('+') || 'none (nothing to write)'}`,
  );
  const gens = [...generators].join('+') || 'none';
  ctx.update({
    summary: `${W} warehouses: ${rows} rows, ${mb(bytes)} in ${files.length} files (${Math.round(newRows / secs)} rows/s, ${(newBytes / 1e6 / secs).toFixed(1)} MB/s, generator ${gens}) + load scripts in ${dg.dir}`,
  });
}

/**
 * Flat-file generation (HammerDB dgset/datagenrun, hammerdb.md §2): worker 1
 * writes ITEM, workers 2..M+1 write their warehouse ranges (split as the build
 * splits them, §5.3) into <table>_<worker>.csv. After every unit the manifest
 * records how far each worker got, so a stopped or interrupted run resumes
 * where it stopped; when all files are complete, a load script per engine is
 * written beside them. No database is touched.
 */
export async function datagenJob({ ctx, cfg, stop, generator }: FileJobEnv<TproccJobConfig>): Promise<'completed' | 'stopped'> {
  const dg = cfg.datagen;
  if (!dg) throw new SledgeError('SLEDGE_E_VALIDATION', 'datagen is required for a datagen job', { field: 'datagen' });
  const W = cfg.tprocc.warehouses;
  const mon = (text: string) => ctx.output(1, text);
  const t0 = performance.now();
  const { plan, manifest } = openManifest(dg, W, cfg.seed);
  const { settings } = plan;
  writeManifest(dg.dir, manifest);
  ctx.status('running');

  const resumed = plan.manifest !== null && !manifest.complete;
  mon(`Datagen of ${W} warehouse(s) with ${dg.workers} worker(s) into ${dg.dir}: seed ${settings.seed}, timestamp ${settings.timestamp}, about ${mb(plan.estimateBytes)}`);
  if (manifest.complete) mon('The directory already holds the complete files for these settings: rewriting the load scripts only');
  else if (resumed) mon(`Resuming: ${manifest.workers.reduce((s, w) => s + w.units, 0)} of ${manifest.workers.reduce((s, w) => s + w.totalUnits, 0)} units were written before`);

  const rowsBefore = totalOf(manifest, 'rows');
  const bytesBefore = totalOf(manifest, 'bytes');
  const feed = new ProgressFeed(ctx, {
    ts: Date.now(),
    phase: 'datagen',
    expected: expectedRows(W) as unknown as Record<string, number>,
    workers: manifest.workers.map((w) => ({ worker: w.worker, warehouses: w.warehouses, rows: { ...w.rows } as Record<string, number>, done: w.units === w.totalUnits })),
  });
  feed.push(true);
  const { failure, generators } = await writeFiles(ctx, stop, dg, manifest, feed, generator);
  manifest.generators = [...new Set([...manifest.generators, ...generators])];
  writeManifest(dg.dir, manifest);
  const secs = (performance.now() - t0) / 1000;
  if (failure) {
    mon(`Datagen failed after ${secs.toFixed(1)} s; the files written so far are kept: run the same job again to resume`);
    throw SledgeError.fromInfo(failure);
  }
  const incomplete = manifest.workers.some((w) => w.units < w.totalUnits);
  if (incomplete && !stop.requested) {
    throw new SledgeError('SLEDGE_E_INTERNAL', `a datagen worker ended before finishing its files: run the same job again to resume`);
  }
  if (stop.requested && incomplete) {
    const rows = totalOf(manifest, 'rows');
    mon(`Datagen stopped after ${secs.toFixed(1)} s with ${rows} rows (${mb(totalOf(manifest, 'bytes'))}) written: run it again with the same settings into ${dg.dir} to resume`);
    ctx.update({ summary: `datagen stopped: ${rows} rows in ${dg.dir}, resumable` });
    return 'stopped';
  }
  await finishFiles(ctx, dg, W, manifest, feed, { secs, resumed, rowsBefore, bytesBefore, generators });
  return 'completed';
}
