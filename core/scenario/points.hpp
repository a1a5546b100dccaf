// SPDX-License-Identifier: MIT
// Turning timed windows into a Point's figures and flags: one pure function for every scenario
// (scaling, victim, mix, pagefault, tlbflush), tested on synthetic windows.
#pragma once
#include <string>
#include <vector>

#include "core/engine/noise.hpp"
#include "core/engine/window.hpp"
#include "core/report/record.hpp"

namespace bwlab {

// How a thread's rate is taken: bytes over the window (elapsed_ns) or over the time the work
// measured itself (busy_ns: pagefault's touching).
enum class RateBase { elapsed, busy };
double thread_rate(const ThreadWindow& t, RateBase base);  // GB/s, 0 when no time

// Sum of the rates of `slots` in each window.
std::vector<double> aggregate_per_rep(const std::vector<WindowResult>& reps, const std::vector<int>& slots,
                                      RateBase base);

// Which threads of the windows make a point, and how its flags are judged.
struct PointPlan {
  std::vector<int> slots;                 // threads whose rates sum into the aggregate gbps_*
  std::vector<int> shown;                 // threads listed in per_thread / pus, in this order
  std::vector<int> pus_planned;           // planned PU, indexed by slot
  std::vector<int> mem_nodes;             // buffer's NUMA node, indexed by slot (-1 or missing: unknown)
  std::vector<std::string> slot_kernels;  // what each slot ran; missing: p.kernel
  RateBase base = RateBase::elapsed;
  double unstable_pct = 5.0;              // stability flag above this pstdev (infinity: GB/s is not
                                          // the figure; a single repetition is still flagged)
  bool reps_auto = false;                 // add the "reps auto" flag judged against target_pstdev_pct
  double target_pstdev_pct = 2.0;
  std::vector<std::string> notes;         // appended as flags (buffer binding, huge-page check)
  NoiseLimits noise;                      // when a window counts as disturbed
  int replaced_windows = 0;               // noisy windows --reject-noisy measured again (flagged)
  bool reject_noisy_applies = false;      // scaling: the noisy flag may point to --reject-noisy
  bool reject_noisy_on = false;           // --reject-noisy was given: what is still noisy outlived it
};

// What disturbed one window, judged for the threads `slots` (idle ones skipped).
struct WindowNoise {
  double steal_pct = Point::kNone;    // the window's steal % (NaN unknown)
  std::int64_t invol_ctx_switches = 0;  // sum over the threads
  double lost_pct = 0;                // most CPU time a thread lost: 100 x (1 - cpu_ns / wall_ns)
  int lost_slot = -1;                 // that thread
  bool noisy = false;                 // steal_pct > limits.steal_pct or lost_pct > limits.lost_pct
};
WindowNoise judge_window(const WindowResult& w, const std::vector<int>& slots, const NoiseLimits& limits);

// Fills reps, gbps_reps and gbps_median/min/max/pstdev (aggregate over plan.slots),
// bytes_median and elapsed_ns_median (over plan.slots), gbps_per_thread_median and
// thread_fairness (within plan.slots), pus/pus_planned/per_thread (plan.shown), and appends the
// flags in this order: stability, reps auto, "not pinned" per thread (sampled on another PU than
// planned at any time of any window: start, end, after each call and between chunks of long passes;
// the flag names the first such PU, every PU seen and in how many windows; for a thread planned on
// kAnyPu, placement none, "placement none: the OS moved thread N" instead), window stretch (median window > 1.5 x
// duration_ms), noise (windows judged noisy by judge_window over plan.shown; replaced ones), then plan.notes.
// The noise columns: steal_pct_max (max over windows, NaN when unknown in all), invol_ctx_switches
// (max over windows), cpu_mhz_median (median of the known ones), noisy_windows (count).
// Requires: p.duration_ms and p.size_bytes set; every window has a ThreadWindow for each slot
// of plan.slots and plan.shown; plan.pus_planned covers them.
// Then fill_dram.
void fill_figures(Point& p, const std::vector<WindowResult>& reps, const PointPlan& plan);

// dram_read_per_byte / dram_write_per_byte: the DRAM bytes the memory controllers moved during
// the windows, summed, over the bytes every thread of those windows cleared (bytes_all: counted
// passes and those run past the deadline while the counters still ran). Left NaN unless every
// window was counted.
void fill_dram(Point& p, const std::vector<WindowResult>& reps);

// Windows of configurations measured in turn, rep by rep (victim, tlbflush), when the run stopped:
// the reps that every configuration finished, each list cut to that count (a window of the rep
// under way is dropped, so all compare the same reps). No point was whole before the last rep, so
// without this an interrupt kept none.
std::size_t keep_whole_reps(std::vector<std::vector<WindowResult>>& windows, int reps);
// The flag of a point kept with fewer reps than asked, "" when it has them all.
std::string stopped_reps_flag(std::size_t reps_done, int reps);

}  // namespace bwlab
