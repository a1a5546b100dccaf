// SPDX-License-Identifier: MIT
// tlbflush: the munmap test behind the tlb_flushall_shift tables (lkml.org/lkml/2012/5/17/59).
// Slot 0 maps E pages of 4 KiB, touches each and munmaps them, timing the munmap call alone;
// slots 1..k read one word per page of their own memory, over and over. Each munmap must flush
// the TLBs of every CPU running this process, so the readers pay for it in page walks. Every k
// also gets a window with the unmapper idle: the readers' cost without flushes, in the same run.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "core/engine/window.hpp"
#include "core/report/plural.hpp"
#include "core/scenario/crew.hpp"
#include "core/scenario/points.hpp"
#include "core/scenario/runners.hpp"
#include "core/stats/stats.hpp"
#include "core/sysinfo/sysinfo.hpp"

namespace bwlab::scenario_detail {
namespace {

constexpr std::size_t kPage = 4096;

struct Config {
  int threads;  // 1 unmapper + k readers
  int entries;  // 0: the unmapper sits out (the readers alone)
};

// One map / touch / munmap cycle of `entries` pages; busy_ns = the munmap call.
PassCount unmap_cycle(int entries) {
  using Clock = std::chrono::steady_clock;
  const std::size_t len = static_cast<std::size_t>(entries) * kPage;
  void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error(fmt::format("mmap of {} bytes failed: {}", len, std::strerror(errno)));
  madvise(p, len, MADV_NOHUGEPAGE);  // E pages of 4 KiB, never one huge page
  auto* bytes = static_cast<volatile unsigned char*>(p);
  for (std::size_t off = 0; off < len; off += kPage) bytes[off] = 1;
  const auto t0 = Clock::now();
  munmap(p, len);
  const auto t1 = Clock::now();
  return PassCount{len, 1, 1, 0, std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()};
}

// One read of one word in every page of the reader's memory.
PassCount read_pages(const Buffer& b) {
  const auto* words = static_cast<const volatile std::uint64_t*>(b.data());
  const std::size_t pages = b.size() / kPage;
  const std::size_t step = kPage / sizeof(std::uint64_t);
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < pages; ++i) sum += words[i * step];
  asm volatile("" : : "r"(sum));
  return PassCount{0, 1, pages, 0, 0};
}

}  // namespace

