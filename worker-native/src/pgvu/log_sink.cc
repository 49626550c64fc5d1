#include "log_sink.h"

#include <utility>

namespace sledge::pgvu {

namespace {
// Log lines kept while JavaScript is late draining them.
constexpr size_t kMaxQueuedLogs = 100000;
}  // namespace

void LogSink::log(int64_t vu, std::string text) {
  std::lock_guard<std::mutex> lock(mu_);
  if (lines_.size() >= kMaxQueuedLogs) {
    dropped_++;
    return;
  }
  lines_.push_back({vu, std::move(text)});
}

std::vector<LogLine> LogSink::drain() {
  std::vector<LogLine> out;
  std::lock_guard<std::mutex> lock(mu_);
  out.swap(lines_);
  if (dropped_ > 0) {
    out.push_back({0, std::to_string(dropped_) + " log lines dropped: the worker thread drained them too slowly"});
    dropped_ = 0;
  }
  return out;
}

}  // namespace sledge::pgvu
