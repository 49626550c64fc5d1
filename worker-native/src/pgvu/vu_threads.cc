#include "vu_threads.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <thread>
#include <utility>

namespace sledge::pgvu {

namespace {

// Sleep slices: how late a stop is noticed at most while waiting.
constexpr int kSleepSliceMs = 20;
// Stack of a VU thread: the loop needs a few KB; libpq and TLS far less than the 8 MB default.
constexpr size_t kThreadStack = 512 * 1024;

std::string num(int64_t v) { return std::to_string(v); }

}  // namespace

VuThreads::VuThreads(std::vector<VuSpec> vus, Shared shared, size_t threads)
    : vus_(std::move(vus)), sh_(shared), threadCount_(threads == 0 ? vus_.size() : std::min(threads, vus_.size())) {}

VuThreads::~VuThreads() { shutdown(); }

bool VuThreads::start(std::string* error) {
  threads_.reserve(threadCount_);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kThreadStack);
  for (size_t t = 0; t < threadCount_; t++) {
    auto* arg = new ThreadArg{this, t};
    live_.fetch_add(1, std::memory_order_acq_rel);
    pthread_t tid;
    const int rc = pthread_create(&tid, &attr, &VuThreads::threadMain, arg);
    if (rc != 0) {
      delete arg;
      live_.fetch_sub(1, std::memory_order_acq_rel);
      pthread_attr_destroy(&attr);
      *error = std::string("cannot start a VU thread: ") + std::strerror(rc);
      shutdown();
      return false;
    }
    threads_.push_back(tid);
  }
  pthread_attr_destroy(&attr);
  return true;
}

void* VuThreads::threadMain(void* p) {
  std::unique_ptr<ThreadArg> arg(static_cast<ThreadArg*>(p));
#ifdef __linux__
  // One VU a thread: named like the session (application_name); several: sledge-vus-<thread>. Cut to
  // the 15 characters Linux keeps (top -H, perf); both start with sledge-vu (bench/script-floor/ groups them so).
  VuThreads* run = arg->run;
  std::string name = run->threadCount_ == run->vus_.size() ? "sledge-vu-" + num(run->vus_[arg->thread].position) : "sledge-vus-" + num(static_cast<int64_t>(arg->thread) + 1);
  name.resize(std::min<size_t>(name.size(), 15));
  pthread_setname_np(pthread_self(), name.c_str());
#endif
  arg->run->threadBody(arg->thread);
  arg->run->live_.fetch_sub(1, std::memory_order_acq_rel);
  return nullptr;
}

void VuThreads::shutdown() {
  teardown_.store(true, std::memory_order_release);
  for (pthread_t t : threads_) pthread_join(t, nullptr);
  threads_.clear();
}

bool VuThreads::running() { return !teardown_.load(std::memory_order_acquire) && sh_.run() == kRunGo; }
bool VuThreads::aborting() { return teardown_.load(std::memory_order_acquire) || sh_.run() == kRunAbort; }

void VuThreads::sleepUnlessStopped(int64_t ms) {
  if (ms <= 0 || !running()) return;
  const auto end = Clock::now() + std::chrono::milliseconds(ms);
  while (running()) {
    const auto now = Clock::now();
    if (now >= end) return;
    std::this_thread::sleep_for(std::min<Clock::duration>(end - now, std::chrono::milliseconds(kSleepSliceMs)));
  }
}

Interrupt VuThreads::interrupt() { return Interrupt{[this] { return !running(); }, [this] { return aborting(); }}; }

std::string VuThreads::sessionName(size_t slot, const std::string& tag) const {
  return "sledge-vu-" + num(vus_[slot].position) + (tag.empty() ? std::string() : "~" + tag);
}

void VuThreads::logProcedureError(int64_t vu, const std::string& what, const DbError& e, int64_t* logged) {
  if (*logged < 100 || *logged % 1000 == 0) {
    log(vu, what + " Procedure Error (" + errKindName(e.kind) + (e.code.empty() ? "" : " " + e.code) + "): " + e.message +
                (*logged == 99 ? " (further errors are counted, 1 line per 1000 shown)" : ""));
  }
  (*logged)++;
}

void VuThreads::record(LatencyRing& ring, int op, bool measuring, Clock::time_point epoch, Clock::time_point t0, Clock::time_point t1, double* totalNs, double* wStart, double* wEnd) {
  const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
  const int64_t us = std::max<int64_t>(1, (ns + 500) / 1000);
  ring.push(static_cast<int32_t>(op) | (measuring ? kRecMeasuring : 0), static_cast<int32_t>(std::min<int64_t>(us, INT32_MAX)), [this] { return aborting(); });
  if (!measuring) return;
  *totalNs += static_cast<double>(ns);
  const double s = std::chrono::duration<double, std::milli>(t0 - epoch).count();
  const double e = std::chrono::duration<double, std::milli>(t1 - epoch).count();
  if (s < *wStart) *wStart = s;
  if (e > *wEnd) *wEnd = e;
}

bool VuThreads::runClient(size_t, double*, double*) { return false; }

void VuThreads::beginVu(size_t slot) {
  const VuSpec& a = vus_[slot];
  sh_.state(a.index, kStateConnecting);
  log(0, "Vuser " + num(a.position) + ":RUNNING");
}

void VuThreads::endVu(size_t slot, bool ok, double wStart, double wEnd) {
  const VuSpec& a = vus_[slot];
  sh_.state(a.index, ok ? kStateFinished : kStateFailed);
  log(0, "Vuser " + num(a.position) + (ok ? ":FINISHED SUCCESS" : ":FINISHED FAILED"));
  outcome(slot) = VuOutcome{ok, wEnd > wStart ? wEnd - wStart : 0};
}

void VuThreads::skipVu(size_t slot) { sh_.state(vus_[slot].index, kStateFinished); }

void VuThreads::vuMain(size_t slot) {
  const VuSpec& a = vus_[slot];
  // vu-loop.ts waitForGo, then the start delay.
  while (sh_.go() == 0 && running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  sleepUnlessStopped(a.startDelayMs);
  if (!running()) {
    skipVu(slot);
    return;
  }
  beginVu(slot);
  double wStart = std::numeric_limits<double>::infinity();
  double wEnd = -std::numeric_limits<double>::infinity();
  const bool ok = runClient(slot, &wStart, &wEnd);
  endVu(slot, ok, wStart, wEnd);
}

}  // namespace sledge::pgvu
