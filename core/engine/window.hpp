// SPDX-License-Identifier: MIT
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/counters/dram_meter.hpp"
#include "core/engine/buffer.hpp"
#include "core/engine/pinned_team.hpp"
#include "core/kernels/fill.hpp"
#include "core/kernels/kernels.hpp"

namespace bwlab {

// What one thread did in one timed window.
struct ThreadWindow {
  int slot = 0;
  int pu_planned = -1;
  int cpu_start = -1;   // sched_getcpu() when the window opened
  int cpu_end = -1;     // ... and when the thread left it
  bool idle = false;    // the slot sat this window out (no work given)
  std::uint64_t bytes = 0;      // bytes of the counted passes
  std::uint64_t bytes_all = 0;  // bytes of every pass in the window, counted or run past the deadline
                                // while others finished (what DRAM counters around the window saw)
  std::uint64_t passes = 0;     // counted passes
  std::uint64_t ops = 0;        // work-specific operations of the counted passes (pages touched, calls, reads)
  std::uint64_t faults = 0;     // page faults the counted passes reported
  std::int64_t busy_ns = 0;     // time the counted passes reported for their measured part (0: not used)
  std::int64_t elapsed_ns = 0;  // from the window's opening to the end of its last counted pass
  double gbps() const { return elapsed_ns > 0 ? static_cast<double>(bytes) / static_cast<double>(elapsed_ns) : 0.0; }
};

struct WindowConfig {
  std::chrono::nanoseconds duration{std::chrono::milliseconds(200)};
  bool warmup = false;  // one uncounted pass per thread before the window opens
  const std::atomic<bool>* stop = nullptr;
  DramMeter* dram = nullptr;  // started when the window opens, stopped once every thread left it
};

struct WindowResult {
  std::vector<ThreadWindow> threads;  // indexed by slot
  bool stopped = false;               // `stop` was set: the figures are incomplete
  DramBytes dram;                     // config.dram's bytes over the window; NaN when not counted
};

// What one call of a thread's work did. A call may run several passes between two clock reads.
struct PassCount {
  std::uint64_t bytes = 0;
  std::uint64_t passes = 1;
  std::uint64_t ops = 0;
  std::uint64_t faults = 0;
  std::int64_t busy_ns = 0;  // time of the part the work measures itself (e.g. touching, munmap)
};
// A thread's work: called over and over during the window. Empty = the slot sits out (it sleeps,
// so it takes no CPU time from the others, and counts as past the deadline at once).
using PassFn = std::function<PassCount()>;
// Builds the work of one slot; called on that slot's pinned thread before the window opens.
using WorkFactory = std::function<PassFn(int slot)>;

// The measurement skeleton, shared by every scenario: every thread of the team meets at one
// barrier, then repeats its work; a call that starts before the shared deadline is counted;
// threads past the deadline keep working (uncounted) until every thread has passed it, so no
// counted call ran without its competitors.
WindowResult measure_work_window(PinnedTeam& team, const WorkFactory& work, const WindowConfig& config);

// The skeleton with clearing kernels: thread `slot` clears buffers[slot] with kernels[slot]
// (nullptr: the slot sits out). Small buffers are cleared several times between two clock reads.
// Requires: buffers.size() == kernels.size() == pass_counters.size() == team.size().
// pass_counters carry each thread's pass number across windows (the `perf` fill changes per pass).
WindowResult measure_kernels_window(PinnedTeam& team, std::vector<Buffer>& buffers, const std::vector<KernelFn>& kernels,
                                    const Fill& fill, std::vector<std::uint64_t>& pass_counters,
                                    const WindowConfig& config);

// Every slot runs the same kernel (the scaling sweep).
WindowResult measure_window(PinnedTeam& team, std::vector<Buffer>& buffers, KernelFn kernel, const Fill& fill,
                            std::vector<std::uint64_t>& pass_counters, const WindowConfig& config);

}  // namespace bwlab
