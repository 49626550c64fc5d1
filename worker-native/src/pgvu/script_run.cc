#include "script_run.h"

#include <poll.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

#include "../first_line.h"

namespace sledge::pgvu {

namespace {

using Clock = VuThreads::Clock;

// The longest poll() of a thread: how late a stop or an abort is noticed at most (vu_threads.cc sleeps in slices as long).
constexpr auto kSlice = std::chrono::milliseconds(20);
// vu-loop.ts waitForGo's step while the job has not said go.
constexpr auto kGoSlice = std::chrono::milliseconds(5);
// An empty feed is looked at again after this (the worker thread refills every feed well ahead).
constexpr auto kFeedRetry = std::chrono::microseconds(200);
// An abort cancels a statement that has waited this long for its answer (conn.cc's wait slice: PgConn::await).
constexpr auto kCancelAfter = std::chrono::milliseconds(100);
// Reconnect backoff (session_keeper.cc): 0.5 s, doubling to 5 s.
constexpr int64_t kBackoffFirstMs = 500;
constexpr int64_t kBackoffMaxMs = 5000;

std::string num(int64_t v) { return std::to_string(v); }

bool isControl(uint16_t code) { return code == kStepBegin || code == kStepCommit || code == kStepRollback; }

const char* controlSql(uint16_t code) { return code == kStepBegin ? "BEGIN" : code == kStepCommit ? "COMMIT" : "ROLLBACK"; }

}  // namespace

// What a VU waits for before it can go on: its socket ready for `events`
// (fd -1: none), or the time `until`, whichever comes first.
struct ScriptRun::Want {
  int fd = -1;
  short events = 0;
  Clock::time_point until = Clock::time_point::max();
};

// One VU: its connection, its feed, and where it is in its life. advance()
// runs it as far as it gets without waiting and says what it waits for; the
// thread's loop polls for that and calls it again. vuMain (vu_threads.cc)
// plus the old blocking runClient, step by step: the same states, counts,
// lines and outcomes.
class ScriptRun::Vu {
 public:
  Vu(ScriptRun& run, size_t slot)
      : run_(run),
        slot_(slot),
        spec_(run.vus_[slot]),
        appName_(run.sessionName(slot, run.cfg_.sessionTag)),
        ring_(&run.sh_, static_cast<int>(slot)),
        feed_(run.cfg_.feedIndex.data + slot * kFeedStride, run.cfg_.feedData + slot * static_cast<size_t>(run.cfg_.feedCapacity), run.cfg_.feedCapacity),
        prepared_(run.cfg_.statements.size(), false) {}
  ~Vu() { closeConn(); }
  Vu(const Vu&) = delete;
  Vu& operator=(const Vu&) = delete;

