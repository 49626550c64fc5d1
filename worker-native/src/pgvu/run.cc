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

namespace sledge::pgvu {

namespace {

using Clock = std::chrono::steady_clock;

// Sleep slices: how late a stop is noticed at most while waiting.
constexpr int kSleepSliceMs = 20;
// Log lines kept while JavaScript is late draining them.
constexpr size_t kMaxQueuedLogs = 100000;
// Stack of a VU thread: the loop needs a few KB; libpq and TLS far less than the 8 MB default.
constexpr size_t kThreadStack = 512 * 1024;

// vu-loop.ts DESCRIBE and protocol TX_PROC, TX_TYPES order.
const char* const kDescribe[kNtx] = {"New Order", "Payment", "Delivery", "Stock Level", "Order Status"};
const char* const kProc[kNtx] = {"NEWORD", "PAYMENT", "DELIVERY", "SLEV", "OSTAT"};

double msSince(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

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
    : cfg_(std::move(cfg)), sessions_(std::move(sessions)), vus_(std::move(vus)), sh_(shared), results_(vus_.size()) {}

Run::~Run() { shutdown(); }

bool Run::start(std::string* error) {
  threads_.reserve(vus_.size());
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kThreadStack);
  for (size_t slot = 0; slot < vus_.size(); slot++) {
    auto* arg = new ThreadArg{this, slot};
    live_.fetch_add(1, std::memory_order_acq_rel);
    pthread_t tid;
    const int rc = pthread_create(&tid, &attr, &Run::threadMain, arg);
    if (rc != 0) {
      delete arg;
      live_.fetch_sub(1, std::memory_order_acq_rel);
      pthread_attr_destroy(&attr);
      *error = std::string("cannot start a VU thread: ") + std::strerror(rc);
      shutdown();
      return false;
    }
    threads_.push_back(tid);
  }
  pthread_attr_destroy(&attr);
  return true;
}

void* Run::threadMain(void* p) {
  std::unique_ptr<ThreadArg> arg(static_cast<ThreadArg*>(p));
#ifdef __linux__
  // Named like the session (application_name), cut to the 15 characters Linux keeps: top -H, perf.
  std::string name = "sledge-vu-" + num(arg->run->vus_[arg->slot].position);
  name.resize(std::min<size_t>(name.size(), 15));
  pthread_setname_np(pthread_self(), name.c_str());
#endif
  arg->run->vuMain(arg->slot);
  return nullptr;
}

void Run::shutdown() {
  teardown_.store(true, std::memory_order_release);
  for (pthread_t t : threads_) pthread_join(t, nullptr);
  threads_.clear();
}

std::vector<LogLine> Run::drainLogs() {
  std::vector<LogLine> out;
  std::lock_guard<std::mutex> lock(logMu_);
  out.swap(logs_);
  if (droppedLogs_ > 0) {
    std::string text = num(droppedLogs_);
    text.append(" log lines dropped: the worker thread drained them too slowly");
    out.push_back({0, std::move(text)});
    droppedLogs_ = 0;
  }
  return out;
}

void Run::log(int64_t vu, std::string text) {
  std::lock_guard<std::mutex> lock(logMu_);
  if (logs_.size() >= kMaxQueuedLogs) {
    droppedLogs_++;
    return;
  }
  logs_.push_back({vu, std::move(text)});
}

bool Run::running() { return !teardown_.load(std::memory_order_acquire) && sh_.run() == kRunGo; }
bool Run::aborting() { return teardown_.load(std::memory_order_acquire) || sh_.run() == kRunAbort; }

void Run::sleepUnlessStopped(int64_t ms) {
  if (ms <= 0 || !running()) return;
  const auto end = Clock::now() + std::chrono::milliseconds(ms);
  while (running()) {
    const auto now = Clock::now();
    if (now >= end) return;
    std::this_thread::sleep_for(std::min<Clock::duration>(end - now, std::chrono::milliseconds(kSleepSliceMs)));
  }
}

void Run::vuMain(size_t slot) {
  const VuSpec& a = vus_[slot];
  VuResult& res = results_[slot];
  // vu-loop.ts waitForGo, then the start delay.
  while (sh_.go() == 0 && running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  sleepUnlessStopped(a.startDelayMs);
  if (!running()) {
    sh_.state(a.index, kStateFinished);
  } else {
    sh_.state(a.index, kStateConnecting);
    log(0, "Vuser " + num(a.position) + ":RUNNING");
    double wStart = std::numeric_limits<double>::infinity();
    double wEnd = -std::numeric_limits<double>::infinity();
    res.ok = runClient(slot, res, &wStart, &wEnd);
    sh_.state(a.index, res.ok ? kStateFinished : kStateFailed);
    log(0, "Vuser " + num(a.position) + (res.ok ? ":FINISHED SUCCESS" : ":FINISHED FAILED"));
    res.elapsedMs = wEnd > wStart ? wEnd - wStart : 0;
  }
  live_.fetch_sub(1, std::memory_order_acq_rel);
}

// vu-loop.ts runClient for one client (no async scaling).
bool Run::runClient(size_t slot, VuResult& res, double* wStart, double* wEnd) {
  const VuSpec& a = vus_[slot];
  const int64_t pos = a.position;
  const std::string name = "Vuser " + num(pos);
  // core vuSessionName(): the job's ASH counts a session as its VU only with the job's tag.
  const std::string appName = "sledge-vu-" + num(pos) + (cfg_.sessionTag.empty() ? std::string() : "~" + cfg_.sessionTag);
  Interrupt intr{[this] { return !running(); }, [this] { return aborting(); }};
  LatencyRing ring(&sh_, static_cast<int>(slot));
  const auto epoch = Clock::now();
  TxInput in{};
  int64_t errorsLogged = 0;

  // vu-loop.ts reconnect: back off 0.5 s doubling to 5 s until a session opens or the job stops; `lost`: count it as back.
  auto reconnect = [&](Session& conn, const std::string& why, bool lost) -> bool {
    const auto started = Clock::now();
    log(pos, name + ": " + why + ", reconnecting");
    int64_t wait = 500;
    while (running()) {
      sleepUnlessStopped(wait);
      if (!running()) return false;
      std::string err;
      bool stopped = false;
      if (conn.connect(appName, intr, &err, &stopped)) {
        log(pos, name + ": reconnected after " + fixed(msSince(started, Clock::now()) / 1000.0, 1) + " s");
        conn.prepareAll(intr);
        if (lost) sh_.session(a.index, kFaultBacks);
        sh_.state(a.index, kStateRunning);
        return true;
      }
      wait = std::min<int64_t>(wait * 2, 5000);
    }
    return false;
  };

  for (int64_t iter = 0; iter < cfg_.iterations && running(); iter++) {
    std::unique_ptr<Session> session = sessions_();
    Session& conn = *session;
    std::string err;
    bool stopped = false;
    if (!conn.connect(appName, intr, &err, &stopped)) {
      if (stopped) return true;
      // A database that refuses connections now (an outage, a failover) may be back soon: with reconnect on, keep trying.
      if (!cfg_.retryFirstConnect || !reconnect(conn, "cannot connect (" + err + ")", false)) {
        if (!running()) return true;
        log(pos, "Error in Virtual User " + num(pos) + ": connecting to " + cfg_.engineName + " failed: " + err);
        return false;
      }
    } else {
      conn.prepareAll(intr);
    }
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
        if (errorsLogged < 100 || errorsLogged % 1000 == 0) {
          log(pos, std::string(kDescribe[t]) + " Procedure Error (" + errKindName(dbe.kind) + (dbe.code.empty() ? "" : " " + dbe.code) + "): " + dbe.message +
                       (errorsLogged == 99 ? " (further errors are counted, 1 line per 1000 shown)" : ""));
        }
        errorsLogged++;
        if (dbe.kind == ErrKind::Connection) {
          sh_.session(a.index, kFaultDrops);
          sh_.state(a.index, kStateConnecting);
          conn.close();
          if (!cfg_.reconnect) {
            log(pos, name + ": connection lost and tprocc.reconnect is off: the virtual user ends");
            return false;
          }
          if (!reconnect(conn, "connection lost", true)) return !running();
        }
      } else {
        sh_.count(a.index, t, out == Outcome::Commit ? kCommit : kRollback);
        const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
        const int64_t us = std::max<int64_t>(1, (ns + 500) / 1000);
        ring.push(static_cast<int32_t>(t) | (measuring ? kRecMeasuring : 0), static_cast<int32_t>(std::min<int64_t>(us, INT32_MAX)), [this] { return aborting(); });
        if (measuring) {
          res.totalNs[t] += static_cast<double>(ns);
          const double s = msSince(epoch, t0);
          const double e = msSince(epoch, t1);
          if (s < *wStart) *wStart = s;
          if (e > *wEnd) *wEnd = e;
        }
        if (cfg_.testDriver) {
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
