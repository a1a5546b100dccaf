// SPDX-License-Identifier: MIT
#include "core/sweep/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace bwlab {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the Wagner-Fischer table at a time.
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
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
  if (best_distance > 2 || best_distance * 3 > longer) return {};
  return *best;
}

}  // namespace bwlab
