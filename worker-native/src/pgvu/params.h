// Text bind parameters of one transaction, in the order of
// packages/driver-postgresql/src/vu.ts txValues (and so of calls.sql's $n),
// formatted as node-postgres sends them: integers in decimal, booleans as
// true/false, int[] in PostgreSQL array text form {1,2,3}, strings as is.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "workload.h"

namespace sledge::pgvu {

inline constexpr int kMaxParams = 8;

class TxParams {
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
        arr(i.i_id, i.ol_cnt);
        arr(i.supply_w_id, i.ol_cnt);
        arr(i.quantity, i.ol_cnt);
        break;
      }
      case kPayment: {
        const PaymentInput& i = in.pay;
        num(i.w_id);
        num(i.d_id);
        num(i.c_w_id);
        num(i.c_d_id);
        num(i.c_id);
        boolean(i.byname);
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
        boolean(i.byname);
        str(i.c_last.text, i.c_last.len);
        break;
      }
    }
    for (int k = 0; k < n_; k++) ptrs_[k] = buf_ + offs_[k];
  }

  int count() const { return n_; }
  const char* const* values() const { return ptrs_; }

 private:
  void begin() { offs_[n_] = used_; }
  void end() {
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
  void arr(const int64_t* v, int64_t n) {
    begin();
    buf_[used_++] = '{';
    for (int64_t i = 0; i < n; i++) {
      if (i > 0) buf_[used_++] = ',';
      digits(v[i]);
    }
    buf_[used_++] = '}';
    end();
  }
  void boolean(bool b) {
    begin();
    const char* s = b ? "true" : "false";
    const int len = b ? 4 : 5;
    std::memcpy(buf_ + used_, s, len);
    used_ += len;
    end();
  }
  void str(const char* s, int len) {
    begin();
    std::memcpy(buf_ + used_, s, static_cast<size_t>(len));
    used_ += len;
    end();
  }

  // 3 arrays of up to 15 values of up to 20 characters, plus the scalars: well under 2 KB.
  char buf_[2048];
  int offs_[kMaxParams] = {};
  const char* ptrs_[kMaxParams] = {};
  int used_ = 0;
  int n_ = 0;
};

}  // namespace sledge::pgvu
