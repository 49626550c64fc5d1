// TPROC-H (dbgen) row generation into bulk text, byte-identical to
// packages/core/src/tproch/generate.ts for 'pg-text' and 'csv', and dbgen's
// 300 MiB comment text pool (core's text.ts). Pure C++: no Node-API here.
#pragma once

#include <cstddef>
#include <cstdint>

#include "byte_out.h"

namespace sledge::tproch {

constexpr size_t kPoolSize = 300u * 1024u * 1024u;

// Builds the text pool into out[0..kPoolSize) (core buildTprochTextPool).
void buildTextPool(uint8_t* out);

enum class Kind { Region, Supplier, Customer, Part, Orders };

// core TprochSizes (computed in TypeScript and handed in).
struct Sizes {
  int64_t supplier = 0;
  int64_t customer = 0;
  int64_t part = 0;
  int64_t orders = 0;
  int64_t scale = 1;
};

struct Request {
  Kind kind = Kind::Region;
  int64_t from = 0;
  int64_t to = 0;
  uint8_t sep = '\t';
  Sizes sizes;
  const uint8_t* pool = nullptr;  // kPoolSize bytes
  // Orders only: sparse-key sequence and where the order / line streams start.
  int64_t seq = 0;
  int64_t orderRowsBefore = 0;
  int64_t lineRowsBefore = 0;
};

struct Output {
  static constexpr int kMaxTables = 2;
  const char* tables[kMaxTables] = {nullptr, nullptr};
  ByteOut out[kMaxTables];
  int count = 0;
};

// Generates one unit. Returns false only when memory runs out.
bool generate(const Request& req, Output& result);

}  // namespace sledge::tproch
