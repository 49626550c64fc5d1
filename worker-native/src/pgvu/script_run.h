// A native script run (the script workload on PostgreSQL): one thread per
// VU that takes the VU's transactions from its feed (script_feed.h: the
// worker thread evaluated the scripts ahead) and runs them on libpq, as
// server/src/worker/vu-loop.ts runs core's ScriptClient: BEGIN, COMMIT and
// ROLLBACK as simple queries, every SQL statement a named prepared statement
// (PQprepare once per connection, then PQsendQueryPrepared with text
// parameters). A failed statement ends the transaction: ROLLBACK when one is
// open, one error counted for the script by class, the line logged; a lost
// connection reconnects with backoff. Counters, VU states, latency rings and
// log lines are those of run.h.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <pthread.h>
#include <string>
#include <vector>

#include "conn.h"
#include "run.h"
#include "script_feed.h"
#include "shared.h"

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

struct ScriptVuResult {
  bool ok = true;
  double elapsedMs = 0;
  std::vector<double> totalNs;  // measured-window time per script
};

class ScriptRun {
 public:
  ScriptRun(ScriptConfig cfg, std::vector<VuSpec> vus, Shared shared);
  ~ScriptRun();
  ScriptRun(const ScriptRun&) = delete;
  ScriptRun& operator=(const ScriptRun&) = delete;

  bool start(std::string* error);
  void shutdown();
  int live() const { return live_.load(std::memory_order_acquire); }
  std::vector<LogLine> drainLogs();
  const std::vector<ScriptVuResult>& results() const { return results_; }

 private:
  struct ThreadArg {
    ScriptRun* run;
    size_t slot;
  };
  class Conn;
  static void* threadMain(void* arg);
  void vuMain(size_t slot);
  bool runClient(size_t slot, ScriptVuResult& res, double* wStart, double* wEnd);
  void log(int64_t vu, std::string text);
  bool running();
  bool aborting();
  void sleepUnlessStopped(int64_t ms);

  const ScriptConfig cfg_;
  const PgConfig pg_;
  const std::vector<VuSpec> vus_;
  Shared sh_;
  std::vector<ScriptVuResult> results_;
  std::vector<pthread_t> threads_;
  std::atomic<bool> teardown_{false};
  std::atomic<int> live_{0};
  std::mutex logMu_;
  std::vector<LogLine> logs_;
  int64_t droppedLogs_ = 0;
};

}  // namespace sledge::pgvu
