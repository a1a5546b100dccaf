// SPDX-License-Identifier: MIT
#include "core/stats/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace bwlab {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

double median(std::span<const double> values) {
  if (values.empty()) return kNaN;
  std::vector<double> v(values.begin(), values.end());
  const std::size_t n = v.size();
  const std::size_t mid = n / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (n % 2 == 1) return upper;
  // The lower middle is the largest element of the left part.
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2.0;
}

double mean(std::span<const double> values) {
  if (values.empty()) return kNaN;
  double sum = 0;
  for (double x : values) sum += x;
  return sum / static_cast<double>(values.size());
}

double pstdev(std::span<const double> values) {
  if (values.empty()) return kNaN;
  if (values.size() == 1) return 0.0;
  const double m = mean(values);
  double ss = 0;
  for (double x : values) {
    const double d = x - m;
    ss += d * d;
  }
  return std::sqrt(ss / static_cast<double>(values.size()));
}

double pstdev_pct(std::span<const double> values) {
  if (values.empty()) return kNaN;
  return pstdev(values) / mean(values) * 100.0;
}

Summary summarize(std::span<const double> values) {
  Summary s;
  s.n = values.size();
  if (values.empty()) {
    s.median = s.min = s.max = s.mean = s.pstdev_pct = kNaN;
    return s;
  }
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  s.median = median(values);
  s.min = *lo;
  s.max = *hi;
  s.mean = mean(values);
  s.pstdev_pct = pstdev_pct(values);
  return s;
}

}  // namespace bwlab
