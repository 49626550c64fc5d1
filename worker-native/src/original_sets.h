// The "original" position sets (rules.ts originalSet) for ITEM and STOCK,
// cached per addon instance: one item set per seed, a few stock sets keyed by
// (seed, warehouse). An instance belongs to one Node environment (thread).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace sledge {

// Positions 1..kMaxItems; a set is kMaxItems + 1 bytes, 1 = "original".
inline constexpr int64_t kMaxItems = 100000;

class OriginalSets {
 public:
  // Set for ITEM rows: originalSet(Rng(streamKey(seed, itemOriginal)), MAXITEMS).
  const uint8_t* item(uint32_t seed);
  // Set for STOCK rows of warehouse w: originalSet(Rng(streamKey(seed, stockOriginal, w)), MAXITEMS).
  const uint8_t* stock(uint32_t seed, int64_t w);

 private:
  struct Entry {
    bool valid = false;
    uint32_t seed = 0;
    int64_t w = 0;
    uint64_t used = 0;
    std::vector<uint8_t> bits;
  };
  Entry item_;
  std::array<Entry, 4> stock_;
  uint64_t clock_ = 0;
};

// Whether position i is in a set made by OriginalSets (false outside 0..kMaxItems).
inline bool isOriginal(const uint8_t* set, int64_t i) { return i >= 0 && i <= kMaxItems && set[i] == 1; }

}  // namespace sledge
