import { TPROCH_TEXT_POOL_SIZE, TprochGenerator, buildTprochTextPoolAsync, type BulkFormat, type TprochBuildUnit, type TprochGeneratedTable } from '@sledge/core';

export interface TprochRowGenerator {
  kind: 'native' | 'typescript';
  generate(unit: TprochBuildUnit): TprochGeneratedTable[];
}

interface NativeTproch {
  createTprochGenerator?(scaleFactor: number, format: BulkFormat, pref: 'auto' | 'native' | 'typescript'): Promise<TprochRowGenerator>;
  buildTprochSharedPool?(pref: 'auto' | 'native' | 'typescript'): Promise<Uint8Array>;
}

const nativeTproch = async (): Promise<NativeTproch | null> => (await import('@sledge/worker-native' as string).catch(() => null)) as NativeTproch | null;

/**
 * TPROC-H's row generator: worker-native's createTprochGenerator (the C++
 * generator where it loads, else its TypeScript fallback: the same bytes),
 * or core's TprochGenerator when the native package is not built. Tuples
 * (engines that bind values) always come from TypeScript.
 */
export async function makeTprochGenerator(scaleFactor: number, format: BulkFormat, prefer: 'auto' | 'native' | 'typescript'): Promise<TprochRowGenerator> {
  if (prefer !== 'typescript' && format !== 'tuples') {
    const m = await nativeTproch();
    if (m?.createTprochGenerator) return m.createTprochGenerator(scaleFactor, format, prefer);
  }
  const g = new TprochGenerator(scaleFactor, format);
  return { kind: 'typescript', generate: (u) => g.generate(u) };
}

/**
 * dbgen's 300 MiB comment text pool for one build's (or datagen's) workers,
 * built once in this thread into a SharedArrayBuffer (natively where the
 * addon loads, else in TypeScript) and passed to each worker in its
 * workerData: every worker installs it (setTprochTextPool) instead of
 * building its own. The bytes are the same either way (the parity tests).
 */
export async function makeTprochTextPool(prefer: 'auto' | 'native' | 'typescript'): Promise<Uint8Array> {
  if (prefer !== 'typescript') {
    const m = await nativeTproch();
    if (m?.buildTprochSharedPool) return m.buildTprochSharedPool(prefer);
  }
  const pool = new Uint8Array(new SharedArrayBuffer(TPROCH_TEXT_POOL_SIZE));
  await buildTprochTextPoolAsync(pool);
  return pool;
}
