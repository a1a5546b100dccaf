// SPDX-License-Identifier: MIT
#include "core/engine/window.hpp"

#include <algorithm>

namespace bwlab {

WindowResult measure_window(PinnedTeam& team, std::vector<Buffer>& buffers, KernelFn kernel, const Fill& fill,
                            std::vector<std::uint64_t>& pass_counters, const WindowConfig& config) {
  using Clock = std::chrono::steady_clock;
  const int n = team.size();
  WindowResult result;
  result.threads.resize(static_cast<std::size_t>(n));
  Clock::time_point deadline{};
  std::atomic<int> past_deadline{0};
  std::atomic<bool> stopped{false};

  const bool gathered = team.run(
      [&](PinnedTeam::Context& ctx) {
        const auto slot = static_cast<std::size_t>(ctx.slot);
        Buffer& buf = buffers[slot];
        std::uint64_t& pass = pass_counters[slot];
        void* const dst = buf.data();
        const std::size_t size = buf.size();
        // Small buffers: several passes between two clock reads, so reading the clock costs
        // well under 1% of the pass time.
        const std::uint64_t batch = std::max<std::uint64_t>(1, (256u << 10) / std::max<std::size_t>(size, 1));

        if (config.warmup) kernel(dst, size, fill.byte_for_pass(pass++));
        if (!ctx.barrier.arrive_and_wait([&] { deadline = Clock::now() + config.duration; },
                                         Clock::time_point::max(), config.stop)) {
          stopped.store(true);
          return;
        }
        ThreadWindow& tw = result.threads[slot];
        tw.slot = ctx.slot;
        tw.pu_planned = ctx.pu;
        tw.cpu_start = current_cpu();
        const auto t0 = deadline - config.duration;  // the window opened when the last thread arrived
        auto last_end = t0;
        bool past = false;
        for (;;) {
          if (config.stop && config.stop->load(std::memory_order_relaxed)) {
            stopped.store(true);
            break;
          }
          for (std::uint64_t i = 0; i < batch; ++i) kernel(dst, size, fill.byte_for_pass(pass++));
          const auto t = Clock::now();
          if (!past) {
            tw.bytes += size * batch;
            tw.passes += batch;
            last_end = t;
            if (t >= deadline) {
              past = true;
              past_deadline.fetch_add(1);
            }
          }
          if (past && past_deadline.load(std::memory_order_relaxed) >= n) break;
        }
        tw.cpu_end = current_cpu();
        tw.elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(last_end - t0).count();
      },
      config.stop);
  result.stopped = !gathered || stopped.load();
  return result;
}

}  // namespace bwlab
