/**
 * worker_threads entry for one TPROC-H build worker: worker 1 (the
 * monitor's share) loads REGION and NATION, workers 2.. their ranges of
 * SUPPLIER, CUSTOMER, PART+PARTSUPP and ORDERS+LINEITEM. Generation of the
 * next unit overlaps with the database ingesting the current one. The
 * text pool is the build's one, built before the workers (workerData).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { setTprochTextPool, tprochHooks, type TprochBuildUnit } from '@sledge/core';
import { toSledgeError } from '@sledge/protocol';
import { loadDriver } from '../../shared/drivers.js';
import { CTRL_RUN, RUN_GO } from '../../shared/layout.js';
import type { FromTprochBuildWorker, TprochBuildWorkerData } from './build-messages.js';
import { makeTprochGenerator } from './generator.js';

const data = workerData as TprochBuildWorkerData;
const port = parentPort!;
const post = (m: FromTprochBuildWorker) => port.postMessage(m);
const control = new Int32Array(data.control);

const LABEL: Record<string, string> = { supplier: 'SUPPLIER', customer: 'CUSTOMER', part: 'PART AND PARTSUPP', orders: 'ORDERS AND LINEITEM' };

/** HammerDB-style line at the first unit of each table. */
function unitLabel(u: TprochBuildUnit, first: Set<string>): string | null {
  if (u.kind === 'region') return 'Loading REGION and NATION';
  if (first.has(u.kind)) return null;
  first.add(u.kind);
  const last = data.units.filter((x) => x.kind === u.kind).at(-1) as { to: number };
  return `Loading ${LABEL[u.kind]} ${u.from} to ${last.to}`;
}

async function main(): Promise<void> {
  const hooks = tprochHooks(await loadDriver(data.engine));
  const format = hooks.bulkFormat(data.target);
  setTprochTextPool(data.textPool); // the build's one pool, before any generator looks for it
  const gen = await makeTprochGenerator(data.scaleFactor, format, data.generator);
  const loader = await hooks.openLoader(data.target, (text) => post({ t: 'log', text }));
  const first = new Set<string>();
  try {
    let inflight: Promise<void> | null = null;
    for (const u of data.units) {
      if (Atomics.load(control, CTRL_RUN) !== RUN_GO) break;
      const label = unitLabel(u, first);
      if (label) post({ t: 'log', text: label });
      const tables = gen.generate(u);
      if (inflight) await inflight;
      const base = u.kind === 'region' ? null : u.to;
      inflight = loader.load(tables).then(() => {
        for (const t of tables) post({ t: 'progress', worker: data.worker, table: t.table, rows: t.rows, base });
      });
    }
    if (inflight) await inflight;
    post({ t: 'log', text: data.worker === 1 ? 'REGION and NATION done' : 'Loading done' });
  } finally {
    await loader.close();
  }
  post({ t: 'done', worker: data.worker, generator: gen.kind });
}

main().catch((e: unknown) => post({ t: 'fatal', error: toSledgeError(e, 'SLEDGE_E_DB').toInfo() }));
