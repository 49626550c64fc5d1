/**
 * worker_threads entry for one datagen worker: writes its share of the
 * TPROC-C rows as CSV files <table>_<worker>.csv (worker 1: ITEM; 2..: the
 * warehouse range), one unit at a time, and reports each completed unit so the
 * main thread can record the resume point in the manifest. On resume the
 * files are cut back to the recorded lengths and generation continues at the
 * next unit: units have their own PRNG streams, so the bytes are those of an
 * uninterrupted run.
 */
import { closeSync, fstatSync, ftruncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { GeneratedTable, TproccUnit } from '@sledge/core';
import { SledgeError, TPROCC_TABLES, toSledgeError, type TproccTable } from '@sledge/protocol';
import { openPrivateFile, reopenPrivateFile } from '../../files/private-file.js';
import { CTRL_RUN, RUN_GO } from '../../shared/layout.js';
import { makeGenerator } from '../../worker/generator.js';
import { fileName, workerUnits } from './datagen-dir.js';
import type { DatagenWorkerData, FromDatagenWorker } from './datagen-messages.js';

const BACKSLASH = 0x5c;
const N = 0x4e;

/**
 * The generator's csv writes NULL as \N; the files want an empty field.
 * Generated values never contain a backslash, so every backslash starts a
 * \N marker: drop those two bytes (on the bytes, without decoding).
 */
export function stripNullMarkers(b: Buffer): Buffer {
  let i = b.indexOf(BACKSLASH);
  if (i < 0) return b;
  const out = Buffer.allocUnsafe(b.length);
  let o = 0;
  let from = 0;
  while (i >= 0) {
    if (b[i + 1] !== N) throw new Error(`generated csv has a backslash not followed by N at byte ${i}`);
    o += b.copy(out, o, from, i);
    from = i + 2;
    i = b.indexOf(BACKSLASH, from);
  }
  o += b.copy(out, o, from);
  return out.subarray(0, o);
}

function toBuffer(data: GeneratedTable['data']): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'latin1');
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw new Error('datagen needs text rows (csv), not tuples');
}

/** File-system failures the user can fix name datagen.dir; the job can be resumed. */
function ioError(e: unknown, path: string): unknown {
  const err = e as NodeJS.ErrnoException;
  if (typeof err?.code === 'string' && /^E[A-Z]+$/.test(err.code)) {
    return new SledgeError(
      'SLEDGE_E_VALIDATION',
      `writing ${path} failed (${err.code}${err.code === 'ENOSPC' ? ': the disk is full' : ''}): fix the directory (free space, permissions) and run the same datagen job again to resume`,
      { field: 'datagen.dir', cause: e },
    );
  }
  return e;
}

interface OutFile {
  path: string;
  fd: number;
  pos: number;
}

const data = workerData as DatagenWorkerData;
const port = parentPort!;
const post = (m: FromDatagenWorker) => port.postMessage(m);
const control = new Int32Array(data.control);

function openFiles(tables: readonly TproccTable[]): Map<TproccTable, OutFile> {
  const files = new Map<TproccTable, OutFile>();
  for (const table of tables) {
    const name = fileName(table, data.worker);
    const path = join(data.dir, name);
    const len = data.startUnit === 0 ? 0 : (data.bytes[table] ?? 0);
    try {
      // Owner-only (0600), never through a link planted at the name (files/private-file.ts).
      if (len === 0) {
        files.set(table, { path, fd: openPrivateFile(data.dir, name, 'datagen.dir'), pos: 0 });
        continue;
      }
      const fd = reopenPrivateFile(data.dir, name, 'datagen.dir');
      const size = fstatSync(fd).size;
      if (size < len) {
        closeSync(fd);
        throw new SledgeError(
          'SLEDGE_E_CONFLICT',
          `${path} is shorter (${size} bytes) than the manifest records (${len} bytes): the directory was changed outside Sledge; use an empty directory`,
          { field: 'datagen.dir' },
        );
      }
      ftruncateSync(fd, len);
      files.set(table, { path, fd, pos: len });
    } catch (e) {
      for (const f of files.values()) closeSync(f.fd);
      throw SledgeError.is(e) ? e : ioError(e, path);
    }
  }
  return files;
}

function write(f: OutFile, buf: Buffer): void {
  try {
    let off = 0;
    while (off < buf.length) {
      const n = writeSync(f.fd, buf, off, buf.length - off, f.pos);
      off += n;
      f.pos += n;
    }
  } catch (e) {
    throw ioError(e, f.path);
  }
}

function label(u: TproccUnit): string | null {
  switch (u.kind) {
    case 'item':
      return u.from === 1 ? 'Generating Item' : null;
    case 'warehouse':
      return `Generating Warehouse ${u.w}`;
    default:
      return null;
  }
}

async function main(): Promise<void> {
  const gen = await makeGenerator({ seed: data.seed, timestamp: data.timestamp }, 'csv', data.generator);
  const r = data.range;
  const units = workerUnits(r ? [r.start, r.end] : null);
  const tables = r ? TPROCC_TABLES.filter((t) => t !== 'item') : (['item'] as const);
  if (r) post({ t: 'log', text: `Generating ${r.end - r.start + 1} Warehouses start:${r.start} end:${r.end}` });
  if (data.startUnit > 0) post({ t: 'log', text: `Resuming at unit ${data.startUnit + 1} of ${units.length}` });
  const files = openFiles(tables);
  const bytes: Partial<Record<TproccTable, number>> = {};
  const rows: Partial<Record<TproccTable, number>> = {};
  for (const t of tables) {
    bytes[t] = files.get(t)!.pos;
    rows[t] = data.startUnit === 0 ? 0 : (data.rows[t] ?? 0);
  }
  try {
    for (let i = data.startUnit; i < units.length; i++) {
      if (Atomics.load(control, CTRL_RUN) !== RUN_GO) break;
      const u = units[i]!;
      const l = label(u);
      if (l) post({ t: 'log', text: l });
      for (const t of gen.generate(u)) {
        const f = files.get(t.table);
        if (!f) throw new Error(`worker ${data.worker} generated ${t.table} rows it has no file for`);
        write(f, stripNullMarkers(toBuffer(t.data)));
        bytes[t.table] = f.pos;
        rows[t.table] = (rows[t.table] ?? 0) + t.rows;
      }
      post({ t: 'unit', worker: data.worker, units: i + 1, warehouse: u.kind === 'item' ? null : u.w, bytes: { ...bytes }, rows: { ...rows } });
    }
  } finally {
    for (const f of files.values()) closeSync(f.fd);
  }
  if (Atomics.load(control, CTRL_RUN) === RUN_GO) post({ t: 'log', text: r ? 'Warehouses done' : 'Item done' });
  post({ t: 'done', worker: data.worker, generator: gen.kind });
}

main().catch((e: unknown) => {
  const err = SledgeError.is(e)
    ? toSledgeError(e)
    : new SledgeError('SLEDGE_E_INTERNAL', `datagen worker ${data.worker} failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  post({ t: 'fatal', error: err.toInfo() });
});
