/**
 * TPROC-H rows (dbgen's) from the addon (pg-text, csv), byte for byte what
 * core's TprochGenerator writes, with that generator as fallback.
 *
 *   const gen = await createTprochGenerator(1, 'pg-text', 'auto');
 *   for (const t of gen.generate({ kind: 'orders', from: 1, to: 10000 })) copy(t.table, t.data);
 *
 * Both need dbgen's 300 MiB comment text pool. It is built once per thread
 * (natively when the addon loads: well under a second at full speed, against
 * seconds in TypeScript) into a SharedArrayBuffer and installed in core
 * (setTprochTextPool), so the TypeScript path (tuples, fallback) uses the
 * same bytes. Another thread can be handed that pool (`tprochSharedPool()`
 * → postMessage → `useTprochSharedPool(pool)`) instead of building its own.
 */
import {
  TprochGenerator,
  buildTprochTextPoolAsync,
  hasTprochTextPool,
  setTprochTextPool,
  tprochCheckUnit,
  tprochSizes,
  tprochTextPool,
  TPROCH_TEXT_POOL_SIZE,
  type BulkFormat,
  type TprochGeneratedTable,
  type TprochSizes,
  type TprochUnit,
} from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { loadBinding, type NativeBinding, type TextFormat } from './load.js';

export type TprochGeneratorPreference = 'auto' | 'native' | 'typescript';

export interface TprochUnitGenerator {
  readonly kind: 'native' | 'typescript';
  /** Why the TypeScript generator was chosen (absent for native). */
  readonly reason?: string;
  generate(u: TprochUnit): TprochGeneratedTable[];
}

let binding: { ok: true; b: NativeBinding } | { ok: false; reason: string } | undefined;

function nativeBinding(): { ok: true; b: NativeBinding } | { ok: false; reason: string } {
  if (!binding) {
    const r = loadBinding();
    binding =
      r.ok && typeof r.binding.tprochGenerate === 'function' && typeof r.binding.tprochBuildPool === 'function'
        ? { ok: true, b: r.binding }
        : { ok: false, reason: r.ok ? `${r.path} has no TPROC-H generator` : r.reason };
  }
  return binding;
}

/**
 * The thread's text pool (a SharedArrayBuffer view): built natively when the
 * addon loads, else by core in TypeScript; installed in core either way.
 */
export function tprochSharedPool(): Uint8Array {
  if (hasTprochTextPool()) return tprochTextPool();
  const nb = nativeBinding();
  if (!nb.ok) return tprochTextPool();
  const pool = new Uint8Array(new SharedArrayBuffer(TPROCH_TEXT_POOL_SIZE));
  nb.b.tprochBuildPool(pool);
  setTprochTextPool(pool);
  return pool;
}

/**
 * A new text pool in a SharedArrayBuffer, not installed in this thread:
 * built natively where the addon loads (and `pref` is not 'typescript'),
 * else in TypeScript in chunks that leave the event loop free. A TPROC-H
 * build makes one and hands it to every worker (useTprochSharedPool), so
 * the pool is built once per build instead of once per worker, and this
 * thread keeps nothing once the workers are gone.
 */
export async function buildTprochSharedPool(pref: TprochGeneratorPreference = 'auto'): Promise<Uint8Array> {
  const pool = new Uint8Array(new SharedArrayBuffer(TPROCH_TEXT_POOL_SIZE));
  const nb = pref === 'typescript' ? undefined : nativeBinding();
  if (nb?.ok) nb.b.tprochBuildPool(pool);
  else await buildTprochTextPoolAsync(pool);
  return pool;
}

/** Installs a pool another thread built (from tprochSharedPool() or buildTprochSharedPool(), sent with postMessage or workerData). */
export function useTprochSharedPool(pool: Uint8Array): void {
  setTprochTextPool(pool);
}

class NativeTprochGenerator implements TprochUnitGenerator {
  readonly kind = 'native' as const;
  constructor(
    private readonly b: NativeBinding,
    private readonly sizes: TprochSizes,
    private readonly format: TextFormat,
    private readonly pool: Uint8Array,
  ) {}

  generate(u: TprochUnit): TprochGeneratedTable[] {
    const range = tprochCheckUnit(this.sizes, u);
    const from = range ? (u as { from: number }).from : 0;
    const to = range ? (u as { to: number }).to : 0;
    const s = this.sizes;
    return this.b.tprochGenerate(
      {
        kind: u.kind,
        from,
        to,
        seq: 0,
        orderRowsBefore: Math.max(0, from - 1),
        lineRowsBefore: Math.max(0, from - 1),
        supplier: s.supplier,
        customer: s.customer,
        part: s.part,
        orders: s.orders,
        scale: s.scale,
      },
      this.format,
      this.pool,
    );
  }
}

function typescript(sf: number, format: BulkFormat, reason: string): TprochUnitGenerator {
  const g = new TprochGenerator(sf, format);
  return { kind: 'typescript', reason, generate: (u) => g.generate(u) };
}

/**
 * A TPROC-H row generator for `format`: the addon when `pref` allows it and
 * it loads, else core's TprochGenerator ('tuples' is always TypeScript).
 * pref 'native' rejects when the addon does not load. The native generator
 * builds (or takes this thread's) text pool before it resolves; the
 * TypeScript one on its first comment.
 */
export async function createTprochGenerator(scaleFactor: number, format: BulkFormat, pref: TprochGeneratorPreference = 'auto'): Promise<TprochUnitGenerator> {
  if (pref !== 'native' && pref !== 'typescript' && pref !== 'auto') {
    throw new SledgeError('SLEDGE_E_VALIDATION', `generator preference must be 'native', 'typescript' or 'auto', not ${JSON.stringify(pref)}`, {
      field: 'generator',
    });
  }
  if (format !== 'pg-text' && format !== 'csv' && format !== 'tuples') {
    throw new SledgeError('SLEDGE_E_VALIDATION', `format must be 'pg-text', 'csv' or 'tuples', not ${JSON.stringify(format)}`, { field: 'format' });
  }
  const sizes = tprochSizes(scaleFactor);
  await Promise.resolve();
  // The TypeScript generator builds the pool on its first comment (lazily).
  if (pref === 'typescript') {
    return typescript(scaleFactor, format, "the 'typescript' generator was asked for");
  }
  const nb = nativeBinding();
  if (!nb.ok) {
    if (pref === 'native') {
      throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the native TPROC-H generator is not available: ${nb.reason}; or choose 'auto'`, {
        field: 'generator',
      });
    }
    return typescript(scaleFactor, format, nb.reason);
  }
  const pool = tprochSharedPool();
  if (format === 'tuples') return typescript(scaleFactor, format, "'tuples' are generated in TypeScript");
  return new NativeTprochGenerator(nb.b, sizes, format, pool);
}
