// SPDX-License-Identifier: MIT
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

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
  std::uint64_t bytes = 0;      // bytes of the counted passes
  std::uint64_t passes = 0;     // counted passes
  std::int64_t elapsed_ns = 0;  // from the window's opening to the end of its last counted pass
  double gbps() const { return elapsed_ns > 0 ? static_cast<double>(bytes) / static_cast<double>(elapsed_ns) : 0.0; }
};

struct WindowConfig {
  std::chrono::nanoseconds duration{std::chrono::milliseconds(200)};
  bool warmup = false;  // one uncounted pass per thread before the window opens
  const std::atomic<bool>* stop = nullptr;
};

struct WindowResult {
  std::vector<ThreadWindow> threads;  // indexed by slot
  bool stopped = false;               // `stop` was set: the figures are incomplete
};

// One fully overlapped timed window: every thread of the team starts at one barrier and
// clears its own buffer in passes; a pass that starts before the shared deadline is counted;
// threads past the deadline keep clearing (uncounted) until every thread has passed it, so
// no counted pass ran without its competitors.
// Requires: buffers.size() == pass_counters.size() == team.size(); buffers[slot] belongs to slot.
// pass_counters carry each thread's pass number across windows (the `perf` fill changes per pass).
WindowResult measure_window(PinnedTeam& team, std::vector<Buffer>& buffers, KernelFn kernel, const Fill& fill,
                            std::vector<std::uint64_t>& pass_counters, const WindowConfig& config);

}  // namespace bwlab
