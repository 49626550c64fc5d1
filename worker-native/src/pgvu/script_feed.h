// The script feed: one single-producer ring of bytes per VU in a
// SharedArrayBuffer, written by the worker thread (lib/script-feed.ts
// evaluates each VU's scripts ahead with the interpreter of packages/core)
// and read by the native thread that runs that VU (script_run.cc). A record is one
// transaction: which script, the statements and transaction-control steps to
// send with their text parameters, and the interpreter's error when the
// script failed part way (what ran before it still runs, then the rollback).
//
// Layout (little-endian, every field and record 4-byte aligned):
//   index: kFeedStride int32 per VU slot: head (bytes written) at [0],
//          tail (bytes consumed) at [kFeedTailOffset]; both count up and wrap mod 2^32
//   data:  `capacity` bytes per slot (a power of two)
//   record: u32 len (whole record, a multiple of 4) | kFeedWrap: go on at the ring's start
//           u16 op, u16 steps, u32 errLen
//           steps: u16 code (statement index, or kStepBegin/kStepCommit/kStepRollback), u16 nparams,
//                  nparams x (i32 len, -1 = NULL; len bytes, a NUL, padding to 4)
//           errLen bytes of the error message, padding to 4
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "shared.h"

namespace sledge::pgvu {

inline constexpr int kFeedStride = 32;
inline constexpr int kFeedTailOffset = 16;
inline constexpr uint32_t kFeedWrap = 0xFFFFFFFFu;
inline constexpr uint16_t kStepBegin = 0xFFF0;
inline constexpr uint16_t kStepCommit = 0xFFF1;
inline constexpr uint16_t kStepRollback = 0xFFF2;
inline constexpr int kMaxParams = 255;

struct FeedStep {
  uint16_t code = 0;
  int nparams = 0;
  const char* values[kMaxParams] = {};  // NUL-terminated inside the ring; null for SQL NULL
};

// One record, parsed in place (valid until Feed::release()).
struct FeedTx {
  int op = 0;
  std::vector<FeedStep> steps;
  std::string error;  // the interpreter's error, empty when the script evaluated to its end
};

class Feed {
 public:
  Feed(int32_t* index, uint8_t* data, uint32_t capacity) : head_(index), tail_(index + kFeedTailOffset), data_(data), mask_(capacity - 1), cap_(capacity) {}

  // The next record into *tx; false when the ring is empty. A malformed
  // record (a bug on the producer side) sets *bad and is skipped with the rest.
  bool next(FeedTx* tx, std::string* bad) {
    for (;;) {
      const uint32_t head = static_cast<uint32_t>(atomicLoad(head_));
      uint32_t tail = static_cast<uint32_t>(std::atomic_ref<int32_t>(*tail_).load(std::memory_order_relaxed));
      if (head == tail) return false;
      const uint32_t at = tail & mask_;
      const uint32_t len = u32(at);
      if (len == kFeedWrap) {
        atomicStore(tail_, static_cast<int32_t>(tail + (cap_ - at)));
        continue;
      }
      pending_ = len;
      if (len < 12 || len % 4 != 0 || at + len > cap_ || len > head - tail) return fail(bad, "a record's length is out of bounds", head);
      const uint32_t end = at + len;
      tx->op = u16(at + 4);
      const int steps = u16(at + 6);
      const uint32_t errLen = u32(at + 8);
      uint32_t p = at + 12;
      if (tx->steps.size() < static_cast<size_t>(steps)) tx->steps.resize(steps);
      tx->steps.resize(steps);
      for (int s = 0; s < steps; s++) {
        if (p + 4 > end) return fail(bad, "a step runs past its record", head);
        FeedStep& st = tx->steps[s];
        st.code = u16(p);
        st.nparams = u16(p + 2);
        p += 4;
        if (st.nparams > kMaxParams) return fail(bad, "a step has too many parameters", head);
        for (int k = 0; k < st.nparams; k++) {
          if (p + 4 > end) return fail(bad, "a parameter runs past its record", head);
          const int32_t l = static_cast<int32_t>(u32(p));
          p += 4;
          if (l < 0) {
            st.values[k] = nullptr;
            continue;
          }
          if (p + static_cast<uint32_t>(l) + 1 > end || data_[p + l] != 0) return fail(bad, "a parameter's text runs past its record", head);
          st.values[k] = reinterpret_cast<const char*>(data_ + p);
          p += (static_cast<uint32_t>(l) + 1 + 3) & ~3u;
        }
      }
      if (p + errLen > end) return fail(bad, "the error text runs past its record", head);
      tx->error.assign(reinterpret_cast<const char*>(data_ + p), errLen);
      return true;
    }
  }

  // Frees the record next() returned (the producer may overwrite it).
  void release() {
    const uint32_t tail = static_cast<uint32_t>(std::atomic_ref<int32_t>(*tail_).load(std::memory_order_relaxed));
    atomicStore(tail_, static_cast<int32_t>(tail + pending_));
    pending_ = 0;
  }

 private:
  uint32_t u32(uint32_t at) const {
    uint32_t v;
    std::memcpy(&v, data_ + at, 4);
    return v;
  }
  uint16_t u16(uint32_t at) const {
    uint16_t v;
    std::memcpy(&v, data_ + at, 2);
    return v;
  }
  bool fail(std::string* bad, const char* what, uint32_t head) {
    *bad = what;
    atomicStore(tail_, static_cast<int32_t>(head));
    pending_ = 0;
    return false;
  }

  int32_t* head_;
  int32_t* tail_;
  uint8_t* data_;
  uint32_t mask_;
  uint32_t cap_;
  uint32_t pending_ = 0;
};

}  // namespace sledge::pgvu
