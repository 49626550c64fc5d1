/**
 * worker_threads entry for one schema-build worker. Worker 1 (the monitor's
 * share) loads ITEM; workers 2.. claim units from the queues of the
 * monitor's plan (buildPlan: their warehouse range, or a table lane). With
 * one build VU, worker 1 is the only one: ITEM, then every warehouse, as
 * HammerDB's single-VU build loads them. Generation of the next unit
 * overlaps with the database ingesting the current one.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { estimatedRows, itemUnits, tproccHooks, type TproccUnit } from '@sledge/core';
import { toSledgeError } from '@sledge/protocol';
import { loadDriver } from '../../shared/drivers.js';
import { CTRL_RUN, RUN_GO } from '../../shared/layout.js';
import { makeGenerator } from '../../worker/generator.js';
import type { BuildWorkerData, FromBuildWorker } from './build-messages.js';
import { tclClockFormat, unitDoneLines, unitStartLine } from './build-lines.js';

const data = workerData as BuildWorkerData;
const port = parentPort!;
const post = (m: FromBuildWorker) => port.postMessage(m);
const control = new Int32Array(data.control);

/** The units this worker claims: the next of its queue (one atomic counter per queue), then, with steal, of the others in turn. */
function* claimed(plan: NonNullable<BuildWorkerData['plan']>): Generator<TproccUnit> {
  const next = new Int32Array(plan.claims);
  const n = plan.queues.length;
  for (let k = 0; k < (plan.steal ? n : 1); k++) {
    const q = (plan.queue + k) % n;
    const queue = plan.queues[q]!;
    for (let i = Atomics.add(next, q, 1); i < queue.length; i = Atomics.add(next, q, 1)) yield queue[i]!;
  }
}

async function main(): Promise<void> {
  const driver = tproccHooks(await loadDriver(data.engine));
  const format = driver.bulkFormat(data.target);
  // Lent Buffers: the loop below holds at most two units (one loading, the next generated).
  // SLEDGE_BUILD_LEND=0 turns them off (benches measure both).
  const gen = await makeGenerator({ seed: data.seed, timestamp: data.timestamp }, format, data.generator, { reuseBuffers: process.env.SLEDGE_BUILD_LEND !== '0' });
  const loader = await driver.openLoader(data.target, (text) => post({ t: 'log', text }));
  const log = (text: string) => post({ t: 'log', text });
  const running = () => Atomics.load(control, CTRL_RUN) === RUN_GO;
  try {
    let inflight: Promise<void> | null = null;
    // HammerDB's loader lines (build-lines.ts): a unit's line when its load starts, the next when it is committed.
    const loadAll = async (units: Iterable<TproccUnit>) => {
      for (const u of units) {
        if (!running()) break;
        const tables = gen.generate(u);
        // Exact totals: posted before the unit's progress, so loaded rows never exceed the expected total.
        const estimate = estimatedRows(u) as Record<string, number | undefined>;
        for (const t of tables) {
          const e = estimate[t.table];
          if (e !== undefined && t.rows !== e) post({ t: 'expected', table: t.table, delta: t.rows - e });
        }
        // The next unit is generated while the previous one loads; its load starts once that one is in.
        if (inflight) await inflight;
        const start = unitStartLine(u);
        if (start) log(start);
        const w = u.kind === 'item' ? null : u.w;
        inflight = loader.load(tables).then(() => {
          for (const t of tables) post({ t: 'progress', worker: data.worker, table: t.table, rows: t.rows, warehouse: w });
          for (const line of unitDoneLines(u)) log(line);
        });
      }
      if (inflight) await inflight;
      inflight = null;
    };
    // Worker 1 loads ITEM; with one build VU it then loads every warehouse, as HammerDB's single-VU build does.
    if (data.items) await loadAll(itemUnits());
    if (data.range && running()) {
      const r = data.range;
      if (!data.items) log(`Loading ${r.end - r.start + 1} Warehouses start:${r.start} end:${r.end}${r.lane ? ` (${r.lane} first)` : ''}`);
      log(`Start:${tclClockFormat(new Date())}`);
      await loadAll(claimed(data.plan!));
      if (running()) log(`End:${tclClockFormat(new Date())}`);
    }
  } finally {
    await loader.close();
  }
  post({ t: 'done', worker: data.worker, generator: gen.kind });
}

main().catch((e: unknown) => post({ t: 'fatal', error: toSledgeError(e, 'SLEDGE_E_DB').toInfo() }));
