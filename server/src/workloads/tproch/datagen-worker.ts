/**
 * worker_threads entry for one TPROC-H datagen worker: its units as
 * dbgen-style flat files, one per table (`<table>.tbl.<worker>`), '|'
 * separated (the csv bulk format: dbgen's own delimiter, never in the data).
 */
import { closeSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { setTprochTextPool } from '@sledge/core';
import { toSledgeError } from '@sledge/protocol';
import { openPrivateFile } from '../../files/private-file.js';
import { CTRL_RUN, RUN_GO } from '../../shared/layout.js';
import { datagenFileName, type FromTprochDatagenWorker, type TprochDatagenWorkerData } from './datagen-messages.js';
import { makeTprochGenerator } from './generator.js';

const data = workerData as TprochDatagenWorkerData;
const port = parentPort!;
const post = (m: FromTprochDatagenWorker) => port.postMessage(m);
const control = new Int32Array(data.control);

async function main(): Promise<void> {
  setTprochTextPool(data.textPool); // the build's one pool, before any generator looks for it
  const gen = await makeTprochGenerator(data.scaleFactor, 'csv', data.generator);
  const fds = new Map<string, number>();
  try {
    for (const u of data.units) {
      if (Atomics.load(control, CTRL_RUN) !== RUN_GO) break;
      for (const t of gen.generate(u)) {
        const file = datagenFileName(t.table, data.worker);
        let fd = fds.get(file);
        if (fd === undefined) {
          fd = openPrivateFile(data.dir, file, 'datagen.dir'); // 0600, never through a planted link
          fds.set(file, fd);
        }
        const buf = typeof t.data === 'string' ? Buffer.from(t.data) : Buffer.from(t.data as Uint8Array);
        writeSync(fd, buf);
        post({ t: 'progress', worker: data.worker, table: t.table, rows: t.rows, bytes: buf.length, file });
      }
    }
  } finally {
    for (const fd of fds.values()) closeSync(fd);
  }
  post({ t: 'done', worker: data.worker, generator: gen.kind });
}

main().catch((e: unknown) => post({ t: 'fatal', error: toSledgeError(e, 'SLEDGE_E_STORAGE_IO').toInfo() }));
