/**
 * worker_threads entry for one schema-build worker. Worker 1 (the monitor's
 * share) loads ITEM; workers 2.. claim units from the queues of the
 * monitor's plan (buildPlan: their warehouse range, or a table lane). Generation of the
 * next unit overlaps with the database ingesting the current one.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { estimatedRows, itemUnits, tproccHooks, type TproccUnit } from '@sledge/core';
import { toSledgeError } from '@sledge/protocol';
import { loadDriver } from '../../shared/drivers.js';
import { CTRL_RUN, RUN_GO } from '../../shared/layout.js';
import { makeGenerator } from '../../worker/generator.js';
import type { BuildWorkerData, FromBuildWorker } from './build-messages.js';

const data = workerData as BuildWorkerData;
const port = parentPort!;
const post = (m: FromBuildWorker) => port.postMessage(m);
const control = new Int32Array(data.control);

function unitLabel(u: TproccUnit): string | null {
  switch (u.kind) {
    case 'item':
      return u.from === 1 ? 'Loading Item' : null;
    case 'warehouse':
      return `Start:${new Date().toISOString().slice(0, 19).replace('T', ' ')} Loading Warehouse ${u.w}`;
    case 'stock':
      return u.from === 1 ? `Loading Stock Wid=${u.w}` : null;
    case 'district':
      return `Loading District Wid=${u.w}`;
    case 'customer':
      return `Loading Customer for DID=${u.d} WID=${u.w}`;
    case 'orders':
      return `Loading Orders for D=${u.d} W=${u.w}`;
  }
}

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
  try {
    let units: Iterable<TproccUnit>;
    if (data.items) units = itemUnits();
    else {
      const r = data.range!;
      post({ t: 'log', text: `Loading ${r.end - r.start + 1} Warehouses start:${r.start} end:${r.end}${r.lane ? ` (${r.lane} first)` : ''}` });
      units = claimed(data.plan!);
    }
    let inflight: Promise<void> | null = null;
    for (const u of units) {
      if (Atomics.load(control, CTRL_RUN) !== RUN_GO) break;
      const label = unitLabel(u);
      if (label) post({ t: 'log', text: label });
      const tables = gen.generate(u);
      // Exact totals: posted before the unit's progress, so loaded rows never exceed the expected total.
      const estimate = estimatedRows(u) as Record<string, number | undefined>;
      for (const t of tables) {
        const e = estimate[t.table];
        if (e !== undefined && t.rows !== e) post({ t: 'expected', table: t.table, delta: t.rows - e });
      }
      if (inflight) await inflight;
      const w = u.kind === 'item' ? null : u.w;
      inflight = loader.load(tables).then(() => {
        for (const t of tables) post({ t: 'progress', worker: data.worker, table: t.table, rows: t.rows, warehouse: w });
      });
    }
    if (inflight) await inflight;
    post({ t: 'log', text: data.items ? 'Item done' : `Orders Done` });
  } finally {
    await loader.close();
  }
  post({ t: 'done', worker: data.worker, generator: gen.kind });
}

main().catch((e: unknown) => post({ t: 'fatal', error: toSledgeError(e, 'SLEDGE_E_DB').toInfo() }));
