import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { TproccUnit } from '@sledge/core';
import type { TprochTable } from '@sledge/protocol';

/** Must equal kAbiVersion in src/addon.cc; a binary with another value is stale. */
export const NATIVE_ABI_VERSION = 3;

/** Bulk formats the addon writes ('tuples' stays in TypeScript). */
export type TextFormat = 'pg-text' | 'csv';

/** What src/addon.cc exports. */
export interface NativeBinding {
  readonly abiVersion: number;
  /** `into`: Buffers lent for the unit's tables by position (see native-generator.ts). */
  generate(unit: TproccUnit, ctx: { seed: number; timestamp: string }, format: TextFormat, into?: Buffer[]): unknown[];
  /** TPROC-H: fills the 300 MiB text pool (src/tproch_addon.h). */
  tprochBuildPool(pool: Uint8Array): void;
  /** TPROC-H: one unit's tables (lib/tproch-generator.ts builds the request). */
  tprochGenerate(req: TprochNativeRequest, format: TextFormat, pool: Uint8Array): { table: TprochTable; rows: number; data: Uint8Array }[];
}

/** What tprochGenerate takes: the unit, where its streams start, and the table sizes. */
export interface TprochNativeRequest {
  kind: 'region' | 'supplier' | 'customer' | 'part' | 'orders';
  from: number;
  to: number;
  seq: number;
  orderRowsBefore: number;
  lineRowsBefore: number;
  supplier: number;
  customer: number;
  part: number;
  orders: number;
  scale: number;
}

export type BindingLoad = { ok: true; path: string; binding: NativeBinding } | { ok: false; reason: string };

/** Package root: lib/ (vitest) and dist/ (built) both sit one level below it. */
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const requireNative = createRequire(import.meta.url);

/** Where the addon is looked for, in order: a prebuild for this platform, then the local build. */
export function candidatePaths(): string[] {
  return [
    join(packageRoot, 'prebuilds', `${process.platform}-${process.arch}`, 'sledge_native.node'),
    join(packageRoot, 'build', 'Release', 'sledge_native.node'),
  ];
}

function isBinding(x: unknown): x is NativeBinding {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return typeof o.generate === 'function' && typeof o.abiVersion === 'number';
}

function loadOne(path: string): BindingLoad {
  let mod: unknown;
  try {
    mod = requireNative(path);
  } catch (e) {
    return { ok: false, reason: `${path} does not load: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!isBinding(mod)) return { ok: false, reason: `${path} is not the Sledge addon (no generate/abiVersion export)` };
  if (mod.abiVersion !== NATIVE_ABI_VERSION) {
    return { ok: false, reason: `${path} is stale (ABI ${mod.abiVersion}, expected ${NATIVE_ABI_VERSION}): rebuild it` };
  }
  return { ok: true, path, binding: mod };
}

/**
 * Loads the addon from the first of `paths` (default: candidatePaths()) that
 * exists and loads; the reason lists what was wrong with each otherwise.
 */
export function loadBinding(paths: readonly string[] = candidatePaths()): BindingLoad {
  const problems: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const r = loadOne(p);
    if (r.ok) return r;
    problems.push(r.reason);
  }
  if (problems.length > 0) return { ok: false, reason: problems.join('; ') };
  return {
    ok: false,
    reason:
      `no native addon (looked for ${paths.join(', ')}); build it with ` +
      '`pnpm --filter @sledge/worker-native build:native` (needs a C++ compiler, make and python3)',
  };
}
