// Procedure arguments of one transaction as the text protocol carries them,
// in the order of packages/driver-mysql/src/tprocc/vu.ts callParams (and so
// of procedures.sql): integers in decimal, booleans as 1/0, the new-order
// lines as comma-separated lists, strings quoted. mysql2's query(sql, params)
// formats the JavaScript VUs' CALLs the same way.
#pragma once

#include <cstdint>
#include <cstring>

#include "../pgvu/workload.h"

namespace sledge::myvu {

using namespace sledge::pgvu;

inline constexpr int kMaxArgs = 8;

class CallArgs {
 public:
  // Fill from an input; values() stays valid until the next fill.
  void fill(const TxInput& in) {
    used_ = 0;
    n_ = 0;
    switch (in.type) {
      case kNewOrder: {
        const NewOrderInput& i = in.no;
        num(i.w_id);
        num(i.d_id);
        num(i.c_id);
        num(i.ol_cnt);
        num(i.all_local ? 1 : 0);
        list(i.i_id, i.ol_cnt);
        list(i.supply_w_id, i.ol_cnt);
        list(i.quantity, i.ol_cnt);
        break;
      }
      case kPayment: {
        const PaymentInput& i = in.pay;
        num(i.w_id);
        num(i.d_id);
        num(i.c_w_id);
        num(i.c_d_id);
        num(i.c_id);
        num(i.byname ? 1 : 0);
        str(i.c_last.text, i.c_last.len);
        num(i.amount);
        break;
      }
      case kDelivery:
        num(in.del.w_id);
        num(in.del.carrier_id);
        break;
      case kStockLevel:
        num(in.sl.w_id);
        num(in.sl.d_id);
        num(in.sl.threshold);
        break;
      case kOrderStatus: {
        const OrderStatusInput& i = in.os;
        num(i.w_id);
        num(i.d_id);
        num(i.c_id);
        num(i.byname ? 1 : 0);
        str(i.c_last.text, i.c_last.len);
        break;
      }
    }
    for (int k = 0; k < n_; k++) ptrs_[k] = buf_ + offs_[k];
  }

  int count() const { return n_; }
  // SQL literals: 42, '1,2,3', 'BARBARABLE'.
  const char* const* values() const { return ptrs_; }
  const int* lengths() const { return lens_; }

 private:
  void begin() { offs_[n_] = used_; }
  void end() {
    lens_[n_] = used_ - offs_[n_];
    buf_[used_++] = '\0';
    n_++;
  }
  void digits(int64_t v) {
    char tmp[24];
    int k = 0;
    const bool neg = v < 0;
    uint64_t u = neg ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v);
    do {
      tmp[k++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u != 0);
    if (neg) buf_[used_++] = '-';
    while (k > 0) buf_[used_++] = tmp[--k];
  }
  void num(int64_t v) {
    begin();
    digits(v);
    end();
  }
  void list(const int64_t* v, int64_t n) {
    begin();
    buf_[used_++] = '\'';
    for (int64_t i = 0; i < n; i++) {
      if (i > 0) buf_[used_++] = ',';
      digits(v[i]);
    }
    buf_[used_++] = '\'';
    end();
  }
  // Last names are upper-case ASCII letters (rules.h); a quote would still
  // be doubled, which every sql_mode reads as one.
  void str(const char* s, int len) {
    begin();
    buf_[used_++] = '\'';
    for (int k = 0; k < len; k++) {
      if (s[k] == '\'') buf_[used_++] = '\'';
      buf_[used_++] = s[k];
    }
    buf_[used_++] = '\'';
    end();
  }

  // 3 lists of up to 15 values of up to 20 characters, plus the scalars: well under 2 KB.
  char buf_[2048];
  int offs_[kMaxArgs] = {};
  int lens_[kMaxArgs] = {};
  const char* ptrs_[kMaxArgs] = {};
  int used_ = 0;
  int n_ = 0;
};

}  // namespace sledge::myvu
