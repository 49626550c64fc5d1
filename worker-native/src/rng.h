// PRNG shared bit-for-bit with packages/core/src/random.ts: sfc32 seeded by
// splitmix32 from a 32-bit key, streams keyed by fmix32. All uint32 math; the
// double steps (random(), between()) are the same IEEE operations JS performs.
#pragma once

#include <cmath>
#include <cstdint>

namespace sledge {

// murmur3 finaliser (random.ts fmix32).
inline uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// random.ts streamKey(seed, tag, x, y). x and y wrap to 32 bits exactly like
// Math.imul(x + 1, k) does for integers.
inline uint32_t streamKey(uint32_t seed, uint32_t tag, int64_t x = 0, int64_t y = 0) {
  uint32_t h = fmix32(seed ^ ((tag + 1u) * 0x9e3779b1u));
  h = fmix32(h ^ ((static_cast<uint32_t>(x) + 1u) * 0x85ebca77u));
  h = fmix32(h ^ ((static_cast<uint32_t>(y) + 1u) * 0xc2b2ae3du));
  return h;
}

class Rng {
 public:
  explicit Rng(uint32_t key) {
    uint32_t s = key;
    auto sm = [&s]() {
      s += 0x9e3779b9u;
      return fmix32(s);
    };
    a_ = sm();
    b_ = sm();
    c_ = sm();
    d_ = sm();
    for (int i = 0; i < 12; i++) next();
  }

  // Next uint32 (sfc32).
  inline uint32_t next() {
    const uint32_t t = a_ + b_ + d_;
    d_ += 1;
    a_ = b_ ^ (b_ >> 9);
    b_ = c_ + (c_ << 3);
    c_ = (c_ << 21) | (c_ >> 11);
    c_ += t;
    return t;
  }

  // Uniform double in [0, 1): next() / 2^32 (exact).
  inline double random() { return static_cast<double>(next()) / 4294967296.0; }

  // floor(random() * n) for 0 < n < 2^21: r = x/2^32 is exact and x*n < 2^53,
  // so the double product is exact and equals the integer (x*n) >> 32.
  inline uint32_t below(uint32_t n) {
    return static_cast<uint32_t>((static_cast<uint64_t>(next()) * n) >> 32);
  }

  // HammerDB's RandomNumber(m, M) as random.ts int(): m + floor(random() * (M - m + 1)).
  inline int64_t between(int64_t m, int64_t M) {
    const int64_t n = M - m + 1;
    if (n > 0 && n < (int64_t{1} << 21)) return m + below(static_cast<uint32_t>(n));
    return m + static_cast<int64_t>(std::floor(random() * static_cast<double>(n)));
  }

 private:
  uint32_t a_ = 0, b_ = 0, c_ = 0, d_ = 0;
};

}  // namespace sledge
