// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>
#include <span>

namespace bwlab {

// Small named statistics, each tested against hand-computed values.
// All return NaN on an empty input.
double median(std::span<const double> values);   // mean of the two middle values for even n
double mean(std::span<const double> values);
double pstdev(std::span<const double> values);   // population stdev, two-pass; 0 for n == 1
double pstdev_pct(std::span<const double> values);  // pstdev / mean * 100

struct Summary {
  std::size_t n = 0;
  double median = 0, min = 0, max = 0, mean = 0, pstdev_pct = 0;
};
Summary summarize(std::span<const double> values);

}  // namespace bwlab
