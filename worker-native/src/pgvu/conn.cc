#include "conn.h"

#include <poll.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "../first_line.h"

namespace sledge::pgvu {

namespace {

// Slice of every wait: how late a stop or an abort is noticed at most.
constexpr int kSliceMs = 100;

// The statement names node-postgres uses for the same statements (vu.ts).
const char* const kStatementNames[kNtx] = {"sledge_neworder", "sledge_payment", "sledge_delivery", "sledge_stocklevel", "sledge_orderstatus"};

// poll() one socket in slices; 1 ready, 0 when `give_up()` ended the wait or
// the deadline passed (timedOut set), -1 on a socket error.
template <typename GiveUp>
int waitSocket(int fd, short events, GiveUp give_up, std::chrono::steady_clock::time_point deadline, bool useDeadline, bool* timedOut) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, kSliceMs);
    if (r > 0) return 1;
    if (r < 0 && errno != EINTR) return -1;
    if (give_up()) return 0;
    if (useDeadline && std::chrono::steady_clock::now() >= deadline) {
      *timedOut = true;
      return 0;
    }
  }
}

}  // namespace

ErrKind classify(const std::string& code, bool connectionBad) {
  if (code == "40P01") return ErrKind::Deadlock;
  if (code == "40001") return ErrKind::Serialization;
  if (code == "55P03") return ErrKind::LockTimeout;
  if (code == "57014") return ErrKind::Timeout;
  if (code.rfind("08", 0) == 0 || code == "57P01" || code == "57P02" || code == "57P03" || code == "53300" || connectionBad) return ErrKind::Connection;
  if (code.rfind("23", 0) == 0) return ErrKind::Constraint;
  return ErrKind::Other;
}

int connectTimeoutSec(PGconn* conn) {
  int timeoutSec = 0;
  if (PQconninfoOption* opts = PQconninfo(conn)) {
    for (PQconninfoOption* o = opts; o->keyword != nullptr; o++) {
      if (std::strcmp(o->keyword, "connect_timeout") == 0 && o->val != nullptr) timeoutSec = std::atoi(o->val);
    }
    PQconninfoFree(opts);
  }
  return timeoutSec;
}

void pgError(PGconn* conn, PGresult* res, DbError* err) {
  const bool bad = conn == nullptr || PQstatus(conn) == CONNECTION_BAD;
  const char* code = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  err->code = code != nullptr ? code : "";
  const char* primary = res != nullptr ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  if (primary != nullptr) {
    err->message = firstLine(primary);
  } else if (res != nullptr && PQresultErrorMessage(res)[0] != '\0') {
    err->message = firstLine(PQresultErrorMessage(res));
  } else {
    err->message = firstLine(conn != nullptr ? PQerrorMessage(conn) : "no connection");
  }
  if (err->message.empty()) err->message = bad ? "connection lost" : "unknown error";
  err->kind = classify(err->code, bad);
}

bool PgConn::connect(const std::string& sessionName, const Interrupt& intr, std::string* error, bool* stopped) {
  close();
  *stopped = false;
  // expand_dbname: the first dbname value is the whole conninfo string; the
  // later application_name overrides any in it.
  const char* keywords[] = {"dbname", "application_name", nullptr};
  const char* values[] = {cfg_.conninfo.c_str(), sessionName.c_str(), nullptr};
  conn_ = PQconnectStartParams(keywords, values, 1);
  if (conn_ == nullptr) {
    *error = "out of memory starting a connection";
    return false;
  }
  if (PQstatus(conn_) == CONNECTION_BAD) {
    *error = firstLine(PQerrorMessage(conn_));
    close();
    return false;
  }
  const int timeoutSec = connectTimeoutSec(conn_);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSec);
  PostgresPollingStatusType st = PGRES_POLLING_WRITING;
  for (;;) {
    if (st == PGRES_POLLING_OK) break;
    if (st == PGRES_POLLING_FAILED) {
      *error = firstLine(PQerrorMessage(conn_));
      close();
      return false;
    }
    bool timedOut = false;
    const int r = waitSocket(PQsocket(conn_), st == PGRES_POLLING_READING ? POLLIN : POLLOUT, intr.stop, deadline, timeoutSec > 0, &timedOut);
    if (r == 0) {
      close();
      if (timedOut) {
        *error = "timeout expired";
        return false;
      }
      *stopped = true;
      *error = "stopped";
      return false;
    }
    if (r < 0) {
      *error = std::string("socket error while connecting: ") + std::strerror(errno);
      close();
      return false;
    }
    st = PQconnectPoll(conn_);
  }
  cancel_ = PQgetCancel(conn_);
  return true;
}

