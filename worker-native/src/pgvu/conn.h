// One virtual user's libpq connection: non-blocking connect that gives up on
// a stop, the five transactions as named prepared statements, execution with
// text parameters that waits in short slices (PQcancel on abort), and the
// error classification of packages/driver-postgresql/src/errors.ts.
#pragma once

#include <libpq-fe.h>

#include <functional>
#include <string>

#include "workload.h"

namespace sledge::pgvu {

enum class ErrKind { Deadlock, Serialization, LockTimeout, Timeout, Connection, Constraint, Other };

const char* errKindName(ErrKind k);

struct DbError {
  ErrKind kind = ErrKind::Other;
  std::string code;     // SQLSTATE, empty when the client library produced the error
  std::string message;  // first line of the message
};

// errors.ts classifyError for a SQLSTATE (and whether the connection is gone).
ErrKind classify(const std::string& code, bool connectionBad);

enum class Outcome { Commit, Rollback, Error, Cancelled };

// How a waiting connection learns that it should give up.
struct Interrupt {
  std::function<bool()> stop;   // give up connecting / sleeping (CTRL_RUN != run)
  std::function<bool()> abort;  // cancel a running statement (CTRL_RUN == abort)
};

class PgConn {
 public:
  PgConn() = default;
  PgConn(const PgConn&) = delete;
  PgConn& operator=(const PgConn&) = delete;
  ~PgConn() { close(); }

  // Connects with conninfo + application_name. False with a message on
  // failure, or with stopped = true when `intr.stop()` ended the attempt.
  bool connect(const std::string& conninfo, const std::string& applicationName, const Interrupt& intr, std::string* error, bool* stopped);

  // Prepares every statement whose name is not prepared yet on this
  // connection (one round trip each); failures are left for exec() to report.
  void prepareAll(const std::string statements[kNtx], const Interrupt& intr);

  // Runs transaction `tx` with text parameters.
  Outcome exec(int tx, const std::string& statement, int nParams, const char* const* values, const std::string& rollbackSqlstate, const Interrupt& intr,
               DbError* err);

  bool connected() const { return conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK; }
  void close();

 private:
  bool prepare(int tx, const std::string& statement, const Interrupt& intr, DbError* err);
  // Waits for the whole answer to what was just sent; the first error result
  // (or the last result) in *out. False when an abort cancelled the wait.
  bool await(const Interrupt& intr, PGresult** out);
  void fillError(PGresult* res, DbError* err);

  PGconn* conn_ = nullptr;
  PGcancel* cancel_ = nullptr;
  bool prepared_[kNtx] = {};
};

}  // namespace sledge::pgvu
