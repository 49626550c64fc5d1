#include "session_keeper.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace sledge::pgvu {

SessionKeeper::SessionKeeper(VuThreads& run, size_t slot, Open open) : run_(run), slot_(slot), open_(std::move(open)) {}

SessionKeeper::Start SessionKeeper::start(bool retry, const std::string& engineName) {
  std::string err;
  bool stopped = false;
  if (open_(&err, &stopped)) return Start::Open;
  if (stopped) return Start::Stopped;
  if (retry && reconnect("cannot connect (" + err + ")", false)) return Start::Open;
  if (!run_.running()) return Start::Stopped;
  const std::string pos = std::to_string(run_.vu(slot_).position);
  run_.log(run_.vu(slot_).position, "Error in Virtual User " + pos + ": connecting to " + engineName + " failed: " + err);
  return Start::Failed;
}

void SessionKeeper::dropped() {
  const int index = run_.vu(slot_).index;
  run_.shared().session(index, kFaultDrops);
  run_.shared().state(index, kStateConnecting);
}

bool SessionKeeper::reconnect(const std::string& why, bool lost) {
  const VuSpec& a = run_.vu(slot_);
  const std::string name = "Vuser " + std::to_string(a.position);
  const auto started = VuThreads::Clock::now();
  run_.log(a.position, name + ": " + why + ", reconnecting");
  int64_t wait = 500;
  while (run_.running()) {
    run_.sleepUnlessStopped(wait);
    if (!run_.running()) return false;
    std::string err;
    bool stopped = false;
    if (open_(&err, &stopped)) {
      char secs[64];
      std::snprintf(secs, sizeof secs, "%.1f", std::chrono::duration<double>(VuThreads::Clock::now() - started).count());
      run_.log(a.position, name + ": reconnected after " + secs + " s");
      if (lost) run_.shared().session(a.index, kFaultBacks);
      run_.shared().state(a.index, kStateRunning);
      return true;
    }
    wait = std::min<int64_t>(wait * 2, 5000);
  }
  return false;
}

}  // namespace sledge::pgvu
