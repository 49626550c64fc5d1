#include "script_run.h"

#include "session_keeper.h"

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

using Clock = VuThreads::Clock;

std::string num(int64_t v) { return std::to_string(v); }

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
    : VuThreads(std::move(vus), shared), cfg_(std::move(cfg)), pg_{cfg_.conninfo, {}, {}}, results_(vus_.size()) {
  for (ScriptVuResult& r : results_) r.totalNs.assign(cfg_.ops.size(), 0.0);
}

ScriptRun::~ScriptRun() { shutdown(); }

// vu-loop.ts runClient and runOps for one script client (reconnect on, no retries: the script workload has neither option).
bool ScriptRun::runClient(size_t slot, double* wStart, double* wEnd) {
  const VuSpec& a = vus_[slot];
  ScriptVuResult& res = results_[slot];
  const int64_t pos = a.position;
  const std::string appName = sessionName(slot, cfg_.sessionTag);
  const Interrupt intr = interrupt();
  LatencyRing ring(&sh_, static_cast<int>(slot));
  Feed feed(cfg_.feedIndex.data + slot * kFeedStride, cfg_.feedData + slot * static_cast<size_t>(cfg_.feedCapacity), cfg_.feedCapacity);
  const auto epoch = Clock::now();
  Conn conn(pg_, cfg_.statements.size());
  int64_t errorsLogged = 0;
  SessionKeeper keeper(*this, slot, [&](std::string* err, bool* stopped) { return conn.connect(appName, intr, err, stopped); });

  // As vu-loop.ts: a database that refuses connections now may be back soon (reconnect is on for scripts).
  const SessionKeeper::Start started = keeper.start(true, "PostgreSQL");
  if (started != SessionKeeper::Start::Open) return started == SessionKeeper::Start::Stopped;
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
      logProcedureError(pos, cfg_.ops[op], dbe, &errorsLogged);
      if (dbe.kind == ErrKind::Connection) {
        keeper.dropped();
        conn.close();
        if (!keeper.reconnect("connection lost", true)) return !running();
      }
      continue;
    }
    const auto t1 = Clock::now();
    sh_.count(a.index, op, kCommit);
    record(ring, op, measuring, epoch, t0, t1, &res.totalNs[op], wStart, wEnd);
  }
  conn.close();
  return true;
}

}  // namespace sledge::pgvu