void PgConn::close() {
  if (cancel_ != nullptr) {
    PQfreeCancel(cancel_);
    cancel_ = nullptr;
  }
  if (conn_ != nullptr) {
    PQfinish(conn_);
    conn_ = nullptr;
  }
  for (bool& p : prepared_) p = false;
}

bool PgConn::await(const Interrupt& intr, PGresult** out) {
  bool cancelled = false;
  bool broken = false;
  while (PQisBusy(conn_)) {
    pollfd p{PQsocket(conn_), POLLIN, 0};
    const int r = ::poll(&p, 1, kSliceMs);
    if (r < 0 && errno != EINTR) break;  // PQgetResult reports the broken connection
    if (r == 0) {
      if (!cancelled && intr.abort()) {
        char buf[256];
        if (cancel_ != nullptr) PQcancel(cancel_, buf, sizeof buf);
        cancelled = true;
      }
      continue;
    }
    if (r > 0 && !PQconsumeInput(conn_)) {
      broken = true;
      break;
    }
  }
  PGresult* keep = nullptr;
  // After a failed read PQgetResult returns the connection error, then null.
  for (int guard = 0; guard < 64; guard++) {
    PGresult* res = PQgetResult(conn_);
    if (res == nullptr) break;
    const bool keepIsError = keep != nullptr && PQresultStatus(keep) == PGRES_FATAL_ERROR;
    if (keepIsError) {
      PQclear(res);
    } else {
      if (keep != nullptr) PQclear(keep);
      keep = res;
    }
    if (broken && PQstatus(conn_) == CONNECTION_BAD) break;
  }
  *out = keep;
  return !cancelled;
}

void PgConn::fillError(PGresult* res, DbError* err) { pgError(conn_, res, err); }

bool PgConn::prepare(int tx, const Interrupt& intr, DbError* err) {
  if (!PQsendPrepare(conn_, kStatementNames[tx], cfg_.statements[tx].c_str(), 0, nullptr)) {
    fillError(nullptr, err);
    return false;
  }
  PGresult* res = nullptr;
  await(intr, &res);
  const bool ok = res != nullptr && PQresultStatus(res) == PGRES_COMMAND_OK;
  if (!ok) fillError(res, err);
  if (res != nullptr) PQclear(res);
  prepared_[tx] = ok;
  return ok;
}

void PgConn::prepareAll(const Interrupt& intr) {
  DbError ignored;
  for (int tx = 0; tx < kNtx && connected(); tx++) {
    if (!prepared_[tx]) prepare(tx, intr, &ignored);
  }
}

Outcome PgConn::exec(const TxInput& in, const Interrupt& intr, DbError* err) {
  const int tx = in.type;
  if (conn_ == nullptr) {
    err->kind = ErrKind::Connection;
    err->code.clear();
    err->message = "no connection";
    return Outcome::Error;
  }
  if (!prepared_[tx] && !prepare(tx, intr, err)) return Outcome::Error;
  params_.fill(in);
  if (!PQsendQueryPrepared(conn_, kStatementNames[tx], params_.count(), params_.values(), nullptr, nullptr, 0)) {
    fillError(nullptr, err);
    return Outcome::Error;
  }
  PGresult* res = nullptr;
  if (!await(intr, &res)) {
    if (res != nullptr) PQclear(res);
    return Outcome::Cancelled;
  }
  Outcome out = Outcome::Commit;
  const ExecStatusType st = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
  if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
    const char* code = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
    if (code != nullptr && cfg_.rollbackSqlstate == code) {
      out = Outcome::Rollback;
    } else {
      fillError(res, err);
      out = Outcome::Error;
    }
  }
  if (res != nullptr) PQclear(res);
  return out;
}

}  // namespace sledge::pgvu
