import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TproccGenerator, type TproccUnit } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { candidatePaths, createGenerator, loadNativeGenerator } from '../lib/index.js';
import { firstDifference } from './helpers/compare.js';

const ctx = { seed: 2024, timestamp: '2026-11-22 00:00:00' };
const unit: TproccUnit = { kind: 'customer', w: 1, d: 3 };
const tmp = mkdtempSync(join(tmpdir(), 'sledge-native-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('loading the addon', () => {
  it('looks for a prebuild for this platform first, then build/Release', () => {
    const paths = candidatePaths();
    expect(paths).toHaveLength(2);
    expect(paths[0]).toMatch(new RegExp(`prebuilds[\\\\/]${process.platform}-${process.arch}[\\\\/]sledge_native\\.node$`));
    expect(paths[1]).toMatch(/build[\\/]Release[\\/]sledge_native\.node$/);
  });

  it('loads the built addon and caches the result per thread', () => {
    const a = loadNativeGenerator();
    expect(a.available).toBe(true);
    expect(loadNativeGenerator()).toBe(a);
  });

  it('reports why when the file is missing', () => {
    const missing = join(tmp, 'missing.node');
    const r = loadNativeGenerator({ path: missing });
    expect(r.available).toBe(false);
    if (!r.available) expect(r.reason).toContain(missing);
  });

  it('reports why when the file is not a loadable addon', () => {
    const bad = join(tmp, 'bad.node');
    writeFileSync(bad, 'not an ELF file');
    const r = loadNativeGenerator({ path: bad });
    expect(r.available).toBe(false);
    if (!r.available) expect(r.reason).toMatch(/bad\.node does not load: .+/);
  });
});

describe('createGenerator', () => {
  const ts = (format: 'pg-text' | 'csv' | 'tuples') => new TproccGenerator(ctx, format).generate(unit);

  it("'auto' picks the addon for text formats and returns Buffers with the TypeScript bytes", () => {
    const g = createGenerator(ctx, 'csv', 'auto');
    expect(g.kind).toBe('native');
    const out = g.generate(unit);
    const ref = ts('csv');
    expect(out.map((t) => [t.table, t.rows])).toEqual(ref.map((t) => [t.table, t.rows]));
    out.forEach((t, i) => {
      expect(Buffer.isBuffer(t.data)).toBe(true);
      expect(firstDifference(t.data as Buffer, Buffer.from(ref[i]!.data as string))).toBeUndefined();
    });
  });

  it("'typescript' uses core's generator and says so", () => {
    const g = createGenerator(ctx, 'pg-text', 'typescript');
    expect(g.kind).toBe('typescript');
    expect(g.reason).toMatch(/requested/);
    expect(g.generate(unit)).toEqual(ts('pg-text'));
  });

  it("'tuples' is always TypeScript, even when native is preferred", () => {
    const g = createGenerator(ctx, 'tuples', 'native');
    expect(g.kind).toBe('typescript');
    expect(g.generate(unit)).toEqual(ts('tuples'));
  });

  it('rejects bad preferences, formats, contexts and unit kinds with typed errors', () => {
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (e) {
        return e instanceof SledgeError ? `${e.code}:${e.field ?? ''}` : `other:${String(e)}`;
      }
      return undefined;
    };
    expect(code(() => createGenerator(ctx, 'pg-text', 'fast' as 'auto'))).toBe('SLEDGE_E_VALIDATION:generator');
    expect(code(() => createGenerator(ctx, 'xml' as 'csv'))).toBe('SLEDGE_E_VALIDATION:format');
    expect(code(() => createGenerator({ seed: 1, timestamp: 5 as unknown as string }, 'csv'))).toBe('SLEDGE_E_VALIDATION:ctx.timestamp');
    expect(code(() => createGenerator({ seed: Number.NaN, timestamp: '' }, 'csv'))).toBe('SLEDGE_E_VALIDATION:ctx.seed');
    for (const prefer of ['native', 'typescript'] as const) {
      const g = createGenerator(ctx, 'pg-text', prefer);
      expect(code(() => g.generate({ kind: 'new_order', w: 1 } as unknown as TproccUnit))).toBe('SLEDGE_E_VALIDATION:unit.kind');
    }
    const native = loadNativeGenerator();
    if (!native.available) throw new Error(native.reason);
    expect(code(() => native.generator(ctx, 'tuples' as 'csv'))).toBe('SLEDGE_E_VALIDATION:format');
  });
});

describe('the comparison used by the parity tests', () => {
  it('finds a single changed byte and names its position', () => {
    const ref = Buffer.from(new TproccGenerator(ctx, 'pg-text').generate({ kind: 'district', w: 1 })[0]!.data as string);
    const changed = Buffer.from(ref);
    changed[500] = changed[500] === 0x41 ? 0x42 : 0x41;
    expect(firstDifference(changed, ref)).toMatch(/first difference at byte 500/);
    expect(firstDifference(ref.subarray(0, ref.length - 1), ref)).toMatch(/lengths/);
    expect(firstDifference(Buffer.from(ref), ref)).toBeUndefined();
  });
});
