// TPROC-C row generation into bulk text, byte-identical to
// packages/core/src/tprocc/generate.ts for the 'pg-text' and 'csv' formats.
// Pure C++: no Node-API here.
#pragma once

#include <cstdint>
#include <string>

#include "byte_out.h"
#include "original_sets.h"

namespace sledge {

enum class UnitKind { Item, Warehouse, Stock, District, Customer, Orders };

// generate.ts TproccUnit; fields a kind does not use stay 0.
struct Unit {
  UnitKind kind = UnitKind::Item;
  int64_t w = 0;
  int64_t d = 0;
  int64_t from = 0;
  int64_t to = 0;
};

struct GenInput {
  uint32_t seed = 0;      // ctx.seed >>> 0
  std::string timestamp;  // ctx.timestamp, UTF-8
  uint8_t sep = '\t';     // '\t' pg-text, ',' csv
};

// Up to three tables per unit (orders, new_order, order_line).
struct UnitOutput {
  static constexpr int kMaxTables = 3;
  const char* tables[kMaxTables] = {nullptr, nullptr, nullptr};
  ByteOut out[kMaxTables];
  int count = 0;
};

// Generates one unit. Returns false only when memory runs out.
bool generateUnit(const Unit& unit, const GenInput& in, OriginalSets& sets, UnitOutput& result);

}  // namespace sledge
