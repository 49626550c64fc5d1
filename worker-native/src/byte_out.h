// A growing byte buffer that rows are written into through a raw cursor, and
// the value formatters the generator needs (integers without snprintf).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace sledge {

// Rows are written as: p = out.reserve(maxRowBytes); ... write at p ...; out.commit(p).
// It writes into its own memory, or into storage the caller lends (adopt):
// then it grows into its own memory only when the rows do not fit.
class ByteOut {
 public:
  ByteOut() = default;
  ByteOut(const ByteOut&) = delete;
  ByteOut& operator=(const ByteOut&) = delete;
  ~ByteOut() {
    if (owned_) std::free(buf_);
  }

  // Writes into [p, p + cap) until it is full; the caller keeps it alive and owns it.
  void adopt(uint8_t* p, size_t cap) {
    if (owned_) std::free(buf_);
    buf_ = p;
    cap_ = cap;
    len_ = 0;
    owned_ = false;
  }
  // True while the bytes are in the lent storage.
  bool inLentStorage() const { return !owned_ && buf_ != nullptr; }

  // Cursor with room for at least `extra` more bytes, or nullptr when memory runs out.
  inline uint8_t* reserve(size_t extra) {
    if (len_ + extra > cap_ && !grow(len_ + extra)) return nullptr;
    return buf_ + len_;
  }
  inline void commit(const uint8_t* cursor) { len_ = static_cast<size_t>(cursor - buf_); }
  inline void row() { rows_++; }

  // Capacity hint before a unit starts (lent storage is used as far as it goes instead).
  bool expect(size_t bytes) { return bytes <= cap_ || inLentStorage() || grow(bytes); }

  size_t size() const { return len_; }
  const uint8_t* data() const { return buf_; }
  uint64_t rows() const { return rows_; }

  // Hands the bytes (shrunk to fit) to the caller, who frees them with std::free. Own memory only.
  uint8_t* release() {
    if (!owned_) return nullptr;
    uint8_t* p = buf_;
    if (p != nullptr && len_ > 0 && len_ < cap_) {
      if (void* q = std::realloc(p, len_)) p = static_cast<uint8_t*>(q);
    }
    buf_ = nullptr;
    cap_ = 0;
    return p;
  }

 private:
  bool grow(size_t need) {
    size_t cap = cap_ < 4096 ? 4096 : cap_;
    while (cap < need) cap += cap / 2 + 4096;
    if (!owned_) {
      // Out of lent storage: continue in own memory, with what was written so far.
      void* q = std::malloc(cap);
      if (q == nullptr) return false;
      if (len_ > 0) std::memcpy(q, buf_, len_);
      buf_ = static_cast<uint8_t*>(q);
      cap_ = cap;
      owned_ = true;
      return true;
    }
    void* q = std::realloc(buf_, cap);
    if (q == nullptr) return false;
    buf_ = static_cast<uint8_t*>(q);
    cap_ = cap;
    return true;
  }

  uint8_t* buf_ = nullptr;
  size_t len_ = 0;
  size_t cap_ = 0;
  uint64_t rows_ = 0;
  bool owned_ = true;
};

// "00".."99"
inline constexpr char kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

inline int decimalDigits(uint64_t v) {
  int n = 1;
  for (;;) {
    if (v < 10) return n;
    if (v < 100) return n + 1;
    if (v < 1000) return n + 2;
    if (v < 10000) return n + 3;
    v /= 10000;
    n += 4;
  }
}

// Decimal digits of v (String(v) for a non-negative integer).
inline uint8_t* putUint(uint8_t* p, uint64_t v) {
  uint8_t* const end = p + decimalDigits(v);
  uint8_t* q = end;
  while (v >= 100) {
    const uint64_t r = v % 100;
    v /= 100;
    q -= 2;
    std::memcpy(q, kDigitPairs + 2 * r, 2);
  }
  if (v >= 10) {
    q -= 2;
    std::memcpy(q, kDigitPairs + 2 * v, 2);
  } else {
    *--q = static_cast<uint8_t>('0' + v);
  }
  return end;
}

// String(v) for an integer.
inline uint8_t* putInt(uint8_t* p, int64_t v) {
  if (v < 0) {
    *p++ = '-';
    return putUint(p, ~static_cast<uint64_t>(v) + 1u);
  }
  return putUint(p, static_cast<uint64_t>(v));
}

inline uint8_t* putBytes(uint8_t* p, const void* s, size_t n) {
  std::memcpy(p, s, n);
  return p + n;
}

template <size_t N>
inline uint8_t* putLit(uint8_t* p, const char (&s)[N]) {
  std::memcpy(p, s, N - 1);
  return p + (N - 1);
}

// rules.ts decimal(units, 2): "12.34", "0.05", "-10.00".
inline uint8_t* putDecimal2(uint8_t* p, int64_t units) {
  uint64_t u;
  if (units < 0) {
    *p++ = '-';
    u = ~static_cast<uint64_t>(units) + 1u;
  } else {
    u = static_cast<uint64_t>(units);
  }
  p = putUint(p, u / 100);
  *p++ = '.';
  std::memcpy(p, kDigitPairs + 2 * (u % 100), 2);
  return p + 2;
}

// rules.ts overTemplate(n, template) for n >= 0: the digits of n left-aligned
// over the template, cut to the template's length.
inline uint8_t* putOverTemplate(uint8_t* p, uint64_t n, const char* tmpl, size_t tlen) {
  uint8_t digits[20];
  const size_t len = static_cast<size_t>(putUint(digits, n) - digits);
  if (len >= tlen) return putBytes(p, digits, tlen);
  p = putBytes(p, digits, len);
  return putBytes(p, tmpl + len, tlen - len);
}

}  // namespace sledge
