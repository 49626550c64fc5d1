import { TprochGenerator, type BulkFormat, type TprochBuildUnit, type TprochGeneratedTable } from '@sledge/core';

export interface TprochRowGenerator {
  kind: 'native' | 'typescript';
  generate(unit: TprochBuildUnit): TprochGeneratedTable[];
}

interface NativeTproch {
  createTprochGenerator?(scaleFactor: number, format: BulkFormat, pref: 'auto' | 'native' | 'typescript'): Promise<TprochRowGenerator>;
}

/**
 * TPROC-H's row generator: worker-native's createTprochGenerator (the C++
 * generator where it loads, else its TypeScript fallback: the same bytes),
 * or core's TprochGenerator when the native package is not built. Tuples
 * (engines that bind values) always come from TypeScript.
 */
export async function makeTprochGenerator(scaleFactor: number, format: BulkFormat, prefer: 'auto' | 'native' | 'typescript'): Promise<TprochRowGenerator> {
  if (prefer !== 'typescript' && format !== 'tuples') {
    const m = (await import('@sledge/worker-native' as string).catch(() => null)) as NativeTproch | null;
    if (m?.createTprochGenerator) return m.createTprochGenerator(scaleFactor, format, prefer);
  }
  const g = new TprochGenerator(scaleFactor, format);
  return { kind: 'typescript', generate: (u) => g.generate(u) };
}
