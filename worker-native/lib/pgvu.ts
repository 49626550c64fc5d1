/**
 * The native PostgreSQL VU loop (build/Release/sledge_pgvu.node, libpq).
 *
 *   const loop = loadPgVuLoop();
 *   if (loop.available) {
 *     const h = loop.start({ spec, seed, ..., vus, counters, states, control });
 *     setInterval(() => { h.drainLatency(onRecord); const { live, logs } = h.poll(); ... }, 100);
 *   }
 *
 * start() spawns one native thread per VU, so the calling (worker) thread
 * stays free: it only drains latency rings and log lines. Counters, VU states
 * and the control words are the run's SharedArrayBuffers (server
 * shared/layout.ts), written and read with atomics on both sides. Each
 * thread loads its own addon instance; a worker that is terminated aborts
 * and joins its VU threads before its memory goes away.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NativeVuAssignment, NativeVuHandle, NativeVuResult, NativeVuSpec, NativeVuStartOptions, TxInputs } from '@sledge/core';
import { SledgeError, TX_TYPES, type TproccMix, type TxType } from '@sledge/protocol';

/** Must equal kAbiVersion in src/pgvu/addon.cc; a binary with another value is stale. */
export const PGVU_ABI_VERSION = 2;

/** Latency records each VU's ring holds before its thread waits for the worker to drain it. */
export const RING_CAPACITY = 8192;
const RING_STRIDE = 32;
const RING_TAIL = 16;
const REC_MEASURING = 0x100;

/** What src/pgvu/addon.cc exports. */
interface PgVuBinding {
  readonly abiVersion: number;
  readonly libpqVersion: number;
  start(opts: NativeStartOptions): number;
  poll(id: number): { live: number; logs: (number | string)[] };
  results(id: number): PgVuResult[];
  dispose(id: number): void;
  generateInputs(opts: InputStreamOptions, count: number, withThink: boolean): string;
}

interface NativeStartOptions extends Omit<PgVuStartOptions, 'spec'> {
  conninfo: string;
  statements: Record<TxType, string>;
  rollbackSqlstate: string;
  ringIndex: Int32Array;
  ringData: Int32Array;
  ringCapacity: number;
}

/** The loop's shapes are core's native-loop contract (core/tprocc/hooks.ts); these names are the addon's. */
export type PgVuAssignment = NativeVuAssignment;
/** What the addon's start() takes: the driver's spec plus the run's options. */
export interface PgVuStartOptions extends NativeVuStartOptions {
  spec: NativeVuSpec;
}
export type PgVuResult = NativeVuResult;
export type PgVuHandle = NativeVuHandle;

/** The inputs a VU draws (tests: parity with core's VuWorkload). */
export interface InputStreamOptions {
  seed: number;
  warehouses: number;
  position: number;
  activeVus: number;
  allWarehouse: boolean;
  mix: TproccMix;
  client: number;
  /** Mean thinking seconds per type (tprocc.keyThink); TPC-C's when absent. */
  keyThink?: Record<TxType, { keyingSec: number; thinkMeanSec: number }>;
}
export interface InputDraw {
  type: TxType;
  input: TxInputs[TxType];
  /** Text bind parameters as sent to PostgreSQL. */
  params: string[];
  /** Thinking time (ms) drawn after the transaction (withThink), with TPC-C's mean for its type. */
  thinkMs?: number;
}
export interface InputStream {
  homeW: number;
  stockD: number;
  warehouses: number[] | null;
  draws: InputDraw[];
}

export type PgVuLoad =
  | {
      available: true;
      path: string;
      /** PQlibVersion(), e.g. 150020. */
      libpqVersion: number;
      start(opts: PgVuStartOptions): PgVuHandle;
      /** Test-only: the first `count` draws of one VU's input stream, as the native loop makes them. */
      testInputs(o: InputStreamOptions, count: number, withThink?: boolean): InputStream;
    }
  | { available: false; reason: string };

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const requireNative = createRequire(import.meta.url);

/** Where the loop is looked for, in order: a prebuild for this platform, then the local build. */
export function pgVuCandidatePaths(): string[] {
  return [
    join(packageRoot, 'prebuilds', `${process.platform}-${process.arch}`, 'sledge_pgvu.node'),
    join(packageRoot, 'build', 'Release', 'sledge_pgvu.node'),
  ];
}

function isBinding(x: unknown): x is PgVuBinding {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return typeof o.start === 'function' && typeof o.poll === 'function' && typeof o.abiVersion === 'number';
}

let cached: PgVuLoad | undefined;

/**
 * Loads the native VU loop once per thread (prebuild, then build/Release).
 * `path` loads that file instead (not cached): tests use it to simulate a
 * machine where the target was not built.
 */
export function loadPgVuLoop(opts: { path?: string } = {}): PgVuLoad {
  if (opts.path === undefined && cached) return cached;
  const paths = opts.path === undefined ? pgVuCandidatePaths() : [opts.path];
  const problems: string[] = [];
  let out: PgVuLoad | undefined;
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
    if (mod.abiVersion !== PGVU_ABI_VERSION) {
      problems.push(`${p} is stale (ABI ${mod.abiVersion}, expected ${PGVU_ABI_VERSION}): rebuild it`);
      continue;
    }
    out = loaded(mod, p);
    break;
  }
  out ??= {
    available: false,
    reason: problems.length
      ? problems.join('; ')
      : `the native PostgreSQL VU loop is not built (looked for ${paths.join(', ')}); it needs libpq headers (libpq-dev) and a C++ toolchain, then \`pnpm --filter @sledge/worker-native build:native\``,
  };
  if (opts.path === undefined) cached = out;
  return out;
}

function loaded(b: PgVuBinding, path: string): PgVuLoad {
  return {
    available: true,
    path,
    libpqVersion: b.libpqVersion,
    start: (opts) => start(b, opts),
    testInputs: (o, count, withThink = false) => JSON.parse(b.generateInputs(o, count, withThink)) as InputStream,
  };
}

function start(b: PgVuBinding, opts: PgVuStartOptions): PgVuHandle {
  const { spec, ...rest } = opts;
  if (spec.kind !== 'libpq') {
    throw new SledgeError('SLEDGE_E_VALIDATION', `the native VU loop speaks libpq, not ${JSON.stringify(spec.kind)}`, { field: 'spec.kind' });
  }
  const slots = opts.vus.length;
  const ringIndex = new Int32Array(new SharedArrayBuffer(Math.max(1, slots) * RING_STRIDE * 4));
  const ringData = new Int32Array(new SharedArrayBuffer(Math.max(1, slots) * RING_CAPACITY * 2 * 4));
  const id = b.start({
    ...rest,
    conninfo: spec.conninfo,
    statements: spec.statements,
    rollbackSqlstate: spec.rollbackSqlstate,
    ringIndex,
    ringData,
    ringCapacity: RING_CAPACITY,
  });
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
