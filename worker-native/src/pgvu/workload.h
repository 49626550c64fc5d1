// C++ port of packages/core/src/tprocc/inputs.ts (VuWorkload), mix.ts (Mix),
// plan.ts allWarehouseSet and inputs.ts thinkSeconds. Every draw happens in
// the same order as the TypeScript, so a VU with the same seed, position and
// client produces the same transaction types and inputs in both loops.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../rng.h"
#include "../rules.h"

namespace sledge::pgvu {

// TX_TYPES order (packages/protocol/src/tprocc.ts): the index of a transaction
// everywhere (counters, statements, ring records).
enum Tx : int { kNewOrder = 0, kPayment = 1, kDelivery = 2, kStockLevel = 3, kOrderStatus = 4 };
inline constexpr int kNtx = 5;

// constants.ts
inline constexpr int64_t kMaxItems = 100000;
inline constexpr int64_t kDistPerWare = 10;
inline constexpr int64_t kCustPerDist = 3000;
inline constexpr int64_t kNurandC = 123;
inline constexpr uint32_t kTagVu = 20;

// TPC-C's keying and mean thinking seconds (protocol run/keythink.ts DEFAULT_KEY_THINK), TX_TYPES order;
// a run's tprocc.keyThink table replaces them (RunConfig).
inline constexpr double kKeyingSeconds[kNtx] = {18, 3, 2, 2, 2};
inline constexpr double kThinkSeconds[kNtx] = {12, 12, 10, 5, 5};
// inputs.ts THINK_TRUNCATE_FACTOR: TPC-C 5.2.5.4 lets the distribution be truncated at 10x its mean.
inline constexpr double kThinkTruncate = 10;

struct LastName {
  char text[16];
  int len;
};

inline void lastNameOf(int64_t n, LastName* out) {
  uint8_t* p = reinterpret_cast<uint8_t*>(out->text);
  uint8_t* e = putLastName(p, n);
  out->len = static_cast<int>(e - p);
  out->text[out->len] = '\0';
}

struct NewOrderInput {
  int64_t w_id, max_w, d_id, c_id, ol_cnt;
  bool rollback, all_local;
  int64_t i_id[15], supply_w_id[15], quantity[15];
};
struct PaymentInput {
  int64_t w_id, d_id, c_w_id, c_d_id, c_id;
  bool byname;
  LastName c_last;
  int64_t amount;
};
struct DeliveryInput {
  int64_t w_id, carrier_id;
};
struct StockLevelInput {
  int64_t w_id, d_id, threshold;
};
struct OrderStatusInput {
  int64_t w_id, d_id, c_id;
  bool byname;
  LastName c_last;
};

// One transaction's inputs; only the member of `type` is meaningful.
struct TxInput {
  Tx type;
  NewOrderInput no;
  PaymentInput pay;
  DeliveryInput del;
  StockLevelInput sl;
  OrderStatusInput os;
};

// mix.ts Mix: cumulative bounds over the types with weight > 0, TX_TYPES order.
class Mix {
 public:
  // false when the weights do not sum to more than 0.
  bool init(const int64_t weights[kNtx]) {
    n_ = 0;
    int64_t acc = 0;
    for (int t = 0; t < kNtx; t++) {
      if (weights[t] > 0) {
        acc += weights[t];
        bounds_[n_] = acc;
        types_[n_] = static_cast<Tx>(t);
        n_++;
      }
    }
    total_ = acc;
    return acc > 0;
  }
  Tx next(Rng& rng) const {
    const int64_t c = rng.between(1, total_);
    for (int i = 0; i < n_; i++)
      if (c <= bounds_[i]) return types_[i];
    return types_[n_ - 1];
  }

 private:
  int64_t bounds_[kNtx] = {};
  Tx types_[kNtx] = {};
  int n_ = 0;
  int64_t total_ = 0;
};

// plan.ts allWarehouseSet(p, L, W).
inline std::vector<int64_t> allWarehouseSet(int64_t p, int64_t L, int64_t W) {
  const int64_t n = (W + L - 1) / L;
  std::vector<int64_t> set;
  for (int64_t k = 0; k < n; k++) {
    const int64_t w = (((p - 2) + k * L) % W) + 1;
    bool seen = false;
    for (int64_t x : set)
      if (x == w) seen = true;
    if (!seen) set.push_back(w);
  }
  return set;
}

struct VuOptions {
  int64_t warehouses;
  int64_t position;
  int64_t activeVus;
  bool allWarehouse;
  int64_t mix[kNtx];
  int64_t client;
};

// JavaScript's Math.round: floor(x), plus one when the fraction is >= 0.5.
inline double jsRound(double x) {
  const double f = std::floor(x);
  return x - f >= 0.5 ? f + 1.0 : f;
}

// inputs.ts VuWorkload.
class VuWorkload {
 public:
  VuWorkload(uint32_t seed, const VuOptions& o) : rng(streamKey(seed, kTagVu, o.position, o.client)), W_(o.warehouses) {
    homeW = rng.between(1, o.warehouses);
    stockD = rng.between(1, kDistPerWare);
    if (o.allWarehouse) warehouses = allWarehouseSet(o.position, o.activeVus, o.warehouses);
    mixOk = mix_.init(o.mix);
  }