  // revents: what poll() said of the socket the VU last waited for (0: nothing, or it waited for none). False once the VU has ended.
  bool advance(short revents, Clock::time_point now, Want* want) {
    rev_ = revents;
    for (;;) {
      switch (st_) {
        case St::WaitGo:
          if (!run_.running()) {
            run_.skipVu(slot_);
            to(St::Done);
            continue;
          }
          if (run_.sh_.go() == 0) {
            want->until = now + kGoSlice;
            return true;
          }
          delayUntil_ = Clock::now() + std::chrono::milliseconds(spec_.startDelayMs);
          to(St::Delay);
          continue;

        case St::Delay:
          if (!run_.running()) {
            run_.skipVu(slot_);
            to(St::Done);
            continue;
          }
          if (spec_.startDelayMs > 0 && now < delayUntil_) {
            want->until = delayUntil_;
            return true;
          }
          run_.beginVu(slot_);
          epoch_ = Clock::now();
          startConnect();
          continue;

        case St::Connect:
          if (!run_.running()) {
            closeConn();
            connectFailed("stopped", true);
            continue;
          }
          if (rev_ != 0) {
            rev_ = 0;
            pollStatus_ = PQconnectPoll(conn_);
            if (pollStatus_ == PGRES_POLLING_OK) {
              cancel_ = PQgetCancel(conn_);
              connected();
              continue;
            }
            if (pollStatus_ == PGRES_POLLING_FAILED) {
              const std::string e = firstLine(PQerrorMessage(conn_));
              closeConn();
              connectFailed(e, false);
              continue;
            }
            continue;  // wait again, on the socket PQsocket names now (it changes between attempts)
          }
          if (connectDeadline_ && now >= connectBy_) {
            closeConn();
            connectFailed("timeout expired", false);
            continue;
          }
          want->fd = PQsocket(conn_);
          want->events = pollStatus_ == PGRES_POLLING_READING ? POLLIN : POLLOUT;
          if (connectDeadline_) want->until = connectBy_;
          return true;

        case St::Backoff:
          if (!run_.running()) {
            finish(true);  // session_keeper.cc reconnect() gives up: the VU ends well
            continue;
          }
          if (now < backoffUntil_) {
            want->until = backoffUntil_;
            return true;
          }
          startConnect();
          continue;

        case St::Next: {
          if (!run_.running()) {
            finish(true);
            continue;
          }
          std::string bad;
          if (!feed_.next(&tx_, &bad)) {
            if (!bad.empty()) {
              run_.log(spec_.position, "Error in Virtual User " + num(spec_.position) + ": the script feed is corrupt (" + bad + ")");
              finish(false);
              continue;
            }
            want->until = now + kFeedRetry;
            return true;
          }
          op_ = tx_.op;
          if (op_ < 0 || static_cast<size_t>(op_) >= run_.cfg_.ops.size()) {
            run_.log(spec_.position, "Error in Virtual User " + num(spec_.position) + ": the script feed names script " + num(op_));
            finish(false);
            continue;
          }
          measuring_ = run_.sh_.phase() == kPhaseMeasuring;
          t0_ = Clock::now();
          step_ = 0;
          inTx_ = false;
          failed_ = false;
          dbe_ = DbError{};
          sendStep();
          continue;
        }

        case St::Busy: {
          if (!cancelled_ && run_.aborting()) {
            // As PgConn::await: an aborted run cancels a statement that keeps it waiting, then waits for its answer.
            if (now - busySince_ >= kCancelAfter) {
              char buf[256];
              if (cancel_ != nullptr) PQcancel(cancel_, buf, sizeof buf);
              cancelled_ = true;
            } else {
              want->until = busySince_ + kCancelAfter;
            }
          }
          if (rev_ == 0) {
            want->fd = PQsocket(conn_);
            want->events = POLLIN;
            return true;
          }
          rev_ = 0;
          if (!collect()) {
            want->fd = PQsocket(conn_);
            want->events = POLLIN;
            return true;
          }
          onAnswer();
          continue;
        }

        case St::Done:
          return false;
      }
    }
  }

 private:
  enum class St { WaitGo, Delay, Connect, Backoff, Next, Busy, Done };
  // What the VU's outstanding command is: a statement's PQsendPrepare, a step, or the ROLLBACK after a failed step.
  enum class Wait { Prepare, Step, Rollback };

  void to(St s) {
    st_ = s;
    rev_ = 0;
  }

  // --- the session (PgConn::connect and SessionKeeper, without their waits)

  void startConnect() {
    closeConn();
    // expand_dbname: the first dbname value is the whole conninfo string; the later application_name overrides any in it.
    const char* keywords[] = {"dbname", "application_name", nullptr};
    const char* values[] = {run_.cfg_.conninfo.c_str(), appName_.c_str(), nullptr};
    conn_ = PQconnectStartParams(keywords, values, 1);
    if (conn_ == nullptr) {
      connectFailed("out of memory starting a connection", false);
      return;
    }
    if (PQstatus(conn_) == CONNECTION_BAD) {
      const std::string e = firstLine(PQerrorMessage(conn_));
      closeConn();
      connectFailed(e, false);
      return;
    }
    const int timeoutSec = connectTimeoutSec(conn_);
    connectDeadline_ = timeoutSec > 0;
    connectBy_ = Clock::now() + std::chrono::seconds(timeoutSec);
    pollStatus_ = PGRES_POLLING_WRITING;
    to(St::Connect);
  }

