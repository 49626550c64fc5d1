import { TproccGenerator, type BulkFormat, type GenContext, type GeneratedTable, type TproccUnit } from '@sledge/core';

export interface RowGenerator {
  kind: 'native' | 'typescript';
  generate(unit: TproccUnit): GeneratedTable[];
}

export interface GeneratorOptions {
  /** The native generator writes into Buffers it lends again: a table's data lasts until the second-next generate(). */
  reuseBuffers?: boolean;
}

interface NativeModule {
  createGenerator(ctx: GenContext, format: BulkFormat, prefer: 'auto' | 'native' | 'typescript', o?: GeneratorOptions): RowGenerator;
  loadNativeGenerator(): { available: boolean; reason?: string };
}

let native: Promise<NativeModule | null> | undefined;
/** The worker-native package, or null when it is not installed/built. */
export function nativeModule(): Promise<NativeModule | null> {
  native ??= import('@sledge/worker-native' as string).then(
    (m) => m as NativeModule,
    () => null,
  );
  return native;
}

/**
 * The one function behind which row generation is chosen: the C++ addon
 * when it loads and the format is a text format, else the TypeScript
 * generator (which produces the same bytes).
 */
export async function makeGenerator(ctx: GenContext, format: BulkFormat, prefer: 'auto' | 'native' | 'typescript', o: GeneratorOptions = {}): Promise<RowGenerator> {
  if (prefer !== 'typescript' && format !== 'tuples') {
    const m = await nativeModule();
    if (m) return m.createGenerator(ctx, format, prefer, o);
  }
  const g = new TproccGenerator(ctx, format);
  return { kind: 'typescript', generate: (u) => g.generate(u) };
}

/** What the capabilities endpoint reports. */
export async function generatorStatus(): Promise<{ active: 'native' | 'typescript'; reason?: string }> {
  const m = await nativeModule();
  if (!m) return { active: 'typescript', reason: 'the @sledge/worker-native package is not built' };
  const s = m.loadNativeGenerator();
  return s.available ? { active: 'native' } : { active: 'typescript', reason: s.reason ?? 'the native addon did not load' };
}
