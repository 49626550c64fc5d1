// Procedure arguments of one transaction as the text protocol carries them,
// in the order of packages/driver-mysql/src/tprocc/vu.ts callParams (and so
// of procedures.sql): integers in decimal, booleans as 1/0, the new-order
// lines as comma-separated lists, strings quoted. mysql2's query(sql, params)
// formats the JavaScript VUs' CALLs the same way.
#pragma once

#include <cstdint>

#include "../pgvu/text_args.h"
#include "../pgvu/workload.h"

namespace sledge::myvu {

using namespace sledge::pgvu;

class CallArgs : public TextArgs {
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
        num(i.ol_cnt);
        num(i.all_local ? 1 : 0);
        ints(i.i_id, i.ol_cnt, '\'', '\'');
        ints(i.supply_w_id, i.ol_cnt, '\'', '\'');
        ints(i.quantity, i.ol_cnt, '\'', '\'');
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
    finish();
  }

 private:
  // Last names are upper-case ASCII letters (rules.h); a quote would still
  // be doubled, which every sql_mode reads as one.
  void str(const char* s, int len) {
    begin();
    put('\'');
    for (int k = 0; k < len; k++) {
      if (s[k] == '\'') put('\'');
      put(s[k]);
    }
    put('\'');
    end();
  }
};

}  // namespace sledge::myvu
