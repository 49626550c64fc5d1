// Text bind parameters of one transaction, in the order of
// packages/driver-postgresql/src/vu.ts txValues (and so of calls.sql's $n),
// formatted as node-postgres sends them: integers in decimal, booleans as
// true/false, int[] in PostgreSQL array text form {1,2,3}, strings as is.
#pragma once

#include <cstdint>

#include "text_args.h"
#include "workload.h"

namespace sledge::pgvu {

class TxParams : public TextArgs {
 public:
  // Fill from an input; values() stays valid until the next fill.
  void fill(const TxInput& in) {
    reset();
    switch (in.type) {
      case kNewOrder: {
        const NewOrderInput& i = in.no;
        num(i.w_id);
        num(i.d_id);
        num(i.c_id);
        ints(i.i_id, i.ol_cnt, '{', '}');
        ints(i.supply_w_id, i.ol_cnt, '{', '}');
        ints(i.quantity, i.ol_cnt, '{', '}');
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
    finish();
  }

 private:
  void boolean(bool b) {
    begin();
    if (b) raw("true", 4);
    else raw("false", 5);
    end();
  }
  void str(const char* s, int len) {
    begin();
    raw(s, len);
    end();
  }
};

}  // namespace sledge::pgvu
