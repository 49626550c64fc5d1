#include "script_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <thread>
#include <utility>

namespace sledge::pgvu {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kSleepSliceMs = 20;
constexpr size_t kMaxQueuedLogs = 100000;
constexpr size_t kThreadStack = 512 * 1024;

std::string num(int64_t v) { return std::to_string(v); }
double msSince(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
std::string fixed1(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

// One VU's connection: PgConn's connect and waits, the script's statements
// prepared on first use (named sledge_s<k+1>, as the JavaScript parameter
// session names them).
class ScriptRun::Conn {
 public:
  Conn(const PgConfig& pg, size_t statements) : conn_(pg), prepared_(statements, false) {}

  bool connect(const std::string& name, const Interrupt& intr, std::string* error, bool* stopped) {
    std::fill(prepared_.begin(), prepared_.end(), false);
    return conn_.connect(name, intr, error, stopped);
  }
  void close() {
    conn_.close();
    std::fill(prepared_.begin(), prepared_.end(), false);
  }
  bool connected() const { return conn_.connected(); }

  // One step; false with *err (or *cancelled) when it failed.
  bool step(const ScriptConfig& cfg, const FeedStep& st, const Interrupt& intr, DbError* err, bool* cancelled) {
    PGconn* c = conn_.handle();
    if (c == nullptr) {
      err->kind = ErrKind::Connection;
      err->code.clear();
      err->message = "no connection";
      return false;
    }
    int sent;
    if (st.code == kStepBegin || st.code == kStepCommit || st.code == kStepRollback) {
      sent = PQsendQuery(c, st.code == kStepBegin ? "BEGIN" : st.code == kStepCommit ? "COMMIT" : "ROLLBACK");
    } else {
      if (st.code >= prepared_.size()) {
        err->kind = ErrKind::Other;
        err->code.clear();
        err->message = "the feed names statement " + num(st.code) + ", the script has " + num(static_cast<int64_t>(prepared_.size()));
        return false;
      }
      if (!prepared_[st.code]) {
        const std::string name = "sledge_s" + num(st.code + 1);
        if (!PQsendPrepare(c, name.c_str(), cfg.statements[st.code].c_str(), 0, nullptr)) return failed(nullptr, err);
        if (!finish(intr, err, cancelled)) return false;
        prepared_[st.code] = true;
      }
      char name[32];
      std::snprintf(name, sizeof name, "sledge_s%d", st.code + 1);
      sent = PQsendQueryPrepared(c, name, st.nparams, st.values, nullptr, nullptr, 0);
    }
    if (!sent) return failed(nullptr, err);
    return finish(intr, err, cancelled);
  }

 private:
  bool failed(PGresult* res, DbError* err) {
    conn_.fillError(res, err);
    return false;
  }
  bool finish(const Interrupt& intr, DbError* err, bool* cancelled) {
    PGresult* res = nullptr;
    if (!conn_.await(intr, &res)) {
      if (res != nullptr) PQclear(res);
      *cancelled = true;
      return false;
    }
    const ExecStatusType st = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    const bool ok = st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK;
    if (!ok) conn_.fillError(res, err);
    if (res != nullptr) PQclear(res);
    return ok;
  }

  PgConn conn_;
  std::vector<bool> prepared_;
};

ScriptRun::ScriptRun(ScriptConfig cfg, std::vector<VuSpec> vus, Shared shared)
    : cfg_(std::move(cfg)), pg_{cfg_.conninfo, {}, {}}, vus_(std::move(vus)), sh_(shared), results_(vus_.size()) {
  for (ScriptVuResult& r : results_) r.totalNs.assign(cfg_.ops.size(), 0.0);
}

ScriptRun::~ScriptRun() { shutdown(); }

bool ScriptRun::start(std::string* error) {
  threads_.reserve(vus_.size());
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kThreadStack);
  for (size_t slot = 0; slot < vus_.size(); slot++) {
    auto* arg = new ThreadArg{this, slot};
    live_.fetch_add(1, std::memory_order_acq_rel);
    pthread_t tid;
    const int rc = pthread_create(&tid, &attr, &ScriptRun::threadMain, arg);
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

void* ScriptRun::threadMain(void* p) {
  std::unique_ptr<ThreadArg> arg(static_cast<ThreadArg*>(p));
#ifdef __linux__
  std::string name = "sledge-vu-" + num(arg->run->vus_[arg->slot].position);
  name.resize(std::min<size_t>(name.size(), 15));
  pthread_setname_np(pthread_self(), name.c_str());
#endif
  arg->run->vuMain(arg->slot);
  return nullptr;
}

void ScriptRun::shutdown() {
  teardown_.store(true, std::memory_order_release);
  for (pthread_t t : threads_) pthread_join(t, nullptr);
  threads_.clear();
}

std::vector<LogLine> ScriptRun::drainLogs() {
  std::vector<LogLine> out;
  std::lock_guard<std::mutex> lock(logMu_);
  out.swap(logs_);
  if (droppedLogs_ > 0) {
    out.push_back({0, num(droppedLogs_) + " log lines dropped: the worker thread drained them too slowly"});
    droppedLogs_ = 0;
  }
  return out;
}

void ScriptRun::log(int64_t vu, std::string text) {
  std::lock_guard<std::mutex> lock(logMu_);
  if (logs_.size() >= kMaxQueuedLogs) {
    droppedLogs_++;
    return;
  }
  logs_.push_back({vu, std::move(text)});
}

bool ScriptRun::running() { return !teardown_.load(std::memory_order_acquire) && sh_.run() == kRunGo; }
bool ScriptRun::aborting() { return teardown_.load(std::memory_order_acquire) || sh_.run() == kRunAbort; }

void ScriptRun::sleepUnlessStopped(int64_t ms) {
  if (ms <= 0 || !running()) return;
  const auto end = Clock::now() + std::chrono::milliseconds(ms);
  while (running()) {
    const auto now = Clock::now();
    if (now >= end) return;
    std::this_thread::sleep_for(std::min<Clock::duration>(end - now, std::chrono::milliseconds(kSleepSliceMs)));
  }
}

void ScriptRun::vuMain(size_t slot) {
  const VuSpec& a = vus_[slot];
  ScriptVuResult& res = results_[slot];
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

// vu-loop.ts runClient and runOps for one script client (reconnect on, no retries: the script workload has neither option).
bool ScriptRun::runClient(size_t slot, ScriptVuResult& res, double* wStart, double* wEnd) {
  const VuSpec& a = vus_[slot];
  const int64_t pos = a.position;
  const std::string name = "Vuser " + num(pos);
  const std::string appName = "sledge-vu-" + num(pos) + (cfg_.sessionTag.empty() ? std::string() : "~" + cfg_.sessionTag);
  Interrupt intr{[this] { return !running(); }, [this] { return aborting(); }};
  LatencyRing ring(&sh_, static_cast<int>(slot));
  Feed feed(cfg_.feedIndex.data + slot * kFeedStride, cfg_.feedData + slot * static_cast<size_t>(cfg_.feedCapacity), cfg_.feedCapacity);
  const auto epoch = Clock::now();
  Conn conn(pg_, cfg_.statements.size());
  int64_t errorsLogged = 0;

  auto reconnect = [&](const std::string& why, bool lost) -> bool {
    const auto started = Clock::now();
    log(pos, name + ": " + why + ", reconnecting");
    int64_t wait = 500;
    while (running()) {
      sleepUnlessStopped(wait);
      if (!running()) return false;
      std::string err;
      bool stopped = false;
      if (conn.connect(appName, intr, &err, &stopped)) {
        log(pos, name + ": reconnected after " + fixed1(msSince(started, Clock::now()) / 1000.0) + " s");
        if (lost) sh_.session(a.index, kFaultBacks);
        sh_.state(a.index, kStateRunning);
        return true;
      }
      wait = std::min<int64_t>(wait * 2, 5000);
    }
    return false;
  };

  {
    std::string err;
    bool stopped = false;
    if (!conn.connect(appName, intr, &err, &stopped)) {
      if (stopped) return true;
      // As vu-loop.ts: a database that refuses connections now may be back soon (reconnect is on for scripts).
      if (!reconnect("cannot connect (" + err + ")", false)) {
        if (!running()) return true;
        log(pos, "Error in Virtual User " + num(pos) + ": connecting to PostgreSQL failed: " + err);
        return false;
      }
    }
  }
  sh_.state(a.index, kStateRunning);
  FeedTx tx;
  std::string bad;
  while (running()) {
    if (!feed.next(&tx, &bad)) {
      if (!bad.empty()) {
        log(pos, "Error in Virtual User " + num(pos) + ": the script feed is corrupt (" + bad + ")");
        return false;
      }
      // The worker thread refills every feed well ahead; an empty one waits for it.
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    const int op = tx.op;
    if (op < 0 || static_cast<size_t>(op) >= cfg_.ops.size()) {
      log(pos, "Error in Virtual User " + num(pos) + ": the script feed names script " + num(op));
      return false;
    }
    const bool measuring = sh_.phase() == kPhaseMeasuring;
    const auto t0 = Clock::now();
    DbError dbe;
    bool failed = false;
    bool cancelled = false;
    bool inTx = false;
    for (const FeedStep& st : tx.steps) {
      // client.ts tx(): the transaction counts as open once BEGIN succeeded, and as closed once COMMIT/ROLLBACK is sent.
      if (st.code == kStepCommit || st.code == kStepRollback) inTx = false;
      if (!conn.step(cfg_, st, intr, &dbe, &cancelled)) {
        failed = true;
        break;
      }
      if (st.code == kStepBegin) inTx = true;
    }
    feed.release();
    if (cancelled) return true;  // aborted mid-statement
    if (!failed && !tx.error.empty()) {
      // The interpreter's error (client.ts throws ScriptRuntimeError): the statements before it ran.
      failed = true;
      dbe.kind = ErrKind::Other;
      dbe.code.clear();
      dbe.message = tx.error;
    }
    if (failed) {
      // client.ts run(): roll back an open transaction, ignoring what that says.
      if (inTx && dbe.kind != ErrKind::Connection && conn.connected()) {
        FeedStep rb;
        rb.code = kStepRollback;
        DbError ignored;
        bool c2 = false;
        conn.step(cfg_, rb, intr, &ignored, &c2);
        if (c2) return true;
      }
      sh_.count(a.index, op, kError);
      sh_.error(a.index, op, errorClass(dbe.kind));
      if (errorsLogged < 100 || errorsLogged % 1000 == 0) {
        log(pos, cfg_.ops[op] + " Procedure Error (" + errKindName(dbe.kind) + (dbe.code.empty() ? "" : " " + dbe.code) + "): " + dbe.message +
                     (errorsLogged == 99 ? " (further errors are counted, 1 line per 1000 shown)" : ""));
      }
      errorsLogged++;
      if (dbe.kind == ErrKind::Connection) {
        sh_.session(a.index, kFaultDrops);
        sh_.state(a.index, kStateConnecting);
        conn.close();
        if (!reconnect("connection lost", true)) return !running();
      }
      continue;
    }
    const auto t1 = Clock::now();
    sh_.count(a.index, op, kCommit);
    const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
    const int64_t us = std::max<int64_t>(1, (ns + 500) / 1000);
    ring.push(static_cast<int32_t>(op) | (measuring ? kRecMeasuring : 0), static_cast<int32_t>(std::min<int64_t>(us, INT32_MAX)), [this] { return aborting(); });
    if (measuring) {
      res.totalNs[op] += static_cast<double>(ns);
      const double s = msSince(epoch, t0);
      const double e = msSince(epoch, t1);
      if (s < *wStart) *wStart = s;
      if (e > *wEnd) *wEnd = e;
    }
  }
  conn.close();
  return true;
}

}  // namespace sledge::pgvu
