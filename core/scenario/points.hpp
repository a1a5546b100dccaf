// SPDX-License-Identifier: MIT
// Turning timed windows into Points, for every scenario runner. Internal to core/scenario.
#pragma once
#include <string>
#include <vector>

#include "core/engine/window.hpp"
#include "core/report/record.hpp"
#include "core/scenario/crew.hpp"
#include "core/scenario/scenario.hpp"

namespace bwlab::scenario_detail {

// The fields every point of a run shares: source, scenario, host, CPU, placement, membind, pages,
// window length.
Point base_point(const ScenarioSpec& spec, const std::string& host, const std::string& cpu_model);

// How a thread's rate is taken: bytes over the window (elapsed_ns) or over the time the work
// measured itself (busy_ns: pagefault's touching).
enum class RateBase { elapsed, busy };
double thread_rate(const ThreadWindow& t, RateBase base);  // GB/s, 0 when no time

// Sum of the rates of `slots` in each window.
std::vector<double> aggregate_per_rep(const std::vector<WindowResult>& reps, const std::vector<int>& slots,
                                      RateBase base);

// Fills reps, gbps_* (aggregate over `slots`), bytes_median and elapsed_ns_median (over `slots`),
// gbps_per_thread_median, thread_fairness (within `slots`), pus/pus_planned and per_thread for
// `shown` (each with its kernel from slot_kernels), the stability and pinning flags and the crew's
// notes.
void fill_figures(Point& p, const std::vector<WindowResult>& reps, const std::vector<int>& slots,
               const std::vector<int>& shown, const Crew& crew, const std::vector<std::string>& slot_kernels,
               RateBase base, double unstable_pct);

}  // namespace bwlab::scenario_detail
