// SPDX-License-Identifier: MIT
#include "core/engine/window.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <ctime>
#include <thread>

#include "core/engine/noise.hpp"

namespace bwlab {

namespace {

thread_local ThreadWindow* tls_window = nullptr;  // the window the calling thread is in

void note_cpu(ThreadWindow& tw, int cpu) {
  ++tw.cpu_samples;
  if (tw.pu_planned >= 0 && cpu != tw.pu_planned) ++tw.off_pu_samples;  // unbound threads cannot be off
  if (std::find(tw.cpus_seen.begin(), tw.cpus_seen.end(), cpu) == tw.cpus_seen.end()) tw.cpus_seen.push_back(cpu);
}

// CPU time and involuntary switches of the calling thread so far.
struct ThreadUsage {
  std::int64_t cpu_ns = 0;
  std::int64_t invol = 0;
  std::chrono::steady_clock::time_point wall;
};
ThreadUsage thread_usage() {
  ThreadUsage u;
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) u.cpu_ns = ts.tv_sec * 1'000'000'000LL + ts.tv_nsec;
  rusage ru{};
  if (getrusage(RUSAGE_THREAD, &ru) == 0) u.invol = ru.ru_nivcsw;
  u.wall = std::chrono::steady_clock::now();
  return u;
}

// Marks the thread's window for sample_cpu() while it lives.
struct InWindow {
  explicit InWindow(ThreadWindow& tw) { tls_window = &tw; }
  ~InWindow() { tls_window = nullptr; }
  InWindow(const InWindow&) = delete;
  InWindow& operator=(const InWindow&) = delete;
};

// Kernel passes longer than this are cleared in parts, with a PU sample after each part. Not
// smaller: a call's size changes what rep stosb does (Zen 4 streams large counts without reading
// for ownership; 4 MiB calls measured half the GB/s of whole 1 GiB calls on this host).
constexpr std::size_t kSampleChunk = std::size_t{256} << 20;

}  // namespace

void sample_cpu() {
  if (ThreadWindow* tw = tls_window) note_cpu(*tw, current_cpu());
}

WindowResult measure_work_window(PinnedTeam& team, const WorkFactory& work, const WindowConfig& config,
                                 const WindowHook& on_open) {
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
  std::vector<CpuTicks> ticks_before;
  ClockSample clock_before;

  const bool gathered = team.run(
      [&](PinnedTeam::Context& ctx) {
        const auto slot = static_cast<std::size_t>(ctx.slot);
        PassFn pass = work(ctx.slot);
        if (pass && config.warmup) (void)pass();
        if (!ctx.barrier.arrive_and_wait(
                [&] {
                  ticks_before = read_cpu_ticks();
                  clock_before = sample_clock(team.watched_pus());
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
        const InWindow in_window(tw);
        note_cpu(tw, tw.cpu_start);
        if (on_open) on_open(ctx.slot);
        const ThreadUsage u0 = thread_usage();
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
          note_cpu(tw, current_cpu());
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
        const ThreadUsage u1 = thread_usage();
        tw.cpu_end = current_cpu();
        note_cpu(tw, tw.cpu_end);
        tw.invol_ctx_switches = u1.invol - u0.invol;
        tw.cpu_ns = u1.cpu_ns - u0.cpu_ns;
        tw.wall_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(u1.wall - u0.wall).count();
        tw.elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(last_end - t0).count();
      },
      config.stop);
  if (dram_started) result.dram = config.dram->stop();
  result.stopped = !gathered || stopped.load();
  if (!ticks_before.empty()) result.steal_pct = steal_pct(ticks_before, read_cpu_ticks(), team.watched_pus());
  // Before the window opened clock_before holds no PU: then only cpufreq can answer.
  result.cpu_mhz = window_cpu_mhz(team.watched_pus(), clock_before, sample_clock(team.watched_pus()));
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
          if (size > kSampleChunk) {
            // A long pass: cleared in parts of 256 MiB with a PU sample between them (a few ns each).
            auto* const bytes = static_cast<unsigned char*>(dst);
            const std::uint8_t value = fill.byte_for_pass((*pass)++);
            for (std::size_t off = 0; off < size; off += kSampleChunk) {
              kernel(bytes + off, std::min(kSampleChunk, size - off), value);
              sample_cpu();
            }
            return PassCount{size, 1, 0, 0, 0};
          }
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
