// The log lines of a native run's VU threads, queued for JavaScript to
// drain (the worker thread polls drainLogs): shared by the TPROC-C loop
// (run.cc) and the script loop (script_run.cc).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace sledge::pgvu {

struct LogLine {
  int64_t vu;
  std::string text;
};

// Thread-safe and bounded: while JavaScript is late, lines beyond the bound
// are counted, and the next drain ends with one line saying how many.
class LogSink {
 public:
  void log(int64_t vu, std::string text);
  std::vector<LogLine> drain();

 private:
  std::mutex mu_;
  std::vector<LogLine> lines_;
  int64_t dropped_ = 0;
};

}  // namespace sledge::pgvu