  // SessionKeeper::start (the first session) and reconnect (later ones) once a session opened.
  void connected() {
    if (reconnecting_) {
      char secs[64];
      std::snprintf(secs, sizeof secs, "%.1f", std::chrono::duration<double>(Clock::now() - reconnectSince_).count());
      run_.log(spec_.position, "Vuser " + num(spec_.position) + ": reconnected after " + secs + " s");
      if (lost_) run_.sh_.session(spec_.index, kFaultBacks);
      reconnecting_ = false;
    }
    run_.sh_.state(spec_.index, kStateRunning);
    to(St::Next);
  }

  // The same when an attempt failed: a first one stopped by the job ends the VU well, a refused one is retried
  // ("cannot connect (...), reconnecting"); in a reconnect the backoff doubles and the VU waits again.
  void connectFailed(const std::string& err, bool stopped) {
    if (!reconnecting_) {
      if (stopped) {
        finish(true);
        return;
      }
      beginReconnect("cannot connect (" + err + ")", false);
      return;
    }
    backoffMs_ = std::min<int64_t>(backoffMs_ * 2, kBackoffMaxMs);
    backoffUntil_ = Clock::now() + std::chrono::milliseconds(backoffMs_);
    to(St::Backoff);
  }

  void beginReconnect(const std::string& why, bool lost) {
    run_.log(spec_.position, "Vuser " + num(spec_.position) + ": " + why + ", reconnecting");
    reconnecting_ = true;
    lost_ = lost;
    reconnectSince_ = Clock::now();
    backoffMs_ = kBackoffFirstMs;
    backoffUntil_ = reconnectSince_ + std::chrono::milliseconds(backoffMs_);
    to(St::Backoff);
  }

  void closeConn() {
    if (keep_ != nullptr) {
      PQclear(keep_);
      keep_ = nullptr;
    }
    if (cancel_ != nullptr) {
      PQfreeCancel(cancel_);
      cancel_ = nullptr;
    }
    if (conn_ != nullptr) {
      PQfinish(conn_);
      conn_ = nullptr;
    }
    std::fill(prepared_.begin(), prepared_.end(), false);
  }

  bool connectedOk() const { return conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK; }

  void finish(bool ok) {
    closeConn();
    run_.endVu(slot_, ok, wStart_, wEnd_);
    to(St::Done);
  }

  // --- a transaction

  void failStep(ErrKind kind, std::string message) {
    dbe_.kind = kind;
    dbe_.code.clear();
    dbe_.message = std::move(message);
    failed_ = true;
    endTx();
  }

  void failSend() {
    pgError(conn_, nullptr, &dbe_);
    failed_ = true;
    endTx();
  }

  void await(Wait w) {
    waiting_ = w;
    busySince_ = Clock::now();
    to(St::Busy);
  }

  bool sendPrepared(const FeedStep& st) {
    return PQsendQueryPrepared(conn_, run_.names_[st.code].c_str(), st.nparams, st.values, nullptr, nullptr, 0) != 0;
  }

  // Sends the transaction's next step (preparing its statement first on this connection), or ends the transaction after its last.
  void sendStep() {
    if (step_ == tx_.steps.size()) {
      endTx();
      return;
    }
    const FeedStep& st = tx_.steps[step_];
    // client.ts tx(): the transaction counts as open once BEGIN succeeded, and as closed once COMMIT/ROLLBACK is sent.
    if (st.code == kStepCommit || st.code == kStepRollback) inTx_ = false;
    if (conn_ == nullptr) return failStep(ErrKind::Connection, "no connection");
    if (isControl(st.code)) {
      if (!PQsendQuery(conn_, controlSql(st.code))) return failSend();
      return await(Wait::Step);
    }
    if (st.code >= prepared_.size()) {
      return failStep(ErrKind::Other, "the feed names statement " + num(st.code) + ", the script has " + num(static_cast<int64_t>(prepared_.size())));
    }
    if (!prepared_[st.code]) {
      if (!PQsendPrepare(conn_, run_.names_[st.code].c_str(), run_.cfg_.statements[st.code].c_str(), 0, nullptr)) return failSend();
      return await(Wait::Prepare);
    }
    if (!sendPrepared(st)) return failSend();
    await(Wait::Step);
  }

