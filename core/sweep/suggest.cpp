// SPDX-License-Identifier: MIT
#include "core/sweep/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace bwlab {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // The Wagner-Fischer table, two rows back kept for a transposition (optimal string alignment).
  std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  std::iota(prev.begin(), prev.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, row);
  }
  return prev[b.size()];
}

std::string lower_case(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string nearest_name(std::string_view candidate, const std::vector<std::string>& names) {
  if (std::find(names.begin(), names.end(), candidate) != names.end()) return {};
  const std::string folded = lower_case(candidate);
  const std::string* best = nullptr;
  std::size_t best_distance = 0;
  for (const std::string& name : names) {
    const std::size_t d = edit_distance(folded, lower_case(name));
    if (best == nullptr || d < best_distance) {
      best = &name;
      best_distance = d;
    }
  }
  if (best == nullptr) return {};
  const std::size_t longer = std::max(candidate.size(), best->size());
  if (best_distance <= 2 && best_distance * 3 <= longer) return *best;
  // The start of one name only, of 3 letters or more: "lkml" for lkml-table, "cascade" for cascadelake-sp.
  const std::string* start = nullptr;
  if (folded.size() >= 3)
    for (const std::string& name : names)
      if (lower_case(name).rfind(folded, 0) == 0) {
        if (start != nullptr) return {};  // "avx512" begins avx512-nt and avx512-store
        start = &name;
      }
  return start != nullptr ? *start : std::string();
}

}  // namespace bwlab
