// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/report/record.hpp"

namespace bwlab::testing {

// A measured point of the default setup (5 reps of 200 ms, compact local 4k) for table tests.
inline Point table_point(std::string kernel, std::uint64_t size, int threads, std::string fill, double gbps,
                         double pstdev_pct = 0.5) {
  Point p;
  p.kernel = std::move(kernel);
  p.size_bytes = size;
  p.threads = threads;
  p.fill = std::move(fill);
  p.gbps_median = gbps;
  p.gbps_pstdev_pct = pstdev_pct;
  p.reps = 5;
  p.duration_ms = 200;
  p.placement = "compact";
  p.membind = "local";
  p.pages = "4k";
  return p;
}

// The lines of a printed table, without their '\n'.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace bwlab::testing
