/**
 * What the native VU loops (sledge_pgvu: libpq, sledge_myvu: the MariaDB C
 * connector) share on the JavaScript side: finding and loading an addon
 * (prebuild, then build/Release, ABI checked), and a started run's handle
 * (per-VU latency rings drained here, log lines, results, dispose). Both
 * addons are the same glue (src/pgvu/vu_addon.h) over different sessions.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NativeVuHandle, NativeVuResult, NativeVuStartOptions } from '@sledge/core';
import { TX_TYPES } from '@sledge/protocol';

/**
 * Latency records each VU's ring holds before its thread waits for the worker to drain it. The worker
 * drains once a second (server/src/workloads/tprocc/native-vus.ts POLL_MS), so a VU can run 16,384
 * transactions a second before it waits: a TPROC-C VU does a few hundred to a few thousand (one round
 * trip and the procedure's server time each). 128 KB per VU.
 */
export const RING_CAPACITY = 16384;
const RING_STRIDE = 32;
const RING_TAIL = 16;
const REC_MEASURING = 0x100;

/** What src/pgvu/vu_addon.h exports (besides the client library's version). */
export interface VuBinding {
  readonly abiVersion: number;
  start(opts: object): number;
  poll(id: number): { live: number; logs: (number | string)[] };
  results(id: number): NativeVuResult[];
  dispose(id: number): void;
  generateInputs(opts: object, count: number, withThink: boolean): string;
}

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const requireNative = createRequire(import.meta.url);

/** Where an addon file is looked for, in order: a prebuild for this platform, then the local build. */
export function addonCandidatePaths(file: string): string[] {
  return [join(packageRoot, 'prebuilds', `${process.platform}-${process.arch}`, file), join(packageRoot, 'build', 'Release', file)];
}

function isBinding(x: unknown): x is VuBinding {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return typeof o.start === 'function' && typeof o.poll === 'function' && typeof o.abiVersion === 'number';
}

export type VuAddonLoad = { ok: true; path: string; binding: VuBinding } | { ok: false; reason: string };

/** The first of `paths` that exists, loads, is a VU loop and has ABI `abi`; else what was wrong, or `notBuilt`. */
export function loadVuAddon(paths: readonly string[], abi: number, notBuilt: string): VuAddonLoad {
  const problems: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) continue;
    let mod: unknown;
    try {
      mod = requireNative(p);
    } catch (e) {
      problems.push(`${p} does not load: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (!isBinding(mod)) {
      problems.push(`${p} is not the Sledge VU loop (no start/poll/abiVersion export)`);
      continue;
    }
    if (mod.abiVersion !== abi) {
      problems.push(`${p} is stale (ABI ${mod.abiVersion}, expected ${abi}): rebuild it`);
      continue;
    }
    return { ok: true, path: p, binding: mod };
  }
  return { ok: false, reason: problems.length ? problems.join('; ') : notBuilt };
}

/**
 * Starts a run on an addon: `connection` is the engine's part of the
 * options (conninfo and statements, host/user/... and statements), the rest
 * is the run's. The rings are allocated here and drained by the handle.
 */
export function startVuRun(b: VuBinding, connection: Record<string, unknown>, opts: NativeVuStartOptions): NativeVuHandle {
  const slots = opts.vus.length;
  const ringIndex = new Int32Array(new SharedArrayBuffer(Math.max(1, slots) * RING_STRIDE * 4));
  const ringData = new Int32Array(new SharedArrayBuffer(Math.max(1, slots) * RING_CAPACITY * 2 * 4));
  const id = b.start({ ...opts, ...connection, ringIndex, ringData, ringCapacity: RING_CAPACITY });
  const mask = RING_CAPACITY - 1;
  let disposed = false;
  const live = () => {
    if (disposed) throw new Error('the native VU run was disposed');
    return id;
  };
  return {
    slots,
    drainLatency(onRecord) {
      live();
      let n = 0;
      for (let s = 0; s < slots; s++) {
        const hi = s * RING_STRIDE;
        const head = Atomics.load(ringIndex, hi);
        let tail = ringIndex[hi + RING_TAIL]!;
        const base = s * RING_CAPACITY * 2;
        while (tail !== head) {
          const k = base + ((tail & mask) << 1);
          const meta = ringData[k]!;
          onRecord(s, TX_TYPES[meta & 0xff]!, ringData[k + 1]!, (meta & REC_MEASURING) !== 0);
          tail = (tail + 1) | 0;
          n++;
        }
        Atomics.store(ringIndex, hi + RING_TAIL, tail);
      }
      return n;
    },
    poll() {
      const r = b.poll(live());
      const logs: { vu: number; text: string }[] = [];
      for (let i = 0; i + 1 < r.logs.length; i += 2) logs.push({ vu: r.logs[i] as number, text: r.logs[i + 1] as string });
      return { live: r.live, logs };
    },
    results() {
      return b.results(live());
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      b.dispose(id);
    },
  };
}

/** A statement's outcome on a native loader session: `rows` only when it returned a result set (values as text, NULL as null). */
export interface NativeLoaderResult {
  affectedRows: number;
  warnings: number;
  rows?: Record<string, string | null>[];
}

/**
 * A build worker's loader session in an engine's client library (src/loader_wrap.h),
 * one call at a time, each on libuv's thread pool. A failed call rejects with an
 * Error carrying what the engine's JavaScript driver puts on its own errors
 * (MariaDB: `errno` and `sqlState`; PostgreSQL: `code`, the SQLSTATE).
 */
export interface NativeLoader {
  query(sql: string): Promise<NativeLoaderResult>;
  /** The engine's bulk statement (LOAD DATA LOCAL INFILE naming `name`, or COPY ... FROM STDIN) fed with `data`. */
  loadData(sql: string, name: string, data: Uint8Array): Promise<NativeLoaderResult>;
  close(): Promise<void>;
}

/** The addon's Loader class. */
export type NativeLoaderClass<C> = new () => NativeLoader & { connect(config: C): Promise<void> };

/** A connected session of `Loader`. */
export async function openNativeLoader<C>(Loader: NativeLoaderClass<C>, config: C): Promise<NativeLoader> {
  const l = new Loader();
  await l.connect(config);
  return l;
}
