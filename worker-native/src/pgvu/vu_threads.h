// The threads of a native run: by default one pthread per virtual user of a
// worker, each waiting for go and its start delay, then running its client
// loop (vu-loop.ts runClient) until the job stops; VU states go to shared
// memory, log lines to a LogSink. What the TPROC-C loop (run.cc) and the
// script loop (script_run.cc) share; each supplies its client loop and keeps
// its results. A loop that multiplexes several VUs on a thread (the script
// loop) asks for fewer threads and overrides threadBody(); beginVu() and
// endVu() keep its VUs' states, lines and outcomes those of vuMain().
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <pthread.h>
#include <string>
#include <vector>

#include "log_sink.h"
#include "session.h"
#include "shared.h"

namespace sledge::pgvu {

struct VuSpec {
  int index = 0;          // into the shared counters/states
  int64_t position = 2;   // HammerDB VU position
  int64_t startDelayMs = 0;
};

// What every VU's result holds (run.h's VuResult, script_run.h's ScriptVuResult add their times per operation).
struct VuOutcome {
  bool ok = true;
  double elapsedMs = 0;  // measured-window span of this VU's transactions
};

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

class VuThreads {
 public:
  using Clock = std::chrono::steady_clock;

  // threads: how many threads run the VUs (0: one per VU; at most one per VU).
  VuThreads(std::vector<VuSpec> vus, Shared shared, size_t threads = 0);
  // A subclass's destructor calls shutdown() first: its threads run the subclass's runClient.
  virtual ~VuThreads();
  VuThreads(const VuThreads&) = delete;
  VuThreads& operator=(const VuThreads&) = delete;

  // Starts the threads; false (with the reason) when the system refuses one.
  bool start(std::string* error);
  // Ends every thread (as an abort) and joins them. Idempotent.
  void shutdown();
  // Threads still running (each ends once every VU it runs has ended).
  int live() const { return live_.load(std::memory_order_acquire); }
  size_t threadCount() const { return threadCount_; }
  std::vector<LogLine> drainLogs() { return logs_.drain(); }

  // For a VU's loop and its SessionKeeper (session_keeper.h):
  bool running();
  bool aborting();
  // Sleeps in slices, waking early when the job stops.
  void sleepUnlessStopped(int64_t ms);
  void log(int64_t vu, std::string text) { logs_.log(vu, std::move(text)); }
  Shared& shared() { return sh_; }
  const VuSpec& vu(size_t slot) const { return vus_[slot]; }
  // What a connection checks while it waits: stop (give up connecting) and abort (cancel a statement).
  Interrupt interrupt();
  // core vuSessionName(): sledge-vu-<position>~<tag>; the job's ASH counts a session as its VU only with the job's tag.
  std::string sessionName(size_t slot, const std::string& tag) const;
  // A failed transaction's line (vu-loop.ts): the first 100, then 1 in 1000; *logged counts them all.
  void logProcedureError(int64_t vu, const std::string& what, const DbError& e, int64_t* logged);
  // A finished transaction's latency into the VU's ring, and while measuring its time into *totalNs and the window's span (ms since epoch).
  void record(LatencyRing& ring, int op, bool measuring, Clock::time_point epoch, Clock::time_point t0, Clock::time_point t1, double* totalNs, double* wStart, double* wEnd);

 protected:
  // Thread t's work. By default (one thread per VU) VU t's whole life: vuMain().
  virtual void threadBody(size_t t) { vuMain(t); }
  // One VU's client loop once it is running (vuMain): true when it ended well; *wStart and *wEnd take its measured-window span.
  // A loop that overrides threadBody() does not use it (the default ends the VU failed).
  virtual bool runClient(size_t slot, double* wStart, double* wEnd);
  // Where the VU's outcome goes once its loop has ended.
  virtual VuOutcome& outcome(size_t slot) = 0;
  // vuMain's steps, for a threadBody() that runs several VUs: the VU's start
  // delay ended while the job runs (state connecting, its RUNNING line); its
  // loop ended (state, FINISHED line, outcome with the measured-window span);
  // or the job stopped before it began (state finished, no line).
  void beginVu(size_t slot);
  void endVu(size_t slot, bool ok, double wStart, double wEnd);
  void skipVu(size_t slot);

  const std::vector<VuSpec> vus_;
  Shared sh_;

 private:
  struct ThreadArg {
    VuThreads* run;
    size_t thread;
  };
  static void* threadMain(void* arg);
  void vuMain(size_t slot);

  const size_t threadCount_;
  std::vector<pthread_t> threads_;
  std::atomic<bool> teardown_{false};
  std::atomic<int> live_{0};
  LogSink logs_;
};

}  // namespace sledge::pgvu
