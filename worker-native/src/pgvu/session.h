// The engine-neutral face of one virtual user's database connection, as the
// VU loop (run.cc) sees it: connect (giving up on a stop), prepare, run one
// transaction from its inputs, close. libpq (conn.h) and the MariaDB C
// connector (../myvu/conn.h) implement it; nothing here names an engine.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "workload.h"

namespace sledge::pgvu {

// core/error-class.ts kinds.
enum class ErrKind { Deadlock, Serialization, LockTimeout, Timeout, Connection, Constraint, Other };

inline const char* errKindName(ErrKind k) {
  switch (k) {
    case ErrKind::Deadlock:
      return "deadlock";
    case ErrKind::Serialization:
      return "serialization";
    case ErrKind::LockTimeout:
      return "lock-timeout";
    case ErrKind::Timeout:
      return "timeout";
    case ErrKind::Connection:
      return "connection";
    case ErrKind::Constraint:
      return "constraint";
    case ErrKind::Other:
      return "other";
  }
  return "other";
}

struct DbError {
  ErrKind kind = ErrKind::Other;
  std::string code;     // the engine's code (SQLSTATE, error number), empty when the client library produced the error
  std::string message;  // first line of the message
};

enum class Outcome { Commit, Rollback, Error, Cancelled };

// How a waiting connection learns that it should give up.
struct Interrupt {
  std::function<bool()> stop;   // give up connecting / sleeping (CTRL_RUN != run)
  std::function<bool()> abort;  // cancel a running statement (CTRL_RUN == abort)
};

class Session {
 public:
  Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  virtual ~Session() = default;

  // Opens the connection, named `sessionName` where the engine shows one.
  // False with a message on failure, or with stopped = true when
  // `intr.stop()` ended the attempt.
  virtual bool connect(const std::string& sessionName, const Interrupt& intr, std::string* error, bool* stopped) = 0;
  // Prepares what the connection runs, where the engine prepares; failures
  // are left for exec() to report.
  virtual void prepareAll(const Interrupt& intr) = 0;
  // Runs one transaction. Cancelled: an abort ended the wait.
  virtual Outcome exec(const TxInput& in, const Interrupt& intr, DbError* err) = 0;
  virtual void close() = 0;
};

// Makes a fresh, unconnected session (one per VU iteration).
using SessionFactory = std::function<std::unique_ptr<Session>()>;

}  // namespace sledge::pgvu
