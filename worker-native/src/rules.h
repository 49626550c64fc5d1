// TPC-C random rules, mirroring packages/core/src/tprocc/rules.ts call for
// call: every function draws from the Rng in exactly the same order.
#pragma once

#include <cstdint>
#include <cstring>

#include "byte_out.h"
#include "rng.h"

namespace sledge {

inline constexpr char kAlpha[63] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// rules.ts alphaFixed: len characters, each ALPHA[floor(random() * 62)].
// The generator runs on a local copy: byte stores through p may alias any
// object, so state behind a reference would be reloaded after every byte.
inline uint8_t* putAlphaFixed(Rng& rng, uint8_t* p, int64_t len) {
  Rng local = rng;
  for (int64_t i = 0; i < len; i++) p[i] = static_cast<uint8_t>(kAlpha[local.below(62)]);
  rng = local;
  return len > 0 ? p + len : p;
}

// rules.ts alphaString: length RandomNumber(min, max), then alphaFixed.
inline uint8_t* putAlphaString(Rng& rng, uint8_t* p, int64_t min, int64_t max) {
  return putAlphaFixed(rng, p, rng.between(min, max));
}

// rules.ts makeOriginal on the len bytes at data (len >= 8).
inline void makeOriginal(Rng& rng, uint8_t* data, int64_t len) {
  const int64_t pos = rng.between(0, len - 8);
  std::memcpy(data + pos, "original", 8);
}

// rules.ts nurand(A, x, y, C); R(0, A) is drawn before R(x, y).
inline int64_t nurand(Rng& rng, int64_t A, int64_t x, int64_t y, int64_t C) {
  const int64_t r1 = rng.between(0, A);
  const int64_t r2 = rng.between(x, y);
  return (((r1 | r2) + C) % (y - x + 1)) + x;
}

struct Syllable {
  char text[6];
  uint8_t len;
};
inline constexpr Syllable kSyllables[10] = {
    {"BAR", 3}, {"OUGHT", 5}, {"ABLE", 4}, {"PRI", 3}, {"PRES", 4},
    {"ESE", 3}, {"ANTI", 4}, {"CALLY", 5}, {"ATION", 5}, {"EING", 4},
};

// rules.ts lastName(n) for 0 <= n <= 999.
inline uint8_t* putLastName(uint8_t* p, int64_t n) {
  const Syllable& a = kSyllables[(n / 100) % 10];
  const Syllable& b = kSyllables[(n / 10) % 10];
  const Syllable& c = kSyllables[n % 10];
  p = putBytes(p, a.text, a.len);
  p = putBytes(p, b.text, b.len);
  return putBytes(p, c.text, c.len);
}

// rules.ts zip: RandomNumber(0, 9999) over "000011111".
inline uint8_t* putZip(Rng& rng, uint8_t* p) {
  return putOverTemplate(p, static_cast<uint64_t>(rng.between(0, 9999)), "000011111", 9);
}

// rules.ts phone: two RandomNumber(0, 99999999), each over "00000000".
inline uint8_t* putPhone(Rng& rng, uint8_t* p) {
  p = putOverTemplate(p, static_cast<uint64_t>(rng.between(0, 99999999)), "00000000", 8);
  return putOverTemplate(p, static_cast<uint64_t>(rng.between(0, 99999999)), "00000000", 8);
}

}  // namespace sledge
