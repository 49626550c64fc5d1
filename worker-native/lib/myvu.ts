/**
 * The native MariaDB/MySQL VU loop (build/Release/sledge_myvu.node, the
 * MariaDB C connector): the same loop as the libpq one (lib/pgvu.ts), each
 * transaction a text-protocol CALL of the stored procedures.
 *
 *   const loop = loadMyVuLoop();
 *   if (loop.available) {
 *     const h = loop.start({ spec, seed, ..., vus, counters, states, control });
 *     setInterval(() => { h.drainLatency(onRecord); const { live, logs } = h.poll(); ... }, 100);
 *   }
 */
import type { NativeVuHandle, NativeVuSpec, NativeVuStartOptions } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import type { InputStream, InputStreamOptions } from './pgvu.js';
import { addonCandidatePaths, loadVuAddon, openNativeLoader, startVuRun, type NativeLoader, type NativeLoaderClass, type VuBinding } from './native-vu.js';

/** Must equal kAbiVersion in src/myvu/addon.cc; a binary with another value is stale. */
export const MYVU_ABI_VERSION = 3;

/** Where a build worker's loader session connects (src/myvu/loader.h); `role` is its sledge_role connect attribute. */
export interface MyLoaderConfig {
  host?: string;
  port?: number;
  socket?: string;
  user: string;
  password: string;
  database?: string;
  role: string;
}

/** What src/myvu/addon.cc exports. */
interface MyVuBinding extends VuBinding {
  readonly clientVersion: number;
  readonly Loader: NativeLoaderClass<MyLoaderConfig>;
}

/** What the addon's start() takes: the driver's spec plus the run's options. */
export interface MyVuStartOptions extends NativeVuStartOptions {
  spec: NativeVuSpec;
}

export type MyVuLoad =
  | {
      available: true;
      path: string;
      /** mysql_get_client_version() of the connector, e.g. 30320 for 3.3.20. */
      clientVersion: number;
      start(opts: MyVuStartOptions): NativeVuHandle;
      /** A connected build loader session (LOAD DATA LOCAL INFILE from memory, no copy through JavaScript). */
      openLoader(config: MyLoaderConfig): Promise<NativeLoader>;
      /** Test-only: the first `count` draws of one VU's input stream; params are the CALL's SQL literals. */
      testInputs(o: InputStreamOptions, count: number, withThink?: boolean): InputStream;
    }
  | { available: false; reason: string };

/** Where the loop is looked for, in order: a prebuild for this platform, then the local build. */
export function myVuCandidatePaths(): string[] {
  return addonCandidatePaths('sledge_myvu.node');
}

let cached: MyVuLoad | undefined;

/**
 * Loads the native MariaDB/MySQL VU loop once per thread (prebuild, then
 * build/Release). `path` loads that file instead (not cached).
 */
export function loadMyVuLoop(opts: { path?: string } = {}): MyVuLoad {
  if (opts.path === undefined && cached) return cached;
  const paths = opts.path === undefined ? myVuCandidatePaths() : [opts.path];
  const r = loadVuAddon(
    paths,
    MYVU_ABI_VERSION,
    `the native MariaDB/MySQL VU loop is not built (looked for ${paths.join(', ')}); it needs the MariaDB C connector (libmariadb-dev) and a C++ toolchain, then \`pnpm --filter @sledge/worker-native build:native\``,
  );
  const out: MyVuLoad = r.ok ? loaded(r.binding as MyVuBinding, r.path) : { available: false, reason: r.reason };
  if (opts.path === undefined) cached = out;
  return out;
}

function loaded(b: MyVuBinding, path: string): MyVuLoad {
  return {
    available: true,
    path,
    clientVersion: b.clientVersion,
    start: (opts) => start(b, opts),
    openLoader: (config) => openNativeLoader(b.Loader, config),
    testInputs: (o, count, withThink = false) => JSON.parse(b.generateInputs(o, count, withThink)) as InputStream,
  };
}

function start(b: MyVuBinding, opts: MyVuStartOptions): NativeVuHandle {
  const { spec, ...rest } = opts;
  if (spec.kind !== 'libmariadb') {
    throw new SledgeError('SLEDGE_E_VALIDATION', `the native MariaDB/MySQL VU loop speaks libmariadb, not ${JSON.stringify(spec.kind)}`, { field: 'spec.kind' });
  }
  const { host, port, socket, user, password, database, statements } = spec;
  return startVuRun(b, { host, port, socket, user, password, database, statements }, rest);
}
