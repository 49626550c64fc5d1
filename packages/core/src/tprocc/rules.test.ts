import { describe, expect, it } from 'vitest';
import { Rng, streamKey } from '../random.js';
import { alphaString, decimal, lastName, makeOriginal, namesakeIndex, nurand, originalSet, overTemplate, phone, zip } from './rules.js';

describe('Rng', () => {
  it('is reproducible for a key and differs across keys', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const sa = Array.from({ length: 100 }, () => a.next());
    expect(Array.from({ length: 100 }, () => b.next())).toEqual(sa);
    expect(Array.from({ length: 100 }, () => c.next())).not.toEqual(sa);
    expect(streamKey(1, 2, 3, 4)).toBe(streamKey(1, 2, 3, 4));
    expect(streamKey(1, 2, 3, 4)).not.toBe(streamKey(1, 2, 4, 3));
  });

  it('RandomNumber is uniform and inclusive', () => {
    const r = new Rng(7);
    const counts = new Array<number>(10).fill(0);
    const n = 200000;
    for (let i = 0; i < n; i++) counts[r.int(1, 10) - 1]!++;
    for (const c of counts) expect(Math.abs(c / n - 0.1)).toBeLessThan(0.005);
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < 10000; i++) {
      const x = r.int(5, 15);
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    expect([lo, hi]).toEqual([5, 15]);
  });
});

describe('TPC-C rules', () => {
  it('NURand(255,0,999,123) covers 0..999 non-uniformly', () => {
    const r = new Rng(1);
    const counts = new Array<number>(1000).fill(0);
    const n = 500000;
    for (let i = 0; i < n; i++) {
      const x = nurand(r, 255, 0, 999, 123);
      if (x < 0 || x > 999) throw new Error(`out of range: ${x}`);
      counts[x]!++;
    }
    const sorted = [...counts].sort((a, b) => a - b);
    // Non-uniform: the most frequent values are several times the least frequent.
    expect(sorted[999]! / Math.max(1, sorted[0]!)).toBeGreaterThan(3);
    // Every value is reachable.
    expect(sorted[0]).toBeGreaterThan(0);
    // The mean of the OR of two uniforms is above the uniform mean (bits biased to 1), shifted by C.
    const mean = counts.reduce((s, c, i) => s + c * i, 0) / n;
    expect(mean).not.toBeCloseTo(499.5, 0);
  });

  it('last names are built from the syllables by digit', () => {
    expect(lastName(0)).toBe('BARBARBAR');
    expect(lastName(371)).toBe('PRICALLYOUGHT');
    expect(lastName(999)).toBe('EINGEINGEING');
  });

  it('zip and phone follow the templates', () => {
    expect(overTemplate(42, '000011111')).toBe('420011111');
    const r = new Rng(3);
    for (let i = 0; i < 1000; i++) {
      const z = zip(r);
      expect(z).toMatch(/^\d{9}$/);
      expect(z.endsWith('11111') || /^\d{5}/.test(z)).toBe(true);
      expect(phone(r)).toMatch(/^\d{16}$/);
    }
  });

  it('a-strings have lengths in range over 62 characters', () => {
    const r = new Rng(9);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const s = alphaString(r, 26, 50);
      expect(s.length).toBeGreaterThanOrEqual(26);
      expect(s.length).toBeLessThanOrEqual(50);
      expect(s).toMatch(/^[0-9A-Za-z]+$/);
      for (const ch of s) seen.add(ch);
    }
    expect(seen.size).toBe(62);
  });

  it('"original" marks about 9.5% of 100000 rows at a random position', () => {
    const set = originalSet(new Rng(11), 100000);
    const n = set.reduce((s, x) => s + x, 0);
    // 10000 draws with replacement: expected 100000·(1-(1-1e-5)^10000) ≈ 9516
    expect(n).toBeGreaterThan(9300);
    expect(n).toBeLessThan(9750);
    const r = new Rng(5);
    const s = makeOriginal(r, 'x'.repeat(30));
    expect(s.length).toBe(30);
    expect(s).toContain('original');
  });

  it('decimal formats fixed-point units', () => {
    expect(decimal(1234, 2)).toBe('12.34');
    expect(decimal(5, 2)).toBe('0.05');
    expect(decimal(-1000, 2)).toBe('-10.00');
    expect(decimal(300000, 0)).toBe('300000');
  });
});

describe('namesakeIndex', () => {
  it('picks row ceil(n/2) (1-based) of n namesakes', () => {
    expect([1, 2, 3, 4, 5].map(namesakeIndex)).toEqual([0, 0, 1, 1, 2]);
  });
  it('refuses an empty or non-integer count', () => {
    expect(() => namesakeIndex(0)).toThrow(RangeError);
    expect(() => namesakeIndex(1.5)).toThrow(RangeError);
  });
});
