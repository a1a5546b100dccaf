// SPDX-License-Identifier: MIT
#include "core/insight/usable_median.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/insight/point_key.hpp"

namespace bwlab {

bool usable_gbps(double gbps) { return std::isfinite(gbps) && gbps > 0; }

bool reps_chosen_automatically(const Point& p) {
  return std::any_of(p.flags.begin(), p.flags.end(), [](const std::string& f) { return f.starts_with("reps auto:"); });
}

bool disturbed_despite_reject_noisy(const Point& p) {
  return windows_disturbed(p) && std::any_of(p.flags.begin(), p.flags.end(), [](const std::string& f) {
           return f.find("--reject-noisy was on") != std::string::npos;
         });
}

void refuse_unusable_medians(std::span<const Point> points, std::string_view origin, bool per_thread) {
  for (const Point& p : points) {
    if (p.scenario == "tlbflush") continue;  // its figures are ns per munmap call, its GB/s are NaN by design
    const double v = per_thread ? p.gbps_per_thread_median : p.gbps_median;
    if (!usable_gbps(v))
      throw InputError(fmt::format("{}: {}: no usable median{} GB/s ({})", origin, point_label(p),
                                   per_thread ? " per-thread" : "", v));
  }
}

}  // namespace bwlab
