// SPDX-License-Identifier: MIT
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/engine/noise.hpp"
#include "core/engine/buffer.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/kernels/fill.hpp"
#include "core/report/record.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"

namespace bwlab {

class DramMeter;  // core/counters/dram_meter.hpp

// What to measure: every kernel at every (size, threads, fill), `reps` windows each.
struct SweepSpec {
  std::vector<std::string> kernels;   // names from the kernel table
  std::vector<std::uint64_t> sizes;   // bytes per thread
  std::vector<int> threads;
  Placement placement;
  MemBind membind;
  Pages pages = Pages::small4k;
  std::vector<Fill> fills{Fill{}};
  int reps = 5;                     // windows per point; with reps_auto, the minimum
  bool reps_auto = false;           // add windows until every kernel's pstdev <= target, or max_reps
  double target_pstdev_pct = 2.0;
  int max_reps = 31;
  std::chrono::microseconds duration{std::chrono::milliseconds(200)};  // fractional ms allowed (1.5ms)
  double unstable_pct = 5.0;          // flag points whose pstdev exceeds this
  std::chrono::milliseconds gather_timeout{10000};
  NoiseLimits noise;                  // when a window counts as disturbed (flagged, noisy_windows)
  bool reject_noisy = false;          // scaling: measure a noisy window again, at most `reps` extra per point
  DramMeter* dram = nullptr;          // memory-controller counters read around every window; nullptr: none
};

// The window of `spec` in milliseconds, fractions kept (what CSV/JSON duration_ms and the tables show).
inline double spec_duration_ms(const SweepSpec& spec) {
  return std::chrono::duration<double, std::milli>(spec.duration).count();
}

struct SweepProgress {
  int windows_done = 0;
  int windows_total = 0;
  double elapsed_s = 0;
  double eta_s = 0;        // estimate of the time left
  std::string current;     // "stosb 16MiB 2T zero rep 3/5"
  // Scaling sweeps: the aggregate GB/s of the window just finished (one repetition of the point
  // in `current`, not yet a median); NaN where a scenario does not report it.
  double window_gbps = std::numeric_limits<double>::quiet_NaN();
};

// Receives what a sweep produces, as it happens (on the thread that called run_sweep).
class SweepObserver {
 public:
  virtual ~SweepObserver() = default;
  virtual void on_warning(const std::string&) {}
  virtual void on_progress(const SweepProgress&) {}
  virtual void on_point(const Point&) {}
  // Before a point's `buffers` buffers of `bytes` each are mapped and first touched (seconds for
  // gigabytes, with no window to report yet).
  virtual void on_preparing(int /*buffers*/, std::uint64_t /*bytes*/) {}
};

// What a command prints while a point's buffers are prepared, when they add up to 1 GiB or more
// (first touching them takes seconds, 0.3 GB/s on a shared VM): "preparing 2 buffers of 8GiB
// (16GiB): each mapped and first touched by its own thread"; empty below that.
std::string preparing_note(int buffers, std::uint64_t bytes);

// Checks everything that can be checked before measuring, so bad input never wastes a run.
// Throws InputError (unknown/unavailable kernel, zero-only kernel with a non-zero fill,
// thread counts the placement cannot host, missing NUMA node, a topology that is not this
// machine, buffers that do not fit in `memory_available` bytes). Returns warnings.
std::vector<std::string> validate_sweep(const SweepSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                                        std::uint64_t memory_available, const std::string& memory_how = "");

// The flag a point gets for its spread: "" when stable, else advice ("single repetition...",
// "unstable: 7.3% pstdev of GB/s over 5 reps, try --reps 11 ..."). `what` names the figure
// ("GB/s", "munmap ns"), or "" to leave it out. `advice` replaces "try --reps N or a longer
// --duration" when that is not what to change (--reps auto: its --max-reps or --target-pstdev).
std::string stability_flag(const std::string& what, double pstdev_pct, int reps, double unstable_pct,
                           const std::string& advice = {});

// Bytes the largest (size x threads) step of the sweep maps at once.
std::uint64_t sweep_peak_bytes(const SweepSpec& spec);

// The memory checks every scenario shares: --membind against the topology (remote needs a
// second node, node:N must exist), huge pages available for hugetlb (sizes x threads, buffers
// rounded to whole pages), and the largest step within `memory_available`. Throws InputError;
// returns warnings.
std::vector<std::string> validate_memory(const MemBind& membind, Pages pages, const std::vector<std::uint64_t>& sizes,
                                         const std::vector<int>& threads, const Topology& topo,
                                         std::uint64_t memory_available, const std::string& memory_how = "");

// The share (%) of the buffers' bytes backed by huge pages, and a flag when thp was asked for
// but the kernel gave fewer huge pages than half of it ("" otherwise).
struct HugeCheck {
  double pct = 0;
  std::string flag;
};
HugeCheck check_huge_pages(const std::vector<Buffer>& buffers, Pages pages);

struct SweepResult {
  std::vector<Point> points;
  bool stopped = false;  // `stop` was set; points holds every point finished before
  std::size_t points_planned = 0;  // the points the whole sweep would have made (stopped: more than points.size())
};

// Measures the sweep on this machine: the scaling scenario (run_scenario with Scenario::scaling).
// Kernels are interleaved across repetitions (rep r runs them rotated by r) so the drift of a
// shared host does not favour one of them. Defined in core/scenario/scaling.cpp, on the runners'
// shared set-up (link bwlab_scenario). Requires: validate_sweep passed.
SweepResult run_sweep(const SweepSpec& spec, const Topology& topo, const CpuFeatures& cpu, SweepObserver& observer,
                      const std::atomic<bool>* stop = nullptr);

}  // namespace bwlab
