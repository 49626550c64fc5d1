import { TprochGenerator, buildTprochTextPoolAsync, tprochSizes, TPROCH_TEXT_POOL_SIZE, type TprochGeneratedTable, type TprochUnit } from '@sledge/core';
import { describe, expect, it } from 'vitest';
import { createTprochGenerator, loadNativeGenerator, tprochSharedPool, type TextFormat } from '../lib/index.js';
import { tableDifferences } from './helpers/compare.js';

const native = loadNativeGenerator();
if (!native.available) throw new Error(`the native addon must be built for the parity tests: ${native.reason}`);

// Builds the text pool natively once for this file (and installs it in core for the TypeScript side).
const pool = tprochSharedPool();

const FORMATS: TextFormat[] = ['pg-text', 'csv'];

/** Every unit kind, first/middle/last ranges, several scale factors. */
function units(sf: number): TprochUnit[] {
  const s = tprochSizes(sf);
  return [
    { kind: 'region' },
    { kind: 'supplier', from: 1, to: Math.min(s.supplier, 500) },
    { kind: 'supplier', from: s.supplier, to: s.supplier },
    { kind: 'customer', from: 1, to: 700 },
    { kind: 'customer', from: s.customer - 300, to: s.customer },
    { kind: 'part', from: 1, to: 400 },
    { kind: 'part', from: Math.floor(s.part / 2), to: Math.floor(s.part / 2) + 250 },
    { kind: 'part', from: s.part, to: s.part },
    { kind: 'orders', from: 1, to: 1000 },
    { kind: 'orders', from: s.orders - 500, to: s.orders },
  ];
}

const label = (u: TprochUnit) => JSON.stringify(u);
const asTs = (t: TprochGeneratedTable[]) => t as Parameters<typeof tableDifferences>[1];

describe('TPROC-H native bytes equal the TypeScript generator', () => {
  it('the native pool is byte for byte the TypeScript pool', { timeout: 300_000 }, async () => {
    const ts = new Uint8Array(TPROCH_TEXT_POOL_SIZE);
    await buildTprochTextPoolAsync(ts);
    expect(pool.length).toBe(TPROCH_TEXT_POOL_SIZE);
    expect(Buffer.from(pool.buffer, pool.byteOffset, 40).toString('latin1')).toBe('furiously special foxes haggle furiously');
    expect(Buffer.compare(Buffer.from(pool.buffer, pool.byteOffset, pool.length), Buffer.from(ts.buffer))).toBe(0);
  });

  for (const sf of [1, 0.1, 0.01, 10]) {
    for (const format of FORMATS) {
      it(`SF ${sf}, ${format}: every unit kind`, async () => {
        const n = await createTprochGenerator(sf, format, 'native');
        expect(n.kind).toBe('native');
        const t = new TprochGenerator(sf, format);
        const diffs = units(sf).flatMap((u) => tableDifferences(asTs(n.generate(u)), asTs(t.generate(u))).map((d) => `${label(u)} ${d}`));
        expect(diffs).toEqual([]);
      });
    }
  }

  it('tuples are TypeScript; bad units and preferences are typed errors', async () => {
    expect((await createTprochGenerator(0.01, 'tuples', 'auto')).kind).toBe('typescript');
    const n = await createTprochGenerator(0.01, 'csv', 'native');
    expect(() => n.generate({ kind: 'orders', from: 0, to: 3 })).toThrow(/1\.\.15000/);
    expect(() => n.generate({ kind: 'stock' } as unknown as TprochUnit)).toThrow(/unit kind/);
    await expect(createTprochGenerator(1, 'csv', 'fast' as never)).rejects.toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'generator' });
  });
});
