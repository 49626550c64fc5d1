/**
 * The datagen output directory: its manifest (sledge-datagen.json), the
 * checks a datagen job passes before any work (writable, enough free space,
 * no files from other settings), and the size estimate behind the space check.
 */
import { closeSync, constants, existsSync, openSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { itemUnits, warehouseUnits } from '@sledge/core';
import { CreateDirectoryError, createDirectory } from '@sledge/jobstore';
import { SledgeError, TPROCC_TABLES, type TproccTable } from '@sledge/protocol';
import { privateDir, writePrivateFile } from '../../files/private-file.js';
import { SCRIPT_NAME } from './datagen-scripts.js';

export const MANIFEST_NAME = 'sledge-datagen.json';
/** Bumped when the file layout or content encoding changes (resuming across versions is refused). */
export const DATAGEN_FORMAT_VERSION = 1;

export interface DatagenSettings {
  seed: number;
  warehouses: number;
  workers: number;
  /** Written into c_since, h_date, o_entry_d, ol_delivery_d. */
  timestamp: string;
  /** CSV, comma separated, NULL as an empty field. */
  format: 'csv';
  formatVersion: number;
}

export interface DatagenWorkerState {
  /** 1 writes ITEM; 2.. write warehouse ranges. */
  worker: number;
  warehouses: [number, number];
  totalUnits: number;
  /** Units completely written (the next one to write on resume). */
  units: number;
  /** Byte length of each of the worker's files after `units` units, by table. */
  bytes: Partial<Record<TproccTable, number>>;
  /** Rows in each file after `units` units. */
  rows: Partial<Record<TproccTable, number>>;
}

export interface DatagenManifest {
  tool: 'sledge datagen';
  settings: DatagenSettings;
  /** Generators that wrote the files (native and typescript write the same bytes). */
  generators: string[];
  workers: DatagenWorkerState[];
  complete: boolean;
  updatedAt: string;
}

export const fileName = (table: TproccTable, worker: number): string => `${table}_${worker}.csv`;
const DATA_NAME = new RegExp(`^(${TPROCC_TABLES.join('|')})_\\d+\\.csv$`);

const dirError = (message: string, code: 'SLEDGE_E_VALIDATION' | 'SLEDGE_E_CONFLICT' = 'SLEDGE_E_VALIDATION') =>
  new SledgeError(code, message, { field: 'datagen.dir' });

/** Units a worker writes, in order: ITEM chunks for worker 1, else its warehouses' units. */
export function workerUnits(range: [number, number] | null) {
  if (!range) return itemUnits();
  const out = [];
  for (let w = range[0]; w <= range[1]; w++) out.push(...warehouseUnits(w));
  return out;
}

export function readManifest(dir: string): DatagenManifest | null {
  const path = join(dir, MANIFEST_NAME);
  if (!existsSync(path)) return null;
  let m: DatagenManifest;
  try {
    m = JSON.parse(readFileSync(path, 'utf8')) as DatagenManifest;
  } catch (e) {
    throw dirError(`datagen.dir ${dir} holds a damaged ${MANIFEST_NAME} (${(e as Error).message}): use an empty directory`, 'SLEDGE_E_CONFLICT');
  }
  if (m?.tool !== 'sledge datagen' || typeof m.settings !== 'object' || !Array.isArray(m.workers)) {
    throw dirError(`datagen.dir ${dir} holds a ${MANIFEST_NAME} Sledge did not write: use an empty directory`, 'SLEDGE_E_CONFLICT');
  }
  return m;
}

/**
 * Replace the manifest atomically (temporary file + rename): a reader sees the
 * old or the new one, never a mix; owner-only, never through a planted link.
 * Not fsynced: it is rewritten after every unit, and a manifest lost in a
 * crash only makes the resume start earlier.
 */
export function writeManifest(dir: string, m: DatagenManifest): void {
  m.updatedAt = new Date().toISOString();
  // Readable for a few workers; compact when it is rewritten after every unit of hundreds of them.
  writePrivateFile(dir, MANIFEST_NAME, (m.workers.length <= 65 ? JSON.stringify(m, null, 1) : JSON.stringify(m)) + '\n', 'datagen.dir', { sync: false });
}

/**
 * Bytes the CSV files take, measured from the generator (csv, NULL as an
 * empty field, seed 42, warehouses 1 and 7; `node` over core's
 * TproccGenerator, the native generator writes the same bytes):
 *
 * | table      | bytes per warehouse | rows    | w-id columns per row |
 * |------------|--------------------:|--------:|---------------------:|
 * | warehouse  |                  85 |       1 | 1 |
 * | stock      |          30 592 000 | 100 000 | 1 |
 * | district   |                 949 |      10 | 1 |
 * | customer   |          17 109 000 |  30 000 | 1 |
 * | history    |           1 736 000 |  30 000 | 2 |
 * | orders     |           1 190 400 |  30 000 | 1 |
 * | new_order  |              81 900 |   9 000 | 1 |
 * | order_line |          19 830 000 | ~300 000 | 2 (ol_w_id, ol_supply_w_id) |
 * | item       |   7 567 053 (once)  | 100 000 | 0 |
 *
 * That is ~70.5 MB per warehouse while warehouse ids have one digit; each
 * further digit adds one byte per w-id column: 829 011 bytes per warehouse.
 * (12345 warehouses' last one measured 73.84 MB; the formula gives 73.86.)
 * ORDER_LINE varies with the random o_ol_cnt (±0.5% per warehouse), so the
 * estimate adds 2%.
 */
export const DATAGEN_BYTES = {
  item: 7_567_053,
  perWarehouse: 85 + 30_592_000 + 949 + 17_109_000 + 1_736_000 + 1_190_400 + 81_900 + 19_830_000,
  perWidDigit: 100_000 + 10 + 1 + 30_000 + 2 * 30_000 + 30_000 + 9_000 + 2 * 300_000,
  margin: 0.02,
} as const;

/** Estimated bytes of a complete datagen directory for W warehouses. */
export function estimateDatagenBytes(W: number): number {
  let extraDigits = 0;
  for (let lo = 10, d = 1; lo <= W; lo *= 10, d++) extraDigits += W - lo + 1; // each warehouse >= lo has one more digit
  const raw = DATAGEN_BYTES.item + W * DATAGEN_BYTES.perWarehouse + extraDigits * DATAGEN_BYTES.perWidDigit;
  return Math.ceil(raw * (1 + DATAGEN_BYTES.margin));
}

/**
 * Free bytes for new files in `dir`. SLEDGE_DATAGEN_FAKE_FREE_BYTES replaces
 * the file system's answer: it exists for tests that need a "full" disk and
 * is never set in production.
 */
export function freeBytes(dir: string): number {
  const fake = process.env['SLEDGE_DATAGEN_FAKE_FREE_BYTES'];
  if (fake !== undefined && fake !== '' && Number.isFinite(Number(fake))) return Number(fake);
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

const gb = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : `${(n / 1e6).toFixed(1)} MB`);

export interface DatagenRequest {
  dir: string;
  seed: number;
  /** The request named the seed (else a resume adopts the manifest's). */
  seedExplicit: boolean;
  warehouses: number;
  workers: number;
  /** Given by the request (else now, or the manifest's on resume). */
  timestamp?: string;
}

export interface DatagenPlan {
  settings: DatagenSettings;
  manifest: DatagenManifest | null;
  estimateBytes: number;
  remainingBytes: number;
}

/**
 * Everything a datagen job checks before any work, with a typed error naming
 * datagen.dir (the path itself was resolved and confined by paths.ts): the
 * directory exists (created when missing, reporting the real cause when it
 * cannot be: EROFS, EACCES ...) and takes files,
 * an existing manifest has the same settings (then the job resumes), no
 * generated files lie there without a manifest, and the file system has room
 * for the estimated remaining bytes.
 */
export function checkDatagenDir(req: DatagenRequest): DatagenPlan {
  const { dir } = req;
  let made: string | undefined;
  try {
    made = createDirectory(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw dirError(`datagen.dir ${dir} cannot be created (${e instanceof CreateDirectoryError ? e.message.replace(/^cannot create /, '') : code}): choose a directory the server can write`);
  }
  try {
    return checkDir(req);
  } catch (e) {
    // Bad input changes nothing: remove the (empty) directories this check created.
    if (made) rmSync(made, { recursive: true, force: true });
    throw e;
  }
}

function checkDir(req: DatagenRequest): DatagenPlan {
  const { dir } = req;
  if (!statSync(dir).isDirectory()) throw dirError(`datagen.dir ${dir} is a file, not a directory: choose a directory`);
  // Datagen output is owner-only: the directory becomes 0700 (refused when it is a link or another user's).
  privateDir(dir, 'datagen.dir');
  const probe = join(dir, `.sledge-write-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
    unlinkSync(probe);
  } catch (e) {
    throw dirError(`datagen.dir ${dir} is not writable (${(e as NodeJS.ErrnoException).code ?? 'error'}): choose a directory the server can write`);
  }

  const manifest = readManifest(dir);
  let seed = req.seed;
  let timestamp = req.timestamp ?? new Date().toISOString().slice(0, 19).replace('T', ' ');
  if (manifest) {
    const have = manifest.settings;
    if (!req.seedExplicit) seed = have.seed;
    if (req.timestamp === undefined) timestamp = have.timestamp;
    const diffs: string[] = [];
    const cmp = (name: string, here: unknown, asked: unknown) => {
      if (here !== asked) diffs.push(`${name} ${String(here)} there, ${String(asked)} asked`);
    };
    cmp('format version', have.formatVersion, DATAGEN_FORMAT_VERSION);
    cmp('seed', have.seed, seed);
    cmp('warehouses', have.warehouses, req.warehouses);
    cmp('workers', have.workers, req.workers);
    cmp('timestamp', have.timestamp, timestamp);
    if (diffs.length) {
      throw dirError(
        `datagen.dir ${dir} holds files from different settings (${diffs.join('; ')}): use an empty directory, or the same seed/warehouses/workers to resume`,
        'SLEDGE_E_CONFLICT',
      );
    }
    for (const w of manifest.workers) {
      if (w.units === 0) continue;
      for (const [table, len] of Object.entries(w.bytes)) {
        const path = join(dir, fileName(table as TproccTable, w.worker));
        const size = existsSync(path) ? statSync(path).size : -1;
        if (size < (len ?? 0)) {
          throw dirError(
            `datagen.dir ${dir}: ${fileName(table as TproccTable, w.worker)} is ${size < 0 ? 'missing' : `shorter (${size} bytes) than the ${len} bytes ${MANIFEST_NAME} records`}: the files were changed outside Sledge; use an empty directory`,
            'SLEDGE_E_CONFLICT',
          );
        }
      }
    }
  } else {
    const stray = readdirSync(dir).filter((n) => DATA_NAME.test(n) || SCRIPT_NAME.test(n));
    if (stray.length) {
      throw dirError(
        `datagen.dir ${dir} holds datagen files without a ${MANIFEST_NAME} (${stray.slice(0, 3).join(', ')}${stray.length > 3 ? ', ...' : ''}), so they cannot be resumed: use an empty directory`,
        'SLEDGE_E_CONFLICT',
      );
    }
  }

  const estimate = estimateDatagenBytes(req.warehouses);
  const written = manifest ? manifest.workers.reduce((s, w) => s + Object.values(w.bytes).reduce((a, b) => a + (b ?? 0), 0), 0) : 0;
  const remaining = manifest?.complete ? 0 : Math.max(0, estimate - written);
  const free = freeBytes(dir);
  if (remaining > free) {
    throw dirError(
      `datagen.dir ${dir} has ${gb(free)} free but ${req.warehouses} warehouse(s) need about ${gb(remaining)} more (about ${gb(estimate)} in all): free some space or choose another directory`,
    );
  }
  return {
    settings: { seed, warehouses: req.warehouses, workers: req.workers, timestamp, format: 'csv', formatVersion: DATAGEN_FORMAT_VERSION },
    manifest,
    estimateBytes: estimate,
    remainingBytes: remaining,
  };
}