  // Reads what arrived; true once the whole answer is in (keep_: its first error result, or its last result).
  bool collect() {
    if (!PQconsumeInput(conn_)) {
      // The connection broke: PQgetResult gives its error, then null.
      for (int guard = 0; guard < 64; guard++) {
        PGresult* res = PQgetResult(conn_);
        if (res == nullptr) break;
        keep(res);
        if (PQstatus(conn_) == CONNECTION_BAD) break;
      }
      return true;
    }
    while (!PQisBusy(conn_)) {
      PGresult* res = PQgetResult(conn_);
      if (res == nullptr) return true;
      keep(res);
    }
    return false;
  }

  void keep(PGresult* res) {
    if (keep_ != nullptr && PQresultStatus(keep_) == PGRES_FATAL_ERROR) {
      PQclear(res);
      return;
    }
    if (keep_ != nullptr) PQclear(keep_);
    keep_ = res;
  }

  // The answer to the outstanding command is in.
  void onAnswer() {
    PGresult* res = keep_;
    keep_ = nullptr;
    if (cancelled_) {
      // Aborted mid-statement: the VU ends well.
      if (res != nullptr) PQclear(res);
      feed_.release();
      finish(true);
      return;
    }
    const ExecStatusType s = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    const bool ok = s == PGRES_TUPLES_OK || s == PGRES_COMMAND_OK;
    if (!ok && waiting_ != Wait::Rollback) pgError(conn_, res, &dbe_);
    if (res != nullptr) PQclear(res);
    switch (waiting_) {
      case Wait::Rollback:
        afterFailure();  // what the ROLLBACK said is ignored
        return;
      case Wait::Prepare: {
        if (!ok) {
          failed_ = true;
          endTx();
          return;
        }
        const FeedStep& st = tx_.steps[step_];
        prepared_[st.code] = true;
        if (!sendPrepared(st)) return failSend();
        await(Wait::Step);
        return;
      }
      case Wait::Step:
        if (!ok) {
          failed_ = true;
          endTx();
          return;
        }
        if (tx_.steps[step_].code == kStepBegin) inTx_ = true;
        step_++;
        sendStep();
        return;
    }
  }

  // After the last step, or the step that failed.
  void endTx() {
    feed_.release();
    if (!failed_ && !tx_.error.empty()) {
      // The interpreter's error (client.ts throws ScriptRuntimeError): the statements before it ran.
      failed_ = true;
      dbe_.kind = ErrKind::Other;
      dbe_.code.clear();
      dbe_.message = tx_.error;
    }
    if (!failed_) {
      const auto t1 = Clock::now();
      run_.sh_.count(spec_.index, op_, kCommit);
      run_.record(ring_, op_, measuring_, epoch_, t0_, t1, &run_.results_[slot_].totalNs[op_], &wStart_, &wEnd_);
      to(St::Next);
      return;
    }
    // client.ts run(): roll back an open transaction, ignoring what that says (a send that fails too).
    if (inTx_ && dbe_.kind != ErrKind::Connection && connectedOk() && PQsendQuery(conn_, "ROLLBACK")) {
      await(Wait::Rollback);
      return;
    }
    afterFailure();
  }

