// SPDX-License-Identifier: MIT
#include "core/report/units.hpp"

#include <cmath>

#include <fmt/format.h>

namespace bwlab {

namespace {
constexpr struct {
  int shift;
  const char* name;
} kUnits[] = {{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}};
}  // namespace

std::string size_label(std::uint64_t b) {
  if (b != 0)
    for (const auto& u : kUnits)
      if (b % (1ull << u.shift) == 0) return fmt::format("{}{}", b >> u.shift, u.name);
  return fmt::format("{}B", b);
}

std::string format_bytes(std::uint64_t b, std::string_view sep) {
  for (const auto& u : kUnits) {
    const std::uint64_t unit = 1ull << u.shift;
    if (b < unit) continue;
    if (b % unit == 0) return fmt::format("{}{}{}", b >> u.shift, sep, u.name);
    // Two decimals, more when they would round to a whole number: 4097 bytes read "4KiB", the
    // label of 4096 ("4.001KiB" now); past six decimals the bytes themselves.
    for (int decimals = 2; decimals <= 6; ++decimals) {
      std::string s = fmt::format("{:.{}f}", static_cast<double>(b) / static_cast<double>(unit), decimals);
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') continue;
      return fmt::format("{}{}{}", s, sep, u.name);
    }
    break;
  }
  return fmt::format("{}{}B", b, sep);
}

std::string format_bytes_approx(double b, std::string_view sep) {
  for (const auto& u : kUnits) {
    const double unit = static_cast<double>(1ull << u.shift);
    if (b < unit) continue;
    const double v = b / unit;
    const std::string s = v >= 100  ? fmt::format("{:.0f}", std::round(v / 10) * 10)
                          : v >= 10 ? fmt::format("{:.0f}", std::round(v))
                                    : fmt::format("{:.1f}", v);
    return fmt::format("{}{}{}", s.ends_with(".0") ? s.substr(0, s.size() - 2) : s, sep, u.name);
  }
  return fmt::format("{:.0f}{}B", b, sep);
}

std::string gib_text(std::uint64_t b) { return fmt::format("{:.1f} GiB", static_cast<double>(b) / (1ull << 30)); }

std::string plain_pct(double pct) {
  double shown = std::round(pct * 10) / 10;
  if (shown == 0) shown = 0;  // -0.0 == 0: drop the sign bit
  return fmt::format("{:.1f}%", shown);
}

std::string signed_pct(double pct) {
  const std::string s = plain_pct(pct);
  return s.front() == '-' ? s : "+" + s;
}

}  // namespace bwlab
