// SPDX-License-Identifier: MIT
#include "core/engine/page_check.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <string>

namespace bwlab {
namespace {

bool parse_hex(std::string_view s, std::uintptr_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out, 16);
  return ec == std::errc() && p == s.data() + s.size();
}

// "AnonHugePages:      2048 kB" -> 2048 * 1024 bytes; 0 if the line is not `key`.
std::uint64_t field_bytes(std::string_view line, std::string_view key) {
  if (line.substr(0, key.size()) != key || line.size() <= key.size() || line[key.size()] != ':') return 0;
  std::string_view rest = line.substr(key.size() + 1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  std::uint64_t kb = 0;
  std::from_chars(rest.data(), rest.data() + rest.size(), kb);
  return kb << 10;
}

}  // namespace

std::uint64_t huge_backed_bytes_in(std::string_view smaps, std::uintptr_t begin, std::uintptr_t end) {
  std::uint64_t total = 0;
  std::uint64_t overlap = 0;  // of the current mapping with [begin, end); 0 = not interesting
  std::uint64_t huge = 0;
  const auto flush = [&] {
    total += std::min(huge, overlap);
    huge = 0;
  };
  while (!smaps.empty()) {
    const auto nl = smaps.find('\n');
    const std::string_view line = smaps.substr(0, nl);
    smaps.remove_prefix(nl == std::string_view::npos ? smaps.size() : nl + 1);
    // A mapping header: "7f12a0000000-7f12a0200000 rw-p 00000000 00:00 0".
    const auto dash = line.find('-');
    const auto space = line.find(' ');
    std::uintptr_t lo = 0, hi = 0;
    if (dash != std::string_view::npos && space != std::string_view::npos && dash < space &&
        parse_hex(line.substr(0, dash), lo) && parse_hex(line.substr(dash + 1, space - dash - 1), hi)) {
      flush();
      const std::uintptr_t a = std::max(lo, begin), b = std::min(hi, end);
      overlap = b > a ? b - a : 0;
      continue;
    }
    if (overlap == 0) continue;
    huge += field_bytes(line, "AnonHugePages") + field_bytes(line, "Private_Hugetlb") +
            field_bytes(line, "Shared_Hugetlb");
  }
  flush();
  return total;
}

std::uint64_t huge_backed_bytes(const void* addr, std::size_t len) {
  std::ifstream in("/proc/self/smaps");
  if (!in) return 0;
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto begin = reinterpret_cast<std::uintptr_t>(addr);
  return huge_backed_bytes_in(text, begin, begin + len);
}

}  // namespace bwlab
