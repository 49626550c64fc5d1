// A native script run (the script workload on PostgreSQL): a few threads
// (one per core by default, the script workload's `threads`, as pgbench's
// -j), each driving its share of the VUs' libpq connections with the
// asynchronous API from one poll() loop. Each VU is a state machine (wait for
// go, its start delay, connect, run its transactions, back off and
// reconnect, end) whose every wait is a socket or a time the loop polls for,
// so no VU's wait stalls another. A VU takes its transactions from its feed
// (script_feed.h: the worker thread evaluated the scripts ahead) and runs
// them as server/src/worker/vu-loop.ts runs core's ScriptClient: BEGIN,
// COMMIT and ROLLBACK as simple queries, every SQL statement a named
// prepared statement (PQsendPrepare once per connection, then
// PQsendQueryPrepared with text parameters). A failed statement ends the
// transaction: ROLLBACK when one is open, one error counted for the script
// by class, the line logged; a lost connection reconnects with backoff
// (0.5 s doubling to 5 s, as session_keeper.h). Counters, VU states,
// latency rings, log lines and reconnect lines and counts are those of the
// TPROC-C loop (run.h); the threads and the log queue are vu_threads.h's
// and log_sink.h's.
#pragma once

#include <cstdint>
#include <memory>
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
  size_t threads = 0;         // threads running the VUs (0: one per VU); VU slot s runs on thread s % threads
};

struct ScriptVuResult : VuOutcome {
  std::vector<double> totalNs;  // measured-window time per script
};

class ScriptRun : public VuThreads {
 public:
  ScriptRun(ScriptConfig cfg, std::vector<VuSpec> vus, Shared shared);
  ~ScriptRun() override;

  const std::vector<ScriptVuResult>& results() const { return results_; }

 private:
  class Vu;
  struct Want;
  void threadBody(size_t t) override;
  VuOutcome& outcome(size_t slot) override { return results_[slot]; }

  const ScriptConfig cfg_;
  std::vector<std::string> names_;  // statement k's name: sledge_s<k+1>, as the JavaScript parameter session names it
  std::vector<ScriptVuResult> results_;
};

}  // namespace sledge::pgvu
