#include "original_sets.h"

#include "rng.h"

namespace sledge {

namespace {

constexpr uint32_t kTagItemOriginal = 1;
constexpr uint32_t kTagStockOriginal = 4;
constexpr int kDraws = 10000;

// rules.ts originalSet: 10000 draws of RandomNumber(1, n), duplicates allowed.
void fill(std::vector<uint8_t>& bits, uint32_t key) {
  bits.assign(static_cast<size_t>(kMaxItems) + 1, 0);
  Rng rng(key);
  for (int i = 0; i < kDraws; i++) bits[static_cast<size_t>(rng.between(1, kMaxItems))] = 1;
}

}  // namespace

const uint8_t* OriginalSets::item(uint32_t seed) {
  if (!item_.valid || item_.seed != seed) {
    fill(item_.bits, streamKey(seed, kTagItemOriginal));
    item_.valid = true;
    item_.seed = seed;
  }
  return item_.bits.data();
}

const uint8_t* OriginalSets::stock(uint32_t seed, int64_t w) {
  Entry* victim = &stock_[0];
  for (Entry& e : stock_) {
    if (e.valid && e.seed == seed && e.w == w) {
      e.used = ++clock_;
      return e.bits.data();
    }
    if (!e.valid || (victim->valid && e.used < victim->used)) victim = &e;
  }
  fill(victim->bits, streamKey(seed, kTagStockOriginal, w));
  victim->valid = true;
  victim->seed = seed;
  victim->w = w;
  victim->used = ++clock_;
  return victim->bits.data();
}

}  // namespace sledge
