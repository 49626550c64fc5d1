import { expectedRows, splitWarehouses, tproccHooks, tproccTarget } from '@sledge/core';
import { ENGINE_DISPLAY, SledgeError, type BuildProgress } from '@sledge/protocol';
import { CTRL_RUN, RUN_STOP } from '../worker/layout.js';
import type { BuildWorkerData, FromBuildWorker } from '../worker/messages.js';
import type { JobBody } from './job-types.js';
import { runWorkerGroup } from './workers.js';

const schemaName = (t: { user?: string; database?: string }) => (t.database ?? t.user ?? 'tpcc').toUpperCase();

/**
 * Schema build as HammerDB does it (hammerdb.md §5.3): the monitor creates the
 * database/user and tables, ITEM is loaded by its own worker while N build
 * workers load their warehouse ranges in parallel, then the monitor adds
 * indexes, routines and statistics. Progress streams per table per worker.
 */
export const buildJob: JobBody = async ({ ctx, cfg, driver, stop, generator }) => {
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
    const expected = expectedRows(W);
    const ranges = splitWarehouses(W, n);
    const progress: BuildProgress = {
      ts: Date.now(),
      phase: 'schema',
      expected: { ...(expected as unknown as Record<string, number>) },
      workers: [
        { worker: 1, warehouses: [0, 0], rows: {}, done: false },
        ...ranges.map((r) => ({ worker: r.worker, warehouses: [r.start, r.end] as [number, number], rows: {}, done: false })),
      ],
    };
    let lastProgress = 0;
    const pushProgress = (force = false) => {
      const now = Date.now();
      if (!force && now - lastProgress < 200) return;
      lastProgress = now;
      progress.ts = now;
      ctx.progress(structuredClone(progress));
    };
    pushProgress(true);
    await admin.createSchema({ warehouses: W, buildVus: n });
    if (stop.requested) return 'stopped';
    mon(n > 1 ? `Monitor Thread: ${n} build virtual users for ${W} warehouses` : `Loading ${W} warehouse(s) with 1 build virtual user`);
    progress.phase = 'load';
    pushProgress(true);
    const tLoad = performance.now();

    const control = new SharedArrayBuffer(16);
    const ctrl = new Int32Array(control);
    const timestamp = new Date().toISOString().slice(0, 19).replace('T', ' ');
    const generators = new Set<string>();
    const spec: BuildWorkerData[] = [
      { kind: 'build', engine: target.engine, target, seed: cfg.seed, timestamp, worker: 1, items: true, range: null, control, generator },
      ...ranges.map((r): BuildWorkerData => ({ kind: 'build', engine: target.engine, target, seed: cfg.seed, timestamp, worker: r.worker, items: false, range: { start: r.start, end: r.end }, control, generator })),
    ];
    stop.onStop(() => Atomics.store(ctrl, CTRL_RUN, RUN_STOP));
    const failure = await runWorkerGroup<BuildWorkerData, FromBuildWorker>('build-worker', spec, ctrl, (vu, m) => {
      switch (m.t) {
        case 'log':
          ctx.output(vu, m.text);
          break;
        case 'progress': {
          const p = progress.workers.find((x) => x.worker === m.worker)!;
          p.rows[m.table] = (p.rows[m.table] ?? 0) + m.rows;
          if (m.warehouse !== null) p.currentWarehouse = m.warehouse;
          pushProgress();
          break;
        }
        case 'expected':
          progress.expected[m.table] = (progress.expected[m.table] ?? 0) + m.delta;
          break;
        case 'done':
          generators.add(m.generator);
          progress.workers.find((x) => x.worker === m.worker)!.done = true;
          pushProgress(true);
          break;
      }
    });
    if (failure) throw SledgeError.fromInfo(failure);
    if (stop.requested) {
      mon('Build stopped: the schema is incomplete; delete it before building again');
      return 'stopped';
    }
    progress.phase = 'indexes';
    pushProgress(true);
    const tFinish = performance.now();
    mon('Creating indexes, transaction routines and statistics');
    await admin.finishSchema({ warehouses: W, buildVus: n });
    progress.phase = 'done';
    pushProgress(true);
    const secs = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const loaded = progress.workers.reduce((s, w) => s + Object.values(w.rows).reduce((a, b) => a + b, 0), 0);
    mon(
      `Build of ${W} warehouse(s) took ${secs.toFixed(1)} s: ${loaded} rows (${Math.round(loaded / secs)} rows/s), client CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, generator ${[...generators].join('+') || 'n/a'}`,
    );
    const s1 = (a: number, b: number) => ((b - a) / 1000).toFixed(1);
    const tEnd = performance.now();
    mon(`Build phases: schema ${s1(t0, tLoad)} s, load ${s1(tLoad, tFinish)} s, indexes, routines and statistics ${s1(tFinish, tEnd)} s`);
    mon(`${schemaName(target as { user?: string })} SCHEMA COMPLETE`);
    ctx.update({ summary: `${W} warehouses built in ${secs.toFixed(1)} s` });
    return 'completed';
  } finally {
    await admin.close();
  }
};
