// One virtual user's MariaDB/MySQL connection through the MariaDB C
// connector (libmariadb), as a Session of the engine-neutral VU loop
// (../pgvu/run.cc): the connector's non-blocking API, so that every wait is
// a poll() in short slices that notices a stop (connecting) or an abort (a
// running CALL: the socket is shut down, the server ends the session); the
// transactions as text-protocol CALLs of the stored procedures
// (packages/sql/mysql/tprocc/calls.sql with its ? filled in as mysql2 does);
// NEWORD's rolled_back column; the error classes of
// packages/driver-mysql/src/engine/errors.ts.
#pragma once

#include <mysql.h>

#include <string>
#include <vector>

#include "../pgvu/session.h"
#include "params.h"

namespace sledge::myvu {

using pgvu::DbError;
using pgvu::ErrKind;
using pgvu::Interrupt;
using pgvu::Outcome;
using pgvu::Session;

// errors.ts classifyError for a server or client error number.
ErrKind classify(unsigned int errnum);

// What every session of a run shares.
struct MyConfig {
  std::string host;
  int port = 3306;
  std::string socket;    // a Unix socket instead of host:port when not empty
  std::string user;
  std::string password;  // never logged
  std::string database;
  int connectTimeoutSec = 5;  // connect.ts CONNECT_TIMEOUT_MS
  // calls.sql per transaction, split at its ? placeholders: parts[t].size() == arguments + 1.
  std::vector<std::string> parts[kNtx];
};

// Splits a statement at the ? outside quotes and comments; false when it has
// no placeholders where `args` are expected.
bool splitPlaceholders(const std::string& sql, std::vector<std::string>* parts);

class MyConn final : public Session {
 public:
  explicit MyConn(const MyConfig& cfg) : cfg_(cfg) {}
  ~MyConn() override { close(); }

  // Connects as program_name sledge, sledge_role vu<n>[~<tag>] (connect attributes, as connect.ts).
  bool connect(const std::string& sessionName, const Interrupt& intr, std::string* error, bool* stopped) override;
  // Text-protocol CALLs need nothing prepared.
  void prepareAll(const Interrupt& intr) override;
  Outcome exec(const TxInput& in, const Interrupt& intr, DbError* err) override;
  void close() override;

 private:
  // Waits for what the connector asked for (MYSQL_WAIT_* bits) in slices;
  // the bits that are ready. `give_up` true: *gaveUp set, the socket shut down.
  template <typename GiveUp>
  int wait(int status, GiveUp give_up, bool* gaveUp);
  void fillError(DbError* err);

  const MyConfig& cfg_;
  CallArgs args_;
  std::string sql_;
  MYSQL* my_ = nullptr;
  bool broken_ = false;  // the socket was shut down or the connection lost: no COM_QUIT
};

}  // namespace sledge::myvu
