// A transaction's arguments as text, in one fixed buffer: the part of the
// PostgreSQL bind parameters (pgvu/params.h) and the MariaDB/MySQL CALL
// arguments (myvu/params.h) that is the same for both: decimal integers,
// integer lists between delimiters, raw bytes, and the value table.
#pragma once

#include <cstdint>
#include <cstring>

namespace sledge::pgvu {

inline constexpr int kMaxArgs = 8;

class TextArgs {
 public:
  int count() const { return n_; }
  const char* const* values() const { return ptrs_; }
  const int* lengths() const { return lens_; }

 protected:
  void reset() {
    used_ = 0;
    n_ = 0;
  }
  // After the last value: the pointers of values().
  void finish() {
    for (int k = 0; k < n_; k++) ptrs_[k] = buf_ + offs_[k];
  }
  void begin() { offs_[n_] = used_; }
  void end() {
    lens_[n_] = used_ - offs_[n_];
    buf_[used_++] = '\0';
    n_++;
  }
  void put(char c) { buf_[used_++] = c; }
  void raw(const char* s, int len) {
    std::memcpy(buf_ + used_, s, static_cast<size_t>(len));
    used_ += len;
  }
  void digits(int64_t v) {
    char tmp[24];
    int k = 0;
    const bool neg = v < 0;
    uint64_t u = neg ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v);
    do {
      tmp[k++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u != 0);
    if (neg) put('-');
    while (k > 0) put(tmp[--k]);
  }
  void num(int64_t v) {
    begin();
    digits(v);
    end();
  }
  // n integers separated by commas, between open and close: {1,2,3} or '1,2,3'.
  void ints(const int64_t* v, int64_t n, char open, char close) {
    begin();
    put(open);
    for (int64_t i = 0; i < n; i++) {
      if (i > 0) put(',');
      digits(v[i]);
    }
    put(close);
    end();
  }

 private:
  // 3 lists of up to 15 values of up to 20 characters, plus the scalars: well under 2 KB.
  char buf_[2048];
  int offs_[kMaxArgs] = {};
  int lens_[kMaxArgs] = {};
  const char* ptrs_[kMaxArgs] = {};
  int used_ = 0;
  int n_ = 0;
};

}  // namespace sledge::pgvu
