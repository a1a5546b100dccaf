// SPDX-License-Identifier: MIT
#include "core/engine/window.hpp"

#include <algorithm>
#include <thread>

namespace bwlab {

WindowResult measure_work_window(PinnedTeam& team, const WorkFactory& work, const WindowConfig& config) {
  using Clock = std::chrono::steady_clock;
  const int n = team.size();
  WindowResult result;
  result.threads.resize(static_cast<std::size_t>(n));
  Clock::time_point deadline{};
  std::atomic<int> past_deadline{0};
  std::atomic<bool> stopped{false};
  std::atomic<bool> failed{false};  // a thread's work threw: the others leave the window too
  bool dram_started = false;        // written in the barrier's completion, read after the team left
  const auto stop_requested = [&] { return config.stop && config.stop->load(std::memory_order_relaxed); };

  const bool gathered = team.run(
      [&](PinnedTeam::Context& ctx) {
        const auto slot = static_cast<std::size_t>(ctx.slot);
        PassFn pass = work(ctx.slot);
        if (pass && config.warmup) (void)pass();
        if (!ctx.barrier.arrive_and_wait(
                [&] {
                  if (config.dram) {  // ioctls before the clock read: outside the timed window
                    config.dram->start();
                    dram_started = true;
                  }
                  deadline = Clock::now() + config.duration;
                },
                Clock::time_point::max(), config.stop)) {
          stopped.store(true);
          return;
        }
        ThreadWindow& tw = result.threads[slot];
        tw.slot = ctx.slot;
        tw.pu_planned = ctx.pu;
        tw.cpu_start = current_cpu();
        if (!pass) {
          // Sits out: past the deadline at once, asleep until the others are.
          tw.idle = true;
          past_deadline.fetch_add(1);
          while (past_deadline.load() < n && !stop_requested() && !failed.load())
            std::this_thread::sleep_for(std::chrono::microseconds(200));
          tw.cpu_end = current_cpu();
          return;
        }
        const auto t0 = deadline - config.duration;  // the window opened when the last thread arrived
        auto last_end = t0;
        bool past = false;
        for (;;) {
          if (stop_requested()) {
            stopped.store(true);
            break;
          }
          if (failed.load(std::memory_order_relaxed)) break;
          PassCount c;
          try {
            c = pass();
          } catch (...) {
            failed.store(true);
            throw;  // PinnedTeam::run rethrows it to the caller
          }
          const auto t = Clock::now();
          tw.bytes_all += c.bytes;
          if (!past) {
            tw.bytes += c.bytes;
            tw.passes += c.passes;
            tw.ops += c.ops;
            tw.faults += c.faults;
            tw.busy_ns += c.busy_ns;
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
  if (dram_started) result.dram = config.dram->stop();
  result.stopped = !gathered || stopped.load();
  return result;
}

WindowResult measure_kernels_window(PinnedTeam& team, std::vector<Buffer>& buffers, const std::vector<KernelFn>& kernels,
                                    const Fill& fill, std::vector<std::uint64_t>& pass_counters,
                                    const WindowConfig& config) {
  return measure_work_window(
      team,
      [&](int s) -> PassFn {
        const auto slot = static_cast<std::size_t>(s);
        const KernelFn kernel = kernels[slot];
        if (!kernel) return {};
        void* const dst = buffers[slot].data();
        const std::size_t size = buffers[slot].size();
        std::uint64_t* const pass = &pass_counters[slot];
        // Small buffers: several passes between two clock reads, so reading the clock costs
        // well under 1% of the pass time.
        const std::uint64_t batch = std::max<std::uint64_t>(1, (256u << 10) / std::max<std::size_t>(size, 1));
        return [=, &fill] {
          for (std::uint64_t i = 0; i < batch; ++i) kernel(dst, size, fill.byte_for_pass((*pass)++));
          return PassCount{size * batch, batch, 0, 0, 0};
        };
      },
      config);
}

WindowResult measure_window(PinnedTeam& team, std::vector<Buffer>& buffers, KernelFn kernel, const Fill& fill,
                            std::vector<std::uint64_t>& pass_counters, const WindowConfig& config) {
  return measure_kernels_window(team, buffers, std::vector<KernelFn>(buffers.size(), kernel), fill, pass_counters,
                                config);
}

}  // namespace bwlab
