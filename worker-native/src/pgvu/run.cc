#include "run.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <cstring>
#include <memory>
#include <utility>

#include "session.h"
#include "session_keeper.h"

namespace sledge::pgvu {

namespace {

using Clock = VuThreads::Clock;

// vu-loop.ts DESCRIBE and protocol TX_PROC, TX_TYPES order.
const char* const kDescribe[kNtx] = {"New Order", "Payment", "Delivery", "Stock Level", "Order Status"};
const char* const kProc[kNtx] = {"NEWORD", "PAYMENT", "DELIVERY", "SLEV", "OSTAT"};

std::string num(int64_t v) { return std::to_string(v); }

// vu-loop.ts inputSummary (the test driver's line per transaction).
std::string inputSummary(const TxInput& in) {
  switch (in.type) {
    case kNewOrder: {
      const NewOrderInput& i = in.no;
      return "w_id " + num(i.w_id) + " d_id " + num(i.d_id) + " c_id " + num(i.c_id) + " ol_cnt " + num(i.ol_cnt) + (i.rollback ? " (invalid item: rollback)" : "");
    }
    case kPayment: {
      const PaymentInput& i = in.pay;
      return "w_id " + num(i.w_id) + " d_id " + num(i.d_id) + " c_w_id " + num(i.c_w_id) + " " +
             (i.byname ? "c_last " + std::string(i.c_last.text, i.c_last.len) : "c_id " + num(i.c_id)) + " amount " + num(i.amount);
    }
    case kDelivery:
      return "w_id " + num(in.del.w_id) + " carrier " + num(in.del.carrier_id);
    case kStockLevel:
      return "w_id " + num(in.sl.w_id) + " d_id " + num(in.sl.d_id) + " threshold " + num(in.sl.threshold);
    case kOrderStatus: {
      const OrderStatusInput& i = in.os;
      return "w_id " + num(i.w_id) + " d_id " + num(i.d_id) + " " + (i.byname ? "c_last " + std::string(i.c_last.text, i.c_last.len) : "c_id " + num(i.c_id));
    }
  }
  return std::string();
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

Run::Run(RunConfig cfg, SessionFactory sessions, std::vector<VuSpec> vus, Shared shared)
    : VuThreads(std::move(vus), shared), cfg_(std::move(cfg)), sessions_(std::move(sessions)), results_(vus_.size()) {}

Run::~Run() { shutdown(); }

// vu-loop.ts runClient for one client (no async scaling).
bool Run::runClient(size_t slot, double* wStart, double* wEnd) {
  const VuSpec& a = vus_[slot];
  VuResult& res = results_[slot];
  const int64_t pos = a.position;
  const std::string name = "Vuser " + num(pos);
  const std::string appName = sessionName(slot, cfg_.sessionTag);
  const Interrupt intr = interrupt();
  LatencyRing ring(&sh_, static_cast<int>(slot));
  const auto epoch = Clock::now();
  TxInput in{};
  int64_t errorsLogged = 0;

  for (int64_t iter = 0; iter < cfg_.iterations && running(); iter++) {
    std::unique_ptr<Session> session = sessions_();
    Session& conn = *session;
    // vu-loop.ts connect and reconnect: the session is ready once its statements are prepared.
    SessionKeeper keeper(*this, slot, [&](std::string* err, bool* stopped) {
      if (!conn.connect(appName, intr, err, stopped)) return false;
      conn.prepareAll(intr);
      return true;
    });
    // A database that refuses connections now (an outage, a failover) may be back soon: with reconnect given, keep trying.
    const SessionKeeper::Start started = keeper.start(cfg_.retryFirstConnect, cfg_.engineName);
    if (started != SessionKeeper::Start::Open) return started == SessionKeeper::Start::Stopped;
    sh_.state(a.index, kStateRunning);
    VuOptions o{cfg_.warehouses, pos, cfg_.activeVus, cfg_.allWarehouse, {}, iter * 100000};
    std::copy(std::begin(cfg_.mix), std::end(cfg_.mix), o.mix);
    VuWorkload wl(cfg_.seed, o);
    if (iter == 0) {
      if (!cfg_.testDriver) log(pos, "Processing " + num(cfg_.totalIterations) + " transactions with output suppressed...");
      if (!wl.warehouses.empty()) {
        std::string ids;
        for (size_t k = 0; k < wl.warehouses.size(); k++) ids += (k ? " " : "") + num(wl.warehouses[k]);
        log(pos, "Assigned " + num(static_cast<int64_t>(wl.warehouses.size())) + " WIDs = " + ids + " based on VU count " + num(cfg_.activeVus) +
                     ", Warehouses = " + num(cfg_.warehouses) + " out of " + num(cfg_.warehouses));
      }
    }
    for (int64_t n = 0; n < cfg_.totalIterations; n++) {
      if (!running()) break;
      const Tx t = wl.nextType();
      wl.input(t, &in);
      if (cfg_.keyAndThink) {
        sleepUnlessStopped(static_cast<int64_t>(jsRound(cfg_.keyingSec[t] * 1000.0)));
        if (!running()) break;
      }
      const bool measuring = sh_.phase() == kPhaseMeasuring;
      DbError dbe;
      const auto t0 = Clock::now();
      const Outcome out = conn.exec(in, intr, &dbe);
      const auto t1 = Clock::now();
      if (out == Outcome::Cancelled) return true;  // aborted mid-statement
      if (out == Outcome::Error) {
        sh_.count(a.index, t, kError);
        sh_.error(a.index, t, errorClass(dbe.kind));
        if (cfg_.raiseError) {
          log(pos, "Error in Virtual User " + num(pos) + ": " + kProc[t] + ": " + dbe.message);
          return false;
        }
        logProcedureError(pos, kDescribe[t], dbe, &errorsLogged);
        if (dbe.kind == ErrKind::Connection) {
          keeper.dropped();
          conn.close();
          if (!cfg_.reconnect) {
            log(pos, name + ": connection lost and tprocc.reconnect is off: the virtual user ends");
            return false;
          }
          if (!keeper.reconnect("connection lost", true)) return !running();
        }
      } else {
        sh_.count(a.index, t, out == Outcome::Commit ? kCommit : kRollback);
        record(ring, t, measuring, epoch, t0, t1, &res.totalNs[t], wStart, wEnd);
        if (cfg_.testDriver) {
          const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
          log(pos, std::string(kDescribe[t]) + ": " + inputSummary(in) + ": " + (out == Outcome::Commit ? "commit" : "rollback") + " (" +
                       fixed(static_cast<double>(ns) / 1e6, 3) + " ms)");
        }
      }
      if (cfg_.keyAndThink) sleepUnlessStopped(wl.thinkMs(cfg_.thinkMeanSec[t]));
    }
    conn.close();
    if (iter + 1 < cfg_.iterations) sleepUnlessStopped(cfg_.repeatDelayMs);
  }
  return true;
}

}  // namespace sledge::pgvu
