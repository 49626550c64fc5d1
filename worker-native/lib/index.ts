/**
 * @sledge/worker-native: TPROC-C rows generated in C++ (pg-text, csv), byte for
 * byte what core's TproccGenerator produces, with that generator as fallback.
 *
 *   const gen = createGenerator({ seed, timestamp }, 'pg-text', 'auto');
 *   for (const t of gen.generate({ kind: 'stock', w: 1, from: 1, to: 10000 })) copy(t.table, t.data);
 *
 * Native tables carry `data` as a Buffer; TypeScript ones as a string (pg-text,
 * csv) or tuples. Each thread that calls this loads its own addon instance.
 *
 * The package also carries the native VU loops: PostgreSQL (lib/pgvu.ts,
 * `loadPgVuLoop()`), an addon built when libpq is there, and MariaDB/MySQL
 * (lib/myvu.ts, `loadMyVuLoop()`), built when the MariaDB C connector is.
 */
import { TproccGenerator, type BulkFormat, type GenContext, type GeneratedTable, type TproccUnit } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { loadBinding, candidatePaths, type TextFormat } from './load.js';
import { NativeGenerator, checkUnitKind, type GeneratorOptions, type UnitGenerator } from './native-generator.js';

export { NATIVE_ABI_VERSION, candidatePaths, type TextFormat } from './load.js';
export type { UnitGenerator, GeneratorOptions } from './native-generator.js';
export {
  loadPgVuLoop,
  pgVuCandidatePaths,
  PGVU_ABI_VERSION,
  RING_CAPACITY,
  type PgVuLoad,
  type PgVuHandle,
  type PgVuResult,
  type PgVuStartOptions,
  type PgLoaderConfig,
  type PgVuAssignment,
  type InputStream,
  type InputStreamOptions,
  type InputDraw,
} from './pgvu.js';
export { loadMyVuLoop, myVuCandidatePaths, MYVU_ABI_VERSION, type MyVuLoad, type MyVuStartOptions, type MyLoaderConfig } from './myvu.js';
export type { NativeLoader, NativeLoaderResult } from './native-vu.js';
export { FEED_CAPACITY, FeedWriter } from './script-feed.js';

export type NativeGeneratorLoad =
  | { available: true; path: string; generator: (ctx: GenContext, format: TextFormat, o?: GeneratorOptions) => UnitGenerator }
  | { available: false; reason: string };

export type GeneratorPreference = 'native' | 'typescript' | 'auto';

export interface SledgeGenerator extends UnitGenerator {
  readonly kind: 'native' | 'typescript';
  /** Why the TypeScript generator was chosen (absent for native). */
  readonly reason?: string;
}

let cached: NativeGeneratorLoad | undefined;

/**
 * Loads the addon (prebuilds/<platform>-<arch>/ first, then build/Release/) once
 * per thread. `path` loads that file instead (not cached).
 */
export function loadNativeGenerator(opts: { path?: string } = {}): NativeGeneratorLoad {
  if (opts.path === undefined && cached) return cached;
  const r = loadBinding(opts.path === undefined ? candidatePaths() : [opts.path]);
  const out: NativeGeneratorLoad = r.ok
    ? {
        available: true,
        path: r.path,
        generator: (ctx, format, o) => {
          checkContext(ctx);
          if (format !== 'pg-text' && format !== 'csv') {
            throw new SledgeError('SLEDGE_E_VALIDATION', `the native generator writes 'pg-text' or 'csv', not ${JSON.stringify(format)}`, {
              field: 'format',
            });
          }
          return new NativeGenerator(r.binding, ctx, format, o);
        },
      }
    : { available: false, reason: r.reason };
  if (opts.path === undefined) cached = out;
  return out;
}

/**
 * A row generator for `format`: the addon when `prefer` allows it and it loads,
 * else core's TproccGenerator. 'tuples' is always TypeScript. prefer 'native'
 * throws when the addon does not load. `o.reuseBuffers` (native only) lends
 * the same Buffers again: a table's data lasts until the second-next call.
 */
export function createGenerator(ctx: GenContext, format: BulkFormat, prefer: GeneratorPreference = 'auto', o: GeneratorOptions = {}): SledgeGenerator {
  checkContext(ctx);
  if (prefer !== 'native' && prefer !== 'typescript' && prefer !== 'auto') {
    throw new SledgeError('SLEDGE_E_VALIDATION', `generator preference must be 'native', 'typescript' or 'auto', not ${JSON.stringify(prefer)}`, {
      field: 'generator',
    });
  }
  if (format !== 'pg-text' && format !== 'csv' && format !== 'tuples') {
    throw new SledgeError('SLEDGE_E_VALIDATION', `bulk format must be 'pg-text', 'csv' or 'tuples', not ${JSON.stringify(format)}`, { field: 'format' });
  }
  if (format === 'tuples') return typescript(ctx, format, 'the tuples format is generated in TypeScript');
  if (prefer === 'typescript') return typescript(ctx, format, 'TypeScript generator requested');
  const native = loadNativeGenerator();
  if (!native.available) {
    if (prefer === 'native') {
      throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the native row generator is not available: ${native.reason}; or choose 'auto'`, {
        field: 'generator',
      });
    }
    return typescript(ctx, format, native.reason);
  }
  const g = native.generator(ctx, format, o);
  return { kind: 'native', generate: (unit: TproccUnit): GeneratedTable[] => g.generate(unit) };
}

function typescript(ctx: GenContext, format: BulkFormat, reason: string): SledgeGenerator {
  const g = new TproccGenerator(ctx, format);
  return {
    kind: 'typescript',
    reason,
    generate: (unit: TproccUnit): GeneratedTable[] => {
      checkUnitKind(unit);
      return g.generate(unit);
    },
  };
}

function checkContext(ctx: GenContext): void {
  if (typeof ctx !== 'object' || ctx === null) throw new SledgeError('SLEDGE_E_VALIDATION', 'generator context must be { seed, timestamp }', { field: 'ctx' });
  if (typeof ctx.seed !== 'number' || !Number.isFinite(ctx.seed)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'seed must be a finite number (it is used as a 32-bit unsigned integer)', { field: 'ctx.seed' });
  }
  if (typeof ctx.timestamp !== 'string') {
    throw new SledgeError('SLEDGE_E_VALIDATION', "timestamp must be a string such as '2026-11-22 00:00:00'", { field: 'ctx.timestamp' });
  }
}
export {
  createTprochGenerator,
  tprochSharedPool,
  buildTprochSharedPool,
  useTprochSharedPool,
  type TprochGeneratorPreference,
  type TprochUnitGenerator,
} from './tproch-generator.js';
