// SPDX-License-Identifier: MIT
#include "core/kernels/fill.hpp"

#include <cstdio>

#include "core/errors.hpp"
#include "core/sweep/suggest.hpp"

namespace bwlab {

std::string Fill::label() const {
  if (kind == Kind::perf) return "perf";
  if (byte == 0) return "zero";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned>(byte));
  return buf;
}

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

}  // namespace

Fill parse_fill(std::string_view text) {
  Fill f;
  if (iequals(text, "zero") || text == "0") return f;
  if (iequals(text, "perf")) {
    f.kind = Fill::Kind::perf;
    return f;
  }
  if (text.size() >= 3 && text.size() <= 4 && text[0] == '0' && lower(text[1]) == 'x') {
    unsigned value = 0;
    bool ok = true;
    for (char c : text.substr(2)) {
      const int d = hex_digit(c);
      if (d < 0) {
        ok = false;
        break;
      }
      value = value * 16 + static_cast<unsigned>(d);
    }
    if (ok) {
      f.byte = static_cast<std::uint8_t>(value);
      return f;
    }
  }
  const std::string near = nearest_name(text, {"zero", "perf"});
  if (!near.empty()) throw InputError("bad fill '" + std::string(text) + "'; did you mean " + near + "?");
  throw InputError("bad fill '" + std::string(text) +
                   "': use zero, 0xNN (a byte such as 0xff) or perf");
}

}  // namespace bwlab
