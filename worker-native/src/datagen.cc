#include "datagen.h"

#include <algorithm>

#include "rng.h"
#include "rules.h"

namespace sledge {

namespace {

// constants.ts
constexpr int64_t kDistPerWare = 10;
constexpr int64_t kCustPerDist = 3000;
constexpr int64_t kOrdPerDist = 3000;
constexpr int64_t kFirstUndeliveredOId = 2101;
constexpr int64_t kNurandC = 123;
enum Tag : uint32_t { kTagItem = 2, kTagWarehouse = 3, kTagStock = 5, kTagDistrict = 6, kTagCustomer = 7, kTagOrders = 8 };

// Room reserved per row: every row of every table fits in this plus the
// timestamp (at most twice per row).
constexpr size_t kRowRoom = 1024;

// Capacity hint for `rows` rows of about `bytes` each (bounded for absurd ranges).
size_t hint(int64_t rows, size_t bytes) {
  return rows <= 0 ? 0 : static_cast<size_t>(std::min<int64_t>(rows, int64_t{1} << 20)) * bytes;
}

class Generator {
 public:
  Generator(const GenInput& in, OriginalSets& sets, UnitOutput& r)
      : in_(in), sets_(sets), r_(r), sep_(in.sep), room_(kRowRoom + 2 * in.timestamp.size()) {}

  bool items(int64_t from, int64_t to) {
    const uint8_t* orig = sets_.item(in_.seed);
    Rng rng(streamKey(in_.seed, kTagItem, from));
    ByteOut& o = table(0, "item");
    if (!o.expect(hint(to - from + 1, 80))) return false;
    for (int64_t i = from; i <= to; i++) {
      uint8_t* p = o.reserve(room_);
      if (p == nullptr) return false;
      p = field(putInt(p, i));
      p = field(putInt(p, rng.between(1, 10000)));
      p = field(putAlphaString(rng, p, 14, 24));
      p = field(putDecimal2(p, rng.between(100, 10000)));
      uint8_t* data = p;
      p = putAlphaString(rng, p, 26, 50);
      if (isOriginal(orig, i)) makeOriginal(rng, data, p - data);
      endRow(o, p);
    }
    return true;
  }

  bool warehouse(int64_t w) {
    Rng rng(streamKey(in_.seed, kTagWarehouse, w));
    ByteOut& o = table(0, "warehouse");
    uint8_t* p = o.reserve(room_);
    if (p == nullptr) return false;
    p = field(putInt(p, w));
    p = field(putAlphaString(rng, p, 6, 10));
    p = address(rng, p);
    p = field(putDecimal2(p, rng.between(10, 20)));
    p = putLit(p, "300000.00");
    endRow(o, p);
    return true;
  }

  bool stock(int64_t w, int64_t from, int64_t to) {
    const uint8_t* orig = sets_.stock(in_.seed, w);
    Rng rng(streamKey(in_.seed, kTagStock, w, from));
    ByteOut& o = table(0, "stock");
    if (!o.expect(hint(to - from + 1, 320))) return false;
    for (int64_t i = from; i <= to; i++) {
      uint8_t* p = o.reserve(room_);
      if (p == nullptr) return false;
      p = field(putInt(p, i));
      p = field(putInt(p, w));
      p = field(putInt(p, rng.between(10, 100)));
      for (int k = 0; k < 10; k++) p = field(putAlphaFixed(rng, p, 24));
      uint8_t* data = p;
      p = putAlphaString(rng, p, 26, 50);
      if (isOriginal(orig, i)) makeOriginal(rng, data, p - data);
      *p++ = sep_;
      p = field(putLit(p, "0"));
      p = field(putLit(p, "0"));
      p = putLit(p, "0");
      endRow(o, p);
    }
    return true;
  }

  bool districts(int64_t w) {
    Rng rng(streamKey(in_.seed, kTagDistrict, w));
    ByteOut& o = table(0, "district");
    for (int64_t d = 1; d <= kDistPerWare; d++) {
      uint8_t* p = o.reserve(room_);
      if (p == nullptr) return false;
      p = field(putInt(p, d));
      p = field(putInt(p, w));
      p = field(putAlphaString(rng, p, 6, 10));
      p = address(rng, p);
      p = field(putDecimal2(p, rng.between(10, 20)));
      p = field(putLit(p, "30000.00"));
      p = putInt(p, kOrdPerDist + 1);
      endRow(o, p);
    }
    return true;
  }

  bool customers(int64_t w, int64_t d) {
    Rng rng(streamKey(in_.seed, kTagCustomer, w, d));
    ByteOut& co = table(0, "customer");
    ByteOut& ho = table(1, "history");
    if (!co.expect(hint(kCustPerDist, 560 + in_.timestamp.size())) || !ho.expect(hint(kCustPerDist, 64 + in_.timestamp.size()))) {
      return false;
    }
    for (int64_t c = 1; c <= kCustPerDist; c++) {
      uint8_t* p = co.reserve(room_);
      if (p == nullptr) return false;
      p = field(putInt(p, c));
      p = field(putInt(p, d));
      p = field(putInt(p, w));
      p = field(putAlphaString(rng, p, 8, 16));
      p = field(putLit(p, "OE"));
      p = field(putLastName(p, c <= 1000 ? c - 1 : nurand(rng, 255, 0, 999, kNurandC)));
      p = address(rng, p);
      p = field(putPhone(rng, p));
      p = field(putTimestamp(p));
      p = field(rng.between(0, 1) == 0 ? putLit(p, "BC") : putLit(p, "GC"));
      p = field(putLit(p, "50000.00"));
      p = field(putDecimal2(p, rng.between(0, 50)));
      p = field(putLit(p, "-10.00"));
      p = field(putLit(p, "10.00"));
      p = field(putLit(p, "1"));
      p = field(putLit(p, "0"));
      p = putAlphaString(rng, p, 300, 500);
      endRow(co, p);

      uint8_t* h = ho.reserve(room_);
      if (h == nullptr) return false;
      h = field(putInt(h, c));
      h = field(putInt(h, d));
      h = field(putInt(h, w));
      h = field(putInt(h, d));
      h = field(putInt(h, w));
      h = field(putTimestamp(h));
      h = field(putLit(h, "10.00"));
      h = putAlphaString(rng, h, 12, 24);
      endRow(ho, h);
    }
    return true;
  }

