// The first line of a client library's message (libpq, the MariaDB C
// connector), trailing blanks cut: what the native sessions report.
#pragma once

#include <string>

namespace sledge {

inline std::string firstLine(const char* s) {
  if (s == nullptr) return std::string();
  std::string out(s);
  const size_t nl = out.find('\n');
  if (nl != std::string::npos) out.resize(nl);
  while (!out.empty() && (out.back() == ' ' || out.back() == '\r' || out.back() == '\t')) out.pop_back();
  return out;
}

}  // namespace sledge
