// A native VU run: one thread (pthread) per virtual user of one worker, each
// running the TPROC-C loop of server/src/worker/vu-loop.ts against a
// database through a Session (libpq, the MariaDB C connector) without
// returning to JavaScript. Counters and VU states go to shared memory,
// latencies to per-VU rings, log lines to a queue that JavaScript drains.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <pthread.h>
#include <vector>

#include "session.h"
#include "shared.h"
#include "workload.h"

namespace sledge::pgvu {

// errorClassOf (core/error-class.ts): the layout's class index of an error kind.
inline int errorClass(ErrKind k) {
  switch (k) {
    case ErrKind::Deadlock:
    case ErrKind::Serialization:
      return kClassSerialization;
    case ErrKind::LockTimeout:
    case ErrKind::Timeout:
      return kClassTimeout;
    case ErrKind::Connection:
      return kClassConnection;
    case ErrKind::Constraint:
      return kClassConstraint;
    default:
      return kClassOther;
  }
}

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

struct VuSpec {
  int index = 0;          // into the shared counters/states
  int64_t position = 2;   // HammerDB VU position
  int64_t startDelayMs = 0;
};

struct VuResult {
  bool ok = true;
  double elapsedMs = 0;         // measured-window span of this VU's transactions
  double totalNs[kNtx] = {};    // measured-window time per type
};

struct LogLine {
  int64_t vu;
  std::string text;
};

class Run {
 public:
  Run(RunConfig cfg, SessionFactory sessions, std::vector<VuSpec> vus, Shared shared);
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // Starts the threads; false (with the reason) when the system refuses one.
  bool start(std::string* error);
  // Ends every thread (as an abort) and joins them. Idempotent.
  void shutdown();
  // VU threads still running.
  int live() const { return live_.load(std::memory_order_acquire); }
  std::vector<LogLine> drainLogs();
  // Per VU slot; complete once live() == 0.
  const std::vector<VuResult>& results() const { return results_; }

 private:
  struct ThreadArg {
    Run* run;
    size_t slot;
  };
  static void* threadMain(void* arg);
  void vuMain(size_t slot);
  bool runClient(size_t slot, VuResult& res, double* wStart, double* wEnd);
  void log(int64_t vu, std::string text);
  bool running();
  bool aborting();
  void sleepUnlessStopped(int64_t ms);

  const RunConfig cfg_;
  const SessionFactory sessions_;
  const std::vector<VuSpec> vus_;
  Shared sh_;
  std::vector<VuResult> results_;
  std::vector<pthread_t> threads_;
  std::atomic<bool> teardown_{false};
  std::atomic<int> live_{0};
  std::mutex logMu_;
  std::vector<LogLine> logs_;
  int64_t droppedLogs_ = 0;
};

}  // namespace sledge::pgvu
