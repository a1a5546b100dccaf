// SPDX-License-Identifier: MIT
// pagefault: the seeds' pf-test, one per thread. Each call maps `size` bytes of fresh anonymous
// memory (bound and advised like a buffer), touches one byte per page so the kernel clears the
// page in its fault handler, and unmaps. GB/s = bytes made ready / time spent touching; mmap,
// mbind and munmap are outside the timed part. Faults are the kernel's own count (getrusage).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/engine/buffer.hpp"
#include "core/engine/window.hpp"
#include "core/report/units.hpp"
#include "core/scenario/crew.hpp"
#include "core/scenario/points.hpp"
#include "core/scenario/runners.hpp"
#include "core/stats/stats.hpp"
#include "core/sysinfo/sysinfo.hpp"

namespace bwlab::scenario_detail {
namespace {

std::uint64_t thread_minor_faults() {
  rusage r{};
  getrusage(RUSAGE_THREAD, &r);
  return static_cast<std::uint64_t>(r.ru_minflt);
}

}  // namespace

SweepResult run_pagefault(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                          SweepObserver& observer, const std::atomic<bool>* stop) {
  using Clock = std::chrono::steady_clock;
  const SweepSpec& sw = spec.sweep;
  SweepResult result;
  const std::string host = host_name();
  const std::size_t stride = page_size(sw.pages);

  result.points_planned = sw.sizes.size() * sw.threads.size();
  Progress progress(observer, static_cast<int>(result.points_planned) * sw.reps);
  const auto stopped = [&] { return stop && stop->load(); };
  for (std::uint64_t size : sw.sizes) {
    for (int n : sw.threads) {
      if (stopped()) break;
      auto crew = make_crew(topo, sw, n, 0, {}, progress, stop);
      if (!crew) break;
      const auto nt = static_cast<std::size_t>(n);
      std::vector<std::uint64_t> huge(nt, 0);
      std::vector<char> checked(nt, 0);  // char, not bool: each thread writes its own element
      const WorkFactory work = [&](int s) -> PassFn {
        const auto slot = static_cast<std::size_t>(s);
        const int pu = crew->pus[slot];
        return [&, slot, pu] {
          Buffer region(topo, size, pu, sw.membind, sw.pages);
          auto* const bytes = static_cast<volatile unsigned char*>(region.data());
          const std::uint64_t faults0 = thread_minor_faults();
          const auto t0 = Clock::now();
          for (std::size_t off = 0; off < size; off += stride) bytes[off] = 0;
          const auto t1 = Clock::now();
          const std::uint64_t faults = thread_minor_faults() - faults0;
          if (!checked[slot]) {  // once per thread: which pages did the kernel really use?
            huge[slot] = region.huge_bytes();
            checked[slot] = 1;
          }
          return PassCount{size, 1, size / stride, faults,
                           std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()};
        };  // `region` is unmapped here
      };
      std::vector<WindowResult> windows;
      for (int rep = 0; rep < sw.reps && !stopped(); ++rep) {
        WindowResult w = measure_work_window(*crew->team, work, WindowConfig{sw.duration, rep == 0, stop, sw.dram});
        if (w.stopped) break;
        windows.push_back(std::move(w));
        progress.window_done(fmt::format("pagefault {} {} {}T rep {}/{}", to_string(sw.pages), size_label(size), n,
                                         rep + 1, sw.reps));
      }
      if (stopped()) break;

      Point p = base_point(spec, host, cpu.model_name);
      p.kernel = "pagefault";
      p.traffic_class = "os";
      p.fill = "zero";
      p.threads = n;
      p.size_bytes = size;
      const std::vector<int> all = first_slots(n);
      fill_figures(p, windows, crew_plan(*crew, sw, all, all, {}, RateBase::busy));
      std::vector<double> touched, faults, fault_rate;
      for (const WindowResult& w : windows) {
        double t = 0, f = 0, rate = 0;
        for (const ThreadWindow& tw : w.threads) {
          t += static_cast<double>(tw.ops);
          f += static_cast<double>(tw.faults);
          if (tw.busy_ns > 0) rate += static_cast<double>(tw.faults) * 1e9 / static_cast<double>(tw.busy_ns);
        }
        touched.push_back(t);
        faults.push_back(f);
        fault_rate.push_back(rate);
      }
      p.pages_touched_median = median(touched);
      p.faults_median = median(faults);
      p.faults_per_s = median(fault_rate);
      std::uint64_t huge_total = 0;
      for (std::uint64_t h : huge) huge_total += std::min<std::uint64_t>(h, size);
      p.huge_pct = 100.0 * static_cast<double>(huge_total) / (static_cast<double>(size) * n);
      if (sw.pages == Pages::thp && p.huge_pct < 50)
        p.flags.push_back(fmt::format("thp asked for, but only {:.0f}% of the first regions were huge pages "
                                      "(AnonHugePages; THP setting '{}')",
                                      p.huge_pct, thp_setting()));
      observer.on_point(p);
      result.points.push_back(std::move(p));
    }
    if (stopped()) break;
  }
  result.stopped = stopped();
  return result;
}

}  // namespace bwlab::scenario_detail