SweepResult run_tlbflush(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                         SweepObserver& observer, const std::atomic<bool>* stop) {
  const SweepSpec& sw = spec.sweep;
  SweepResult result;
  const std::string host = host_name();
  const int max_threads = *std::max_element(sw.threads.begin(), sw.threads.end());

  std::vector<Config> configs;
  for (int n : sw.threads) {
    if (n > 1) configs.push_back({n, 0});
    for (int e : spec.entries) configs.push_back({n, e});
  }
  result.points_planned = sw.sizes.size() * sw.threads.size() * spec.entries.size();
  Progress progress(observer, static_cast<int>(sw.sizes.size() * configs.size()) * sw.reps);
  const auto stopped = [&] { return stop && stop->load(); };
  for (std::uint64_t size : sw.sizes) {
    std::vector<bool> readers(static_cast<std::size_t>(max_threads), true);
    readers[0] = false;  // the unmapper maps its own pages
    auto crew = make_crew(topo, sw, max_threads, size, readers, progress, stop);
    if (!crew) break;
    std::vector<std::vector<WindowResult>> windows(configs.size());
    for (int rep = 0; rep < sw.reps && !stopped(); ++rep) {
      for (std::size_t i = 0; i < configs.size() && !stopped(); ++i) {
        const std::size_t ci = (i + static_cast<std::size_t>(rep)) % configs.size();
        const Config c = configs[ci];
        const WorkFactory work = [&](int slot) -> PassFn {
          if (slot == 0) return c.entries > 0 ? PassFn([e = c.entries] { return unmap_cycle(e); }) : PassFn();
          if (slot >= c.threads) return {};
          const Buffer& b = crew->buffers[static_cast<std::size_t>(slot)];
          return [&b] { return read_pages(b); };
        };
        WindowResult w = measure_work_window(*crew->team, work, WindowConfig{sw.duration, rep == 0, stop, sw.dram});
        if (w.stopped) break;
        windows[ci].push_back(std::move(w));
        progress.window_done(c.entries > 0 ? fmt::format("munmap E={} with {} readers rep {}/{}", c.entries,
                                                         c.threads - 1, rep + 1, sw.reps)
                                           : fmt::format("{} readers alone rep {}/{}", c.threads - 1, rep + 1, sw.reps));
      }
    }
    // Stopped: the reps every configuration finished are kept as this size's points (its configs
    // are measured in turn, so no point was whole before the last rep: an interrupt kept none);
    // a configuration's window of the rep under way is dropped, so all compare the same reps.
    const bool cut = stopped();
    const std::size_t reps_done = keep_whole_reps(windows, sw.reps);
    if (cut && reps_done == 0) break;

    // ns per read of the readers in one window: their time over their reads.
    const auto reader_ns = [](const WindowResult& w, int threads) {
      double ns = 0, reads = 0;
      for (int s = 1; s < threads; ++s) {
        ns += static_cast<double>(w.threads[static_cast<std::size_t>(s)].elapsed_ns);
        reads += static_cast<double>(w.threads[static_cast<std::size_t>(s)].ops);
      }
      return reads > 0 ? ns / reads : Point::kNone;
    };
    for (std::size_t ci = 0; ci < configs.size(); ++ci) {
      const Config c = configs[ci];
      if (c.entries == 0) continue;
      Point p = base_point(spec, host, cpu.model_name);
      p.kernel = "munmap";
      p.traffic_class = "os";
      p.threads = c.threads;
      p.size_bytes = size;
      p.entries = c.entries;
      p.peer_threads = c.threads - 1;
      const std::vector<int> all = first_slots(c.threads);
      std::vector<std::string> slot_kernels(all.size(), "read");
      slot_kernels[0] = "munmap";
      PointPlan plan = crew_plan(*crew, sw, {0}, all, slot_kernels, RateBase::elapsed);
      plan.unstable_pct = std::numeric_limits<double>::infinity();  // GB/s of map+touch+munmap is not the figure
      fill_figures(p, windows[ci], plan);
      p.gbps_median = p.gbps_min = p.gbps_max = p.gbps_pstdev_pct = Point::kNone;
      p.gbps_per_thread_median = p.thread_fairness = Point::kNone;
      p.gbps_reps.clear();
      p.huge_pct = Point::kNone;

      std::vector<double> munmap_ns, calls, reads;
      for (const WindowResult& w : windows[ci]) {
        const ThreadWindow& u = w.threads[0];
        munmap_ns.push_back(u.ops ? static_cast<double>(u.busy_ns) / static_cast<double>(u.ops) : Point::kNone);
        calls.push_back(static_cast<double>(u.ops));
        if (c.threads > 1) reads.push_back(reader_ns(w, c.threads));
      }
      const Summary m = summarize(munmap_ns);
      p.munmap_ns_median = m.median;
      p.munmap_ns_pstdev_pct = m.pstdev_pct;
      p.munmap_calls_median = median(calls);
      // A point cut short by an interrupt: "try --reps 17" beside a run of --reps 20 misled.
      const std::string advice =
          cut && reps_done < static_cast<std::size_t>(sw.reps)
              ? fmt::format("the run was stopped before its {}: measure again", count_of(sw.reps, "rep"))
              : std::string();
      std::string flag = stability_flag("munmap ns", m.pstdev_pct, p.reps, sw.unstable_pct, advice);
      if (!flag.empty() && p.reps >= 2) p.flags.insert(p.flags.begin(), flag);
      if (c.threads > 1) {
        const Summary r = summarize(reads);
        p.reader_ns_median = r.median;
        p.reader_ns_pstdev_pct = r.pstdev_pct;
        std::size_t alone = 0;
        while (configs[alone].threads != c.threads || configs[alone].entries != 0) ++alone;
        std::vector<double> alone_ns;
        for (const WindowResult& w : windows[alone]) alone_ns.push_back(reader_ns(w, c.threads));
        p.reader_alone_ns = median(alone_ns);
        flag = stability_flag("reader ns", r.pstdev_pct, p.reps, sw.unstable_pct, advice);
        if (!flag.empty() && p.reps >= 2) p.flags.push_back(flag);
      }
      if (const std::string f = stopped_reps_flag(reps_done, sw.reps); !f.empty()) p.flags.push_back(f);
      observer.on_point(p);
      result.points.push_back(std::move(p));
    }
    if (cut) break;
  }
  result.stopped = stopped();
  return result;
}

}  // namespace bwlab::scenario_detail
