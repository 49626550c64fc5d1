// A native VU run: one thread (pthread) per virtual user of one worker, each
// running the TPROC-C loop of server/src/worker/vu-loop.ts against a
// database through a Session (libpq, the MariaDB C connector) without
// returning to JavaScript. Counters and VU states go to shared memory,
// latencies to per-VU rings, log lines to a queue that JavaScript drains
// (the threads, the queue and the reconnects are vu_threads.h's,
// log_sink.h's and session_keeper.h's, shared with script_run.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "session.h"
#include "shared.h"
#include "vu_threads.h"
#include "workload.h"

namespace sledge::pgvu {

struct RunConfig {
  std::string engineName = "the database";  // log lines: "connecting to <engineName> failed"
  uint32_t seed = 0;
  int64_t warehouses = 1;
  int64_t activeVus = 1;
  bool allWarehouse = false;
  int64_t mix[kNtx] = {10, 10, 1, 1, 1};
  int64_t totalIterations = 1;
  int64_t iterations = 1;
  int64_t repeatDelayMs = 0;
  bool keyAndThink = false;
  double keyingSec[kNtx] = {};     // tprocc.keyThink; the addon fills TPC-C's times first
  double thinkMeanSec[kNtx] = {};
  bool raiseError = false;
  bool reconnect = true;  // a lost session is reopened with backoff; false: the VU ends
  bool retryFirstConnect = false;  // a refused first connect is retried too (reconnect given explicitly)
  bool testDriver = false;  // print every transaction (the test driver)
  std::string sessionTag;   // the job's tag: sessions are named sledge-vu-<n>~<tag> (core vuSessionName); empty: sledge-vu-<n>
};

struct VuResult : VuOutcome {
  double totalNs[kNtx] = {};    // measured-window time per type
};

// The TPROC-C loop on the run's VU threads (vu_threads.h), each keeping its
// session with a SessionKeeper (session_keeper.h).
class Run : public VuThreads {
 public:
  Run(RunConfig cfg, SessionFactory sessions, std::vector<VuSpec> vus, Shared shared);
  ~Run() override;

  // Per VU slot; complete once live() == 0.
  const std::vector<VuResult>& results() const { return results_; }

 private:
  bool runClient(size_t slot, double* wStart, double* wEnd) override;
  VuOutcome& outcome(size_t slot) override { return results_[slot]; }

  const RunConfig cfg_;
  const SessionFactory sessions_;
  std::vector<VuResult> results_;
};

}  // namespace sledge::pgvu
