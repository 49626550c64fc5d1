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
import type { NativeVuAssignment, NativeVuHandle, NativeVuResult, NativeVuSpec, NativeVuStartOptions, ScriptNativeHandle, ScriptNativeStartOptions, TxInputs } from '@sledge/core';
import { SledgeError, type TproccMix, type TxType } from '@sledge/protocol';
import { addonCandidatePaths, loadVuAddon, openNativeLoader, startVuRun, type NativeLoader, type NativeLoaderClass, type VuBinding } from './native-vu.js';
import { startScriptRun, type ScriptBinding } from './script-feed.js';

export { RING_CAPACITY } from './native-vu.js';

/** Must equal kAbiVersion in src/pgvu/addon.cc; a binary with another value is stale. */
export const PGVU_ABI_VERSION = 6;

/** Where a build worker's loader session connects (src/pgvu/loader.h): a libpq conninfo string (it holds the password). */
export interface PgLoaderConfig {
  conninfo: string;
  applicationName: string;
}

/** What src/pgvu/addon.cc exports. */
interface PgVuBinding extends VuBinding, ScriptBinding {
  readonly libpqVersion: number;
  readonly Loader: NativeLoaderClass<PgLoaderConfig>;
}

/** The loop's shapes are core's native-loop contract (core/tprocc/hooks.ts); these names are the addon's. */
export type PgVuAssignment = NativeVuAssignment;
/** What the addon's start() takes: the driver's spec plus the run's options. */
export interface PgVuStartOptions extends NativeVuStartOptions {
  spec: NativeVuSpec;
}
export type PgVuResult = NativeVuResult;
export type PgVuHandle = NativeVuHandle;

/** The inputs a VU draws (tests: parity with core's TproccVuInputs). */
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
      /** The script workload's loop (lib/script-feed.ts): one libpq thread per VU running what its feed holds; `conninfo` holds the password. */
      startScript(conninfo: string, opts: ScriptNativeStartOptions): ScriptNativeHandle;
      /** A connected build loader session (COPY ... FROM STDIN from memory, no copy through JavaScript). */
      openLoader(config: PgLoaderConfig): Promise<NativeLoader>;
      /** Test-only: the first `count` draws of one VU's input stream, as the native loop makes them. */
      testInputs(o: InputStreamOptions, count: number, withThink?: boolean): InputStream;
    }
  | { available: false; reason: string };

/** Where the loop is looked for, in order: a prebuild for this platform, then the local build. */
export function pgVuCandidatePaths(): string[] {
  return addonCandidatePaths('sledge_pgvu.node');
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
  const r = loadVuAddon(
    paths,
    PGVU_ABI_VERSION,
    `the native PostgreSQL VU loop is not built (looked for ${paths.join(', ')}); it needs libpq headers (libpq-dev) and a C++ toolchain, then \`pnpm --filter @sledge/worker-native build:native\``,
  );
  const out: PgVuLoad = r.ok ? loaded(r.binding as PgVuBinding, r.path) : { available: false, reason: r.reason };
  if (opts.path === undefined) cached = out;
  return out;
}

function loaded(b: PgVuBinding, path: string): PgVuLoad {
  return {
    available: true,
    path,
    libpqVersion: b.libpqVersion,
    start: (opts) => start(b, opts),
    startScript: (conninfo, opts) => startScriptRun(b, conninfo, opts),
    openLoader: (config) => openNativeLoader(b.Loader, config),
    testInputs: (o, count, withThink = false) => JSON.parse(b.generateInputs(o, count, withThink)) as InputStream,
  };
}

function start(b: PgVuBinding, opts: PgVuStartOptions): PgVuHandle {
  const { spec, ...rest } = opts;
  if (spec.kind !== 'libpq') {
    throw new SledgeError('SLEDGE_E_VALIDATION', `the native PostgreSQL VU loop speaks libpq, not ${JSON.stringify(spec.kind)}`, { field: 'spec.kind' });
  }
  return startVuRun(b, { conninfo: spec.conninfo, statements: spec.statements, rollbackSqlstate: spec.rollbackSqlstate }, rest);
}