  bool orders(int64_t w, int64_t d) {
    Rng rng(streamKey(in_.seed, kTagOrders, w, d));
    // A true permutation of customer ids 1..3000 (Fisher-Yates), as generate.ts.
    int32_t perm[kCustPerDist];
    for (int64_t i = 0; i < kCustPerDist; i++) perm[i] = static_cast<int32_t>(i + 1);
    for (int64_t i = kCustPerDist - 1; i > 0; i--) std::swap(perm[i], perm[rng.between(0, i)]);

    ByteOut& oo = table(0, "orders");
    ByteOut& no = table(1, "new_order");
    ByteOut& lo = table(2, "order_line");
    const size_t ts = in_.timestamp.size();
    if (!oo.expect(hint(kOrdPerDist, 40 + ts)) || !no.expect(hint(kOrdPerDist - kFirstUndeliveredOId + 1, 16)) ||
        !lo.expect(hint(kOrdPerDist * 10, 64 + ts))) {
      return false;
    }
    for (int64_t o = 1; o <= kOrdPerDist; o++) {
      const bool delivered = o < kFirstUndeliveredOId;
      const int64_t carrier = delivered ? rng.between(1, 10) : 0;
      const int64_t olCnt = rng.between(5, 15);
      uint8_t* p = oo.reserve(room_);
      if (p == nullptr) return false;
      p = field(putInt(p, o));
      p = field(putInt(p, d));
      p = field(putInt(p, w));
      p = field(putInt(p, perm[o - 1]));
      p = field(putTimestamp(p));
      p = field(delivered ? putInt(p, carrier) : putNull(p));
      p = field(putInt(p, olCnt));
      p = putLit(p, "1");
      endRow(oo, p);
      if (!delivered) {
        uint8_t* n = no.reserve(room_);
        if (n == nullptr) return false;
        n = field(putInt(n, o));
        n = field(putInt(n, d));
        n = putInt(n, w);
        endRow(no, n);
      }
      for (int64_t l = 1; l <= olCnt; l++) {
        uint8_t* q = lo.reserve(room_);
        if (q == nullptr) return false;
        q = field(putInt(q, o));
        q = field(putInt(q, d));
        q = field(putInt(q, w));
        q = field(putInt(q, l));
        q = field(putInt(q, rng.between(1, kMaxItems)));
        q = field(putInt(q, w));
        q = field(delivered ? putTimestamp(q) : putNull(q));
        q = field(putLit(q, "5"));
        q = field(delivered ? putLit(q, "0.00") : putDecimal2(q, rng.between(1, 999999)));
        q = putAlphaFixed(rng, q, 24);
        endRow(lo, q);
      }
    }
    return true;
  }

 private:
  ByteOut& table(int i, const char* name) {
    r_.tables[i] = name;
    if (r_.count < i + 1) r_.count = i + 1;
    return r_.out[i];
  }

  // Ends a field: writes the column separator.
  inline uint8_t* field(uint8_t* p) const {
    *p = sep_;
    return p + 1;
  }

  static inline void endRow(ByteOut& o, uint8_t* p) {
    *p++ = '\n';
    o.commit(p);
    o.row();
  }

  inline uint8_t* putTimestamp(uint8_t* p) const { return putBytes(p, in_.timestamp.data(), in_.timestamp.size()); }
  static inline uint8_t* putNull(uint8_t* p) { return putLit(p, "\\N"); }

  // generate.ts address(): street_1, street_2, city, state, zip (each field terminated).
  inline uint8_t* address(Rng& rng, uint8_t* p) const {
    p = field(putAlphaString(rng, p, 10, 20));
    p = field(putAlphaString(rng, p, 10, 20));
    p = field(putAlphaString(rng, p, 10, 20));
    p = field(putAlphaFixed(rng, p, 2));
    return field(putZip(rng, p));
  }

  const GenInput& in_;
  OriginalSets& sets_;
  UnitOutput& r_;
  const uint8_t sep_;
  const size_t room_;
};

}  // namespace

bool generateUnit(const Unit& unit, const GenInput& in, OriginalSets& sets, UnitOutput& result) {
  Generator g(in, sets, result);
  switch (unit.kind) {
    case UnitKind::Item:
      return g.items(unit.from, unit.to);
    case UnitKind::Warehouse:
      return g.warehouse(unit.w);
    case UnitKind::Stock:
      return g.stock(unit.w, unit.from, unit.to);
    case UnitKind::District:
      return g.districts(unit.w);
    case UnitKind::Customer:
      return g.customers(unit.w, unit.d);
    case UnitKind::Orders:
      return g.orders(unit.w, unit.d);
  }
  return false;
}

}  // namespace sledge