  void afterFailure() {
    ScriptRun& r = run_;
    r.sh_.count(spec_.index, op_, kError);
    r.sh_.error(spec_.index, op_, errorClass(dbe_.kind));
    r.logProcedureError(spec_.position, r.cfg_.ops[op_], dbe_, &errorsLogged_);
    if (dbe_.kind == ErrKind::Connection) {
      // SessionKeeper::dropped(), then reconnect("connection lost", lost).
      r.sh_.session(spec_.index, kFaultDrops);
      r.sh_.state(spec_.index, kStateConnecting);
      closeConn();
      beginReconnect("connection lost", true);
      return;
    }
    to(St::Next);
  }

  ScriptRun& run_;
  const size_t slot_;
  const VuSpec& spec_;
  const std::string appName_;
  LatencyRing ring_;
  Feed feed_;
  St st_ = St::WaitGo;
  short rev_ = 0;
  Clock::time_point epoch_;
  double wStart_ = std::numeric_limits<double>::infinity();
  double wEnd_ = -std::numeric_limits<double>::infinity();
  int64_t errorsLogged_ = 0;
  Clock::time_point delayUntil_;

  // the session
  PGconn* conn_ = nullptr;
  PGcancel* cancel_ = nullptr;
  std::vector<bool> prepared_;
  PostgresPollingStatusType pollStatus_ = PGRES_POLLING_WRITING;
  bool connectDeadline_ = false;
  Clock::time_point connectBy_;
  bool reconnecting_ = false;  // in SessionKeeper::reconnect's loop (the first attempt failed, or the session was lost)
  bool lost_ = false;
  Clock::time_point reconnectSince_;
  int64_t backoffMs_ = kBackoffFirstMs;
  Clock::time_point backoffUntil_;

  // the transaction
  FeedTx tx_;
  int op_ = 0;
  size_t step_ = 0;
  bool inTx_ = false;
  bool failed_ = false;
  bool measuring_ = false;
  bool cancelled_ = false;
  Clock::time_point t0_;
  DbError dbe_;
  Wait waiting_ = Wait::Step;
  Clock::time_point busySince_;
  PGresult* keep_ = nullptr;
};

ScriptRun::ScriptRun(ScriptConfig cfg, std::vector<VuSpec> vus, Shared shared)
    : VuThreads(std::move(vus), shared, cfg.threads), cfg_(std::move(cfg)), results_(vus_.size()) {
  for (ScriptVuResult& r : results_) r.totalNs.assign(cfg_.ops.size(), 0.0);
  for (size_t k = 0; k < cfg_.statements.size(); k++) names_.push_back("sledge_s" + num(static_cast<int64_t>(k) + 1));
}

ScriptRun::~ScriptRun() { shutdown(); }

// Thread t runs VU slots t, t + threads, ...: one poll() over the sockets its VUs wait on, until every one has ended.
void ScriptRun::threadBody(size_t t) {
  std::vector<std::unique_ptr<Vu>> mine;
  for (size_t slot = t; slot < vus_.size(); slot += threadCount()) mine.push_back(std::make_unique<Vu>(*this, slot));
  std::vector<short> revents(mine.size(), 0);
  std::vector<pollfd> fds;
  std::vector<size_t> owner;
  fds.reserve(mine.size());
  owner.reserve(mine.size());
  for (;;) {
    const auto now = Clock::now();
    auto until = now + kSlice;
    fds.clear();
    owner.clear();
    size_t open = 0;
    for (size_t k = 0; k < mine.size(); k++) {
      Want w;
      const short rev = revents[k];
      revents[k] = 0;
      if (!mine[k]->advance(rev, now, &w)) continue;
      open++;
      if (w.fd >= 0) {
        fds.push_back(pollfd{w.fd, w.events, 0});
        owner.push_back(k);
      }
      if (w.until < until) until = w.until;
    }
    if (open == 0) break;
    const int64_t ns = std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::nanoseconds>(until - Clock::now()).count());
    const timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    // EINTR or an error: the VUs look again (a broken socket shows in their next libpq call).
    if (::ppoll(fds.data(), fds.size(), &ts, nullptr) > 0) {
      for (size_t i = 0; i < fds.size(); i++) revents[owner[i]] = fds[i].revents;
    }
  }
}

}  // namespace sledge::pgvu
