// Views on the SharedArrayBuffers a run shares with JavaScript, with the
// layout of server/src/shared/layout.ts, and the per-VU latency rings of
// lib/pgvu.ts. Every access that another thread may race with goes through
// std::atomic_ref (JavaScript uses Atomics on the same words).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>

#include "workload.h"

namespace sledge::pgvu {

// layout.ts
inline constexpr int kKinds = 3;
inline constexpr int kCommit = 0;
inline constexpr int kRollback = 1;
inline constexpr int kError = 2;
inline constexpr int kCtrlRun = 0;
inline constexpr int kCtrlPhase = 1;
inline constexpr int kCtrlGo = 2;
inline constexpr int kCtrlSize = 4;
inline constexpr int32_t kRunGo = 0;
inline constexpr int32_t kRunAbort = 2;
inline constexpr int32_t kPhaseMeasuring = 1;
inline constexpr int32_t kStateConnecting = 1;
inline constexpr int32_t kStateRunning = 2;
inline constexpr int32_t kStateFinished = 3;
inline constexpr int32_t kStateFailed = 4;

// lib/pgvu.ts ring layout: ringIndex holds kRingStride int32 per VU slot, the
// producer's head at [slot * kRingStride] and the consumer's tail at
// [slot * kRingStride + kRingTailOffset] (separate cache lines). ringData holds
// `capacity` records of two int32 per slot: meta (tx | kRecMeasuring) and µs.
inline constexpr int kRingStride = 32;
inline constexpr int kRingTailOffset = 16;
inline constexpr int32_t kRecMeasuring = 0x100;

// layout.ts faults block: [vu][tx][kFaultSlots] errors and retries per error
// class (ERROR_CLASSES order: serialization, connection, timeout, constraint,
// other) and retried commits, then [vu][2] sessions lost and reconnected.
inline constexpr int kClasses = 5;
inline constexpr int kClassSerialization = 0;
inline constexpr int kClassConnection = 1;
inline constexpr int kClassTimeout = 2;
inline constexpr int kClassConstraint = 3;
inline constexpr int kClassOther = 4;
inline constexpr int kFaultError = 0;
inline constexpr int kFaultSlots = 2 * kClasses + 1;
inline constexpr int kFaultVuSlots = 2;
inline constexpr int kFaultDrops = 0;
inline constexpr int kFaultBacks = 1;

struct Int32View {
  int32_t* data = nullptr;
  size_t length = 0;
};

inline int32_t atomicLoad(int32_t* p) { return std::atomic_ref<int32_t>(*p).load(std::memory_order_acquire); }
inline void atomicStore(int32_t* p, int32_t v) { std::atomic_ref<int32_t>(*p).store(v, std::memory_order_release); }
inline void atomicAdd(int32_t* p, int32_t v) { std::atomic_ref<int32_t>(*p).fetch_add(v, std::memory_order_relaxed); }

struct Shared {
  Int32View counters;
  Int32View states;
  Int32View control;
  Int32View ringIndex;
  Int32View ringData;
  int32_t ringCapacity = 0;  // records per slot, a power of two
  Int32View faults;          // empty when the run does not count faults
  int64_t faultVus = 0;      // the run's VU count (the per-VU part of faults starts after [vus][tx])
  int ops = kNtx;            // operations per VU in counters and faults (TPROC-C: the five transactions; scripts: one per script)

  int32_t run() { return atomicLoad(control.data + kCtrlRun); }
  int32_t phase() { return atomicLoad(control.data + kCtrlPhase); }
  int32_t go() { return atomicLoad(control.data + kCtrlGo); }
  void count(int vuIndex, int tx, int kind) { atomicAdd(counters.data + (static_cast<size_t>(vuIndex) * ops + tx) * kKinds + kind, 1); }
  void state(int vuIndex, int32_t s) { atomicStore(states.data + vuIndex, s); }
  void error(int vuIndex, int tx, int cls) {
    if (faults.data) atomicAdd(faults.data + (static_cast<size_t>(vuIndex) * ops + tx) * kFaultSlots + kFaultError + cls, 1);
  }
  void session(int vuIndex, int slot) {
    if (faults.data) atomicAdd(faults.data + static_cast<size_t>(faultVus) * ops * kFaultSlots + static_cast<size_t>(vuIndex) * kFaultVuSlots + slot, 1);
  }
};

// Single-producer ring of one VU thread; JavaScript is the consumer.
class LatencyRing {
 public:
  LatencyRing(Shared* sh, int slot)
      : head_(sh->ringIndex.data + static_cast<size_t>(slot) * kRingStride),
        tail_(head_ + kRingTailOffset),
        data_(sh->ringData.data + static_cast<size_t>(slot) * sh->ringCapacity * 2),
        mask_(static_cast<uint32_t>(sh->ringCapacity) - 1),
        cap_(static_cast<uint32_t>(sh->ringCapacity)) {}

  // Append one record; while the ring is full (the consumer is late) wait in
  // 1 ms steps, giving up (dropping the record) when `give_up()` says so.
  template <typename GiveUp>
  void push(int32_t meta, int32_t us, GiveUp give_up) {
    const uint32_t head = static_cast<uint32_t>(std::atomic_ref<int32_t>(*head_).load(std::memory_order_relaxed));
    while (head - static_cast<uint32_t>(atomicLoad(tail_)) >= cap_) {
      if (give_up()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    int32_t* rec = data_ + static_cast<size_t>(head & mask_) * 2;
    rec[0] = meta;
    rec[1] = us;
    atomicStore(head_, static_cast<int32_t>(head + 1));
  }

 private:
  int32_t* head_;
  int32_t* tail_;
  int32_t* data_;
  uint32_t mask_;
  uint32_t cap_;
};

}  // namespace sledge::pgvu
