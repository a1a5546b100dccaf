// SPDX-License-Identifier: MIT
// A made-up measured point for tests that draw, write or compare points: figures are not
// measurements, they only have to be distinct and well formed. No gtest, no Qt: the CLI tests
// and the GUI's Qt tests share it.
#pragma once
#include <cstdint>
#include <string>

#include "core/report/record.hpp"

namespace bwlab::testsupport {

// `threads` threads of `kernel` on `size` bytes each, zero fill, compact, local, 4k pages,
// 3 repetitions; median `gbps` with min..max `gbps -+ spread`.
inline Point sample_point(const std::string& kernel, std::uint64_t size, int threads, double gbps, double spread) {
  Point p;
  p.kernel = kernel;
  p.threads = threads;
  p.size_bytes = size;
  p.fill = "zero";
  p.placement = "compact";
  p.membind = "local";
  p.pages = "4k";
  p.reps = 3;
  p.gbps_median = gbps;
  p.gbps_min = gbps - spread;
  p.gbps_max = gbps + spread;
  p.gbps_per_thread_median = gbps / threads;
  return p;
}

}  // namespace bwlab::testsupport
