// One VU's session kept open, as vu-loop.ts connects and reconnects: the
// first connect (retried when asked: a database that refuses connections
// now, in an outage or a failover, may be back soon) and the reconnect after
// a lost connection, backing off 0.5 s doubling to 5 s until a session opens
// or the job stops. Log lines, the drop and back counts and the VU's state
// go to the run (vu_threads.h). The TPROC-C loop (run.cc) and the script
// loop (script_run.cc) keep their sessions with it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "vu_threads.h"

namespace sledge::pgvu {

class SessionKeeper {
 public:
  // One attempt to open the session, ready to run (prepared where the loop prepares): false with *error, or with *stopped when the job stopped it.
  using Open = std::function<bool(std::string* error, bool* stopped)>;

  enum class Start { Open, Stopped, Failed };

  SessionKeeper(VuThreads& run, size_t slot, Open open);

  // The first connect. retry: a refused one is retried with backoff. Failed
  // is logged ("connecting to <engineName> failed"); Stopped: the job
  // stopped first (the VU ends well).
  Start start(bool retry, const std::string& engineName);
  // The connection was lost: counted as a drop, the VU shown connecting (the loop closes the session).
  void dropped();
  // Reopens the session with backoff, logging why and how long it took;
  // lost: counted as a back. False when the job stopped first.
  bool reconnect(const std::string& why, bool lost);

 private:
  VuThreads& run_;
  const size_t slot_;
  const Open open_;
};

}  // namespace sledge::pgvu
