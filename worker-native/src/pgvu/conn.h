// One virtual user's libpq connection (a Session): non-blocking connect that
// gives up on a stop, the five transactions as named prepared statements,
// execution with text parameters that waits in short slices (PQcancel on
// abort), and the error classification of
// packages/driver-postgresql/src/errors.ts.
#pragma once

#include <libpq-fe.h>

#include <string>

#include "params.h"
#include "session.h"
#include "workload.h"

namespace sledge::pgvu {

// errors.ts classifyError for a SQLSTATE (and whether the connection is gone).
ErrKind classify(const std::string& code, bool connectionBad);
// The error of a failed result on `conn` (or of the connection, res null; conn null: none open), classified.
void pgError(PGconn* conn, PGresult* res, DbError* err);
// The conninfo's connect_timeout in seconds (0: none), which libpq enforces only in its blocking connect.
int connectTimeoutSec(PGconn* conn);

// What every libpq session of a run shares.
struct PgConfig {
  std::string conninfo;  // contains the password: never logged
  std::string statements[kNtx];
  std::string rollbackSqlstate;
};

class PgConn final : public Session {
 public:
  explicit PgConn(const PgConfig& cfg) : cfg_(cfg) {}
  ~PgConn() override { close(); }

  // Connects with conninfo + application_name = sessionName.
  bool connect(const std::string& sessionName, const Interrupt& intr, std::string* error, bool* stopped) override;
  // Prepares every statement whose name is not prepared yet on this
  // connection (one round trip each); failures are left for exec() to report.
  void prepareAll(const Interrupt& intr) override;
  // Runs the transaction's statement with text parameters (params.h).
  Outcome exec(const TxInput& in, const Interrupt& intr, DbError* err) override;
  void close() override;

  bool connected() const { return conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK; }
  // The open connection (null when closed), for loops that send their own statements (script_run.cc).
  PGconn* handle() const { return conn_; }
  // Waits for the whole answer to what was just sent; the first error result
  // (or the last result) in *out. False when an abort cancelled the wait.
  bool await(const Interrupt& intr, PGresult** out);
  // The error of a failed result (or of the connection, res null), classified.
  void fillError(PGresult* res, DbError* err);

 private:
  bool prepare(int tx, const Interrupt& intr, DbError* err);

  const PgConfig& cfg_;
  TxParams params_;
  PGconn* conn_ = nullptr;
  PGcancel* cancel_ = nullptr;
  bool prepared_[kNtx] = {};
};

}  // namespace sledge::pgvu
