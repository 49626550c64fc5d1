import { TproccGenerator, type GenContext, type TproccUnit } from '@sledge/core';
import { describe, expect, it } from 'vitest';
import { loadNativeGenerator, type TextFormat } from '../lib/index.js';
import { tableDifferences } from './helpers/compare.js';

const native = loadNativeGenerator();
if (!native.available) throw new Error(`the native addon must be built for the parity tests: ${native.reason}`);
const nativeGenerator = native.generator;

const SEEDS = [0, 1, 12345, 0xdeadbeef, 0xffffffff];
const FORMATS: TextFormat[] = ['pg-text', 'csv'];
const TIMESTAMP = '2026-11-22 00:00:00';

/** Every unit kind: item and stock chunks incl. the first and last, districts 1 and 10. */
const UNITS: TproccUnit[] = [
  { kind: 'item', from: 1, to: 10000 },
  { kind: 'item', from: 50001, to: 60000 },
  { kind: 'item', from: 90001, to: 100000 },
  { kind: 'warehouse', w: 1 },
  { kind: 'warehouse', w: 17 },
  { kind: 'stock', w: 1, from: 1, to: 10000 },
  { kind: 'stock', w: 1, from: 90001, to: 100000 },
  { kind: 'stock', w: 3, from: 1, to: 10000 },
  { kind: 'stock', w: 2, from: 40001, to: 50000 },
  { kind: 'district', w: 1 },
  { kind: 'district', w: 9 },
  { kind: 'customer', w: 1, d: 1 },
  { kind: 'customer', w: 1, d: 10 },
  { kind: 'customer', w: 4, d: 5 },
  { kind: 'orders', w: 1, d: 1 },
  { kind: 'orders', w: 1, d: 10 },
  { kind: 'orders', w: 6, d: 3 },
];

const label = (u: TproccUnit) => JSON.stringify(u);

function compare(ctx: GenContext, format: TextFormat, units: readonly TproccUnit[]): string[] {
  // One generator each for the whole sequence, so cached "original" sets are exercised as a build worker would.
  const n = nativeGenerator(ctx, format);
  const t = new TproccGenerator(ctx, format);
  return units.flatMap((u) => tableDifferences(n.generate(u), t.generate(u)).map((d) => `${label(u)} ${d}`));
}

describe('native bytes equal the TypeScript generator', () => {
  for (const seed of SEEDS) {
    for (const format of FORMATS) {
      it(`seed ${seed}, ${format}: every unit kind`, () => {
        expect(compare({ seed, timestamp: TIMESTAMP }, format, UNITS)).toEqual([]);
      });
    }
  }

  it('interleaved warehouses reuse and evict the cached stock sets correctly', () => {
    const units: TproccUnit[] = [];
    for (const w of [1, 2, 3, 4, 5, 1, 6, 2, 5]) units.push({ kind: 'stock', w, from: 1, to: 2000 });
    units.push({ kind: 'item', from: 1, to: 3000 });
    expect(compare({ seed: 77, timestamp: TIMESTAMP }, 'pg-text', units)).toEqual([]);
    // A second seed in the same thread: the per-instance item set must follow the seed.
    expect(compare({ seed: 78, timestamp: TIMESTAMP }, 'pg-text', [{ kind: 'item', from: 1, to: 3000 }, { kind: 'stock', w: 1, from: 1, to: 2000 }])).toEqual([]);
  });

  it('edge ranges: partial chunks, ranges past MAXITEMS, negative and empty ranges', () => {
    const units: TproccUnit[] = [
      { kind: 'item', from: 5, to: 17 },
      { kind: 'item', from: -3, to: 3 },
      { kind: 'item', from: 99995, to: 100010 },
      { kind: 'item', from: 10, to: 9 },
      { kind: 'stock', w: 2, from: 99990, to: 100004 },
      { kind: 'stock', w: -1, from: 0, to: 5 },
      { kind: 'warehouse', w: 2147483647 },
      { kind: 'district', w: -2147483648 },
      { kind: 'customer', w: 100000, d: 11 },
      { kind: 'orders', w: 0, d: 0 },
    ];
    for (const format of FORMATS) expect(compare({ seed: 4242, timestamp: TIMESTAMP }, format, units)).toEqual([]);
  });

  it('seeds are used as seed >>> 0, like streamKey does', () => {
    for (const seed of [-1, 2 ** 32 + 5, 3.75, -123456789]) {
      expect(compare({ seed, timestamp: TIMESTAMP }, 'csv', [{ kind: 'warehouse', w: 1 }, { kind: 'item', from: 1, to: 500 }])).toEqual([]);
    }
  });

  it('timestamps are copied as UTF-8, whatever they hold', () => {
    for (const timestamp of ['2026-11-22 00:00:00.123456+01', '', 'Zeit 22.11.2026 ü € 😀', 'lone \ud800 surrogate']) {
      const units: TproccUnit[] = [{ kind: 'customer', w: 1, d: 2 }, { kind: 'orders', w: 1, d: 2 }];
      expect(compare({ seed: 9, timestamp }, 'pg-text', units)).toEqual([]);
    }
  });

  it('units with numbers the addon does not take go to the TypeScript path with the same bytes', () => {
    const odd = [
      { kind: 'warehouse', w: 1.5 },
      { kind: 'district', w: 2 ** 40 },
      { kind: 'item', from: 1, to: 10.5 },
    ] as TproccUnit[];
    const n = nativeGenerator({ seed: 5, timestamp: TIMESTAMP }, 'pg-text');
    const t = new TproccGenerator({ seed: 5, timestamp: TIMESTAMP }, 'pg-text');
    for (const u of odd) {
      const a = n.generate(u);
      const b = t.generate(u);
      expect(a.map((x) => [x.table, x.rows, Buffer.from(x.data as string | Uint8Array).toString('hex')])).toEqual(
        b.map((x) => [x.table, x.rows, Buffer.from(x.data as string).toString('hex')]),
      );
    }
  });
});

describe('lent Buffers (reuseBuffers, as build workers generate)', () => {
  it('gives the same bytes as new Buffers, and a unit stays intact while the next one is generated', () => {
    for (const format of FORMATS) {
      const ctx = { seed: 12345, timestamp: TIMESTAMP };
      const fresh = nativeGenerator(ctx, format);
      const reuse = nativeGenerator(ctx, format, { reuseBuffers: true });
      // Every kind three times over, so each kind's lent Buffers are written again (two sets, in turn).
      const units = [...UNITS, ...UNITS, ...UNITS];
      let lentTables = 0;
      let previous: { tables: ReturnType<typeof reuse.generate>; copies: Buffer[] } | undefined;
      for (const u of units) {
        const want = fresh.generate(u);
        const got = reuse.generate(u);
        expect(got.map((t) => [t.table, t.rows]), label(u)).toEqual(want.map((t) => [t.table, t.rows]));
        got.forEach((t, i) => expect(Buffer.compare(t.data as Buffer, want[i]!.data as Buffer), `${label(u)} ${t.table}`).toBe(0));
        // The unit before this one (the one a build worker is still loading) is unchanged.
        if (previous) previous.tables.forEach((t, i) => expect(Buffer.compare(t.data as Buffer, previous!.copies[i]!)).toBe(0));
        lentTables += got.filter((t) => (t.data as Buffer).buffer.byteLength > (t.data as Buffer).byteLength).length;
        previous = { tables: got, copies: got.map((t) => Buffer.from(t.data as Buffer)) };
      }
      // From the second round on, the big tables come in lent Buffers (with headroom).
      expect(lentTables).toBeGreaterThan(UNITS.length);
    }
  });
});
