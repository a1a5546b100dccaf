// SPDX-License-Identifier: MIT
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
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
  // Where the thread ran and what took its CPU away, from the window's opening until it left:
  std::vector<int> cpus_seen;          // every PU sampled (after each call of the work, and between
                                       // 256 MiB chunks of a long kernel pass), in order of first sight
  std::uint64_t cpu_samples = 0;       // samples taken
  std::uint64_t off_pu_samples = 0;    // ... of which on another PU than pu_planned
  std::int64_t invol_ctx_switches = 0; // involuntary context switches (getrusage RUSAGE_THREAD)
  std::int64_t cpu_ns = 0;             // CPU time the thread got (CLOCK_THREAD_CPUTIME_ID)
  std::int64_t wall_ns = 0;            // wall time over the same interval
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
  double steal_pct = std::numeric_limits<double>::quiet_NaN();  // of the team's PUs (/proc/stat), NaN: unknown
  double cpu_mhz = std::numeric_limits<double>::quiet_NaN();    // median clock of the team's PUs: cpufreq at
                                                                // the end, else busy clock from APERF/MPERF
                                                                // over the window; NaN: not exposed
};

// Records the PU the calling thread runs on into its window (a no-op outside a window). Work
// with long passes calls it between parts of a pass; the window itself samples after each call.
void sample_cpu();

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
// `on_open` (tests) is called on each working thread once its window has opened, before its first call.
using WindowHook = std::function<void(int slot)>;
WindowResult measure_work_window(PinnedTeam& team, const WorkFactory& work, const WindowConfig& config,
                                 const WindowHook& on_open = {});

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
