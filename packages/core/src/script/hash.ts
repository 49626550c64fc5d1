/**
 * pgbench's hash functions and pseudorandom permutation, as its
 * documentation describes them: `hash_fnv1a` (FNV-1a, 64 bits),
 * `hash_murmur2` (MurmurHash64A) of the integer's 8 bytes and a seed, and
 * `permute(i, size, seed)`, a bijection of [0, size). The documentation does
 * not fix their bits, so values differ from pgbench's own; their properties
 * (deterministic per seed, spread, permute has no collisions) are the same.
 */
const M64 = (1n << 64n) - 1n;
const signed = (v: bigint): bigint => BigInt.asIntN(64, v);

export function hashFnv1a(value: bigint, seed: bigint): bigint {
  let h = (0xcbf29ce484222325n ^ BigInt.asUintN(64, seed)) & M64;
  let v = BigInt.asUintN(64, value);
  for (let i = 0; i < 8; i++) {
    h ^= v & 0xffn;
    h = (h * 0x100000001b3n) & M64;
    v >>= 8n;
  }
  return signed(h);
}

export function hashMurmur2(value: bigint, seed: bigint): bigint {
  const m = 0xc6a4a7935bd1e995n;
  let h = (BigInt.asUintN(64, seed) ^ ((8n * m) & M64)) & M64;
  let k = BigInt.asUintN(64, value);
  k = (k * m) & M64;
  k ^= k >> 47n;
  k = (k * m) & M64;
  h ^= k;
  h = (h * m) & M64;
  h ^= h >> 47n;
  h = (h * m) & M64;
  h ^= h >> 47n;
  return signed(h);
}

/** A balanced Feistel network on `bits` (even) bits, keyed by the seed; cycle-walked onto [0, size). */
export function permute(i: bigint, size: bigint, seed: bigint): bigint {
  if (size === 1n) return 0n;
  let x = ((i % size) + size) % size;
  let bits = (size - 1n).toString(2).length;
  if (bits % 2 === 1) bits++;
  const half = BigInt(bits / 2);
  const mask = (1n << half) - 1n;
  const round = (r: bigint, k: number): bigint => hashMurmur2(r ^ (BigInt(k) << 56n), seed) & mask;
  do {
    let l = x >> half;
    let r = x & mask;
    for (let k = 0; k < 4; k++) {
      const next = l ^ round(r, k);
      l = r;
      r = next;
    }
    x = (l << half) | r;
  } while (x >= size);
  return x;
}
