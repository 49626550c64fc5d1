// A native script run (the script workload on PostgreSQL): one thread per
// VU that takes the VU's transactions from its feed (script_feed.h: the
// worker thread evaluated the scripts ahead) and runs them on libpq, as
// server/src/worker/vu-loop.ts runs core's ScriptClient: BEGIN, COMMIT and
// ROLLBACK as simple queries, every SQL statement a named prepared statement
// (PQprepare once per connection, then PQsendQueryPrepared with text
// parameters). A failed statement ends the transaction: ROLLBACK when one is
// open, one error counted for the script by class, the line logged; a lost
// connection reconnects with backoff. Counters, VU states, latency rings,
// log lines and reconnects are those of the TPROC-C loop (run.h): the
// threads, the log queue and the session keeper are shared (vu_threads.h,
// log_sink.h, session_keeper.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conn.h"
#include "script_feed.h"
#include "shared.h"
#include "vu_threads.h"

namespace sledge::pgvu {

struct ScriptConfig {
  std::string conninfo;                 // contains the password: never logged
  std::vector<std::string> statements;  // $n placeholders; a step's code indexes this
  std::vector<std::string> ops;         // script names, for log lines
  std::string sessionTag;
  Int32View feedIndex;
  uint8_t* feedData = nullptr;
  uint32_t feedCapacity = 0;  // bytes per slot, a power of two
};

struct ScriptVuResult : VuOutcome {
  std::vector<double> totalNs;  // measured-window time per script
};

// The script loop on the run's VU threads (vu_threads.h), each keeping its
// connection with a SessionKeeper (session_keeper.h).
class ScriptRun : public VuThreads {
 public:
  ScriptRun(ScriptConfig cfg, std::vector<VuSpec> vus, Shared shared);
  ~ScriptRun() override;

  const std::vector<ScriptVuResult>& results() const { return results_; }

 private:
  class Conn;
  bool runClient(size_t slot, double* wStart, double* wEnd) override;
  VuOutcome& outcome(size_t slot) override { return results_[slot]; }

  const ScriptConfig cfg_;
  const PgConfig pg_;
  std::vector<ScriptVuResult> results_;
};

}  // namespace sledge::pgvu
