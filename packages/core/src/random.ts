/**
 * Seedable PRNG shared bit-for-bit with worker-native (C++): sfc32 seeded by
 * splitmix32 from a 32-bit key. All arithmetic is on uint32, so JS and C++
 * produce the same sequence for the same key.
 *
 * Streams: a workload derives an independent generator per unit of work
 * (table, warehouse, district, chunk) with `streamKey`, so data does not depend
 * on how warehouses are split across build workers.
 */
export class Rng {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  constructor(key: number) {
    let s = key >>> 0;
    const sm = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Next uint32. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform double in [0, 1) with 32 bits of randomness (like Tcl's rand()). */
  random(): number {
    return this.next() / 4294967296;
  }

  /** HammerDB's RandomNumber(m, M): uniform integer, both ends inclusive. */
  int(m: number, M: number): number {
    return m + Math.floor(this.random() * (M - m + 1));
  }
}

/** murmur3 finaliser on uint32. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Key of an independent stream for (seed, tag, x, y). */
export function streamKey(seed: number, tag: number, x = 0, y = 0): number {
  let h = fmix32((seed >>> 0) ^ Math.imul(tag + 1, 0x9e3779b1));
  h = fmix32(h ^ Math.imul(x + 1, 0x85ebca77));
  h = fmix32(h ^ Math.imul(y + 1, 0xc2b2ae3d));
  return h;
}

/** A fresh random 32-bit seed (for jobs that do not give one). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 4294967296) >>> 0;
}