  Tx nextType() { return mix_.next(rng); }

  void input(Tx t, TxInput* in) {
    in->type = t;
    switch (t) {
      case kNewOrder:
        newOrder(&in->no);
        break;
      case kPayment:
        payment(&in->pay);
        break;
      case kDelivery:
        in->del.w_id = w();
        in->del.carrier_id = rng.between(1, 10);
        break;
      case kStockLevel:
        in->sl.w_id = w();
        in->sl.d_id = stockD;
        in->sl.threshold = rng.between(10, 20);
        break;
      case kOrderStatus:
        orderStatus(&in->os);
        break;
    }
  }

  // workload.ts thinkMs over inputs.ts thinkSeconds: -ln(U)·mean with U = 1 - random() in (0, 1],
  // truncated at 10x the mean, in whole milliseconds.
  int64_t thinkMs(double meanSec) {
    const double u = 1.0 - rng.random();
    const double s = std::min(-std::log(u) * meanSec, kThinkTruncate * meanSec);
    return static_cast<int64_t>(jsRound(s * 1000.0));
  }

  Rng rng;
  int64_t homeW = 0;
  int64_t stockD = 0;
  std::vector<int64_t> warehouses;  // empty unless allwarehouse
  bool mixOk = false;

 private:
  int64_t w() {
    if (warehouses.empty()) return homeW;
    return warehouses[static_cast<size_t>(rng.between(0, static_cast<int64_t>(warehouses.size()) - 1))];
  }

  void newOrder(NewOrderInput* o) {
    Rng& r = rng;
    o->w_id = w();
    o->max_w = W_;
    o->d_id = r.between(1, kDistPerWare);
    o->c_id = r.between(1, kCustPerDist);
    o->ol_cnt = r.between(5, 15);
    o->rollback = r.between(1, 100) == 1;
    o->all_local = true;
    for (int64_t i = 0; i < o->ol_cnt; i++) {
      int64_t supply = o->w_id;
      if (W_ > 1 && r.between(1, 100) == 1) {
        do supply = r.between(1, W_);
        while (supply == o->w_id);
        o->all_local = false;
      }
      o->i_id[i] = o->rollback && i == o->ol_cnt - 1 ? kMaxItems + 1 : r.between(1, kMaxItems);
      o->supply_w_id[i] = supply;
      o->quantity[i] = r.between(1, 10);
    }
  }

  void payment(PaymentInput* p) {
    Rng& r = rng;
    p->w_id = w();
    p->d_id = r.between(1, kDistPerWare);
    p->c_w_id = p->w_id;
    p->c_d_id = p->d_id;
    if (r.between(1, 100) > 85) {
      p->c_d_id = r.between(1, kDistPerWare);
      if (W_ > 1) {
        do p->c_w_id = r.between(1, W_);
        while (p->c_w_id == p->w_id);
      }
    }
    p->byname = r.between(1, 100) <= 60;
    if (p->byname) {
      lastNameOf(nurand(r, 255, 0, 999, kNurandC), &p->c_last);
    } else {
      p->c_last.len = 0;
      p->c_last.text[0] = '\0';
    }
    p->c_id = r.between(1, kCustPerDist);
    p->amount = r.between(1, 5000);
  }

  void orderStatus(OrderStatusInput* o) {
    Rng& r = rng;
    o->w_id = w();
    o->d_id = r.between(1, kDistPerWare);
    o->byname = r.between(1, 100) <= 60;
    if (o->byname) {
      lastNameOf(nurand(r, 255, 0, 999, kNurandC), &o->c_last);
    } else {
      o->c_last.len = 0;
      o->c_last.text[0] = '\0';
    }
    o->c_id = r.between(1, kCustPerDist);
  }

  int64_t W_;
  Mix mix_;
};

}  // namespace sledge::pgvu
