// SPDX-License-Identifier: MIT
// victim: one victim thread runs kernel A on its PU while k aggressors run kernel B on the
// others. Every (A, B, k) and the victims alone (k = 0) are interleaved across repetitions in
// one team, so the baseline and the contended figures share the host's drift.
#include <algorithm>

#include <fmt/format.h>

#include "core/engine/window.hpp"
#include "core/kernels/kernels.hpp"
#include "core/report/units.hpp"
#include "core/scenario/crew.hpp"
#include "core/scenario/points.hpp"
#include "core/scenario/runners.hpp"
#include "core/stats/stats.hpp"
#include "core/sysinfo/sysinfo.hpp"

namespace bwlab::scenario_detail {
namespace {

// One window configuration: victim kernel, aggressor kernel (nullptr for the baseline), threads.
struct Config {
  const KernelInfo* victim;
  const KernelInfo* aggressor;
  int threads;
};

}  // namespace

SweepResult run_victim(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                       SweepObserver& observer, const std::atomic<bool>* stop) {
  const SweepSpec& sw = spec.sweep;
  SweepResult result;
  const std::string host = host_name();
  const int max_threads = *std::max_element(sw.threads.begin(), sw.threads.end());

  std::vector<Config> configs;
  for (const auto& v : spec.victims) configs.push_back({find_kernel(v), nullptr, 1});
  for (const auto& v : spec.victims)
    for (const auto& a : spec.aggressors)
      for (int n : sw.threads)
        if (n > 1) configs.push_back({find_kernel(v), find_kernel(a), n});
  const auto label = [](const Config& c) {
    return c.aggressor ? fmt::format("{} under {}x{}", c.victim->name, c.threads - 1, c.aggressor->name)
                       : fmt::format("{} alone", c.victim->name);
  };

  result.points_planned =
      sw.sizes.size() * sw.fills.size() * spec.victims.size() * spec.aggressors.size() * sw.threads.size();
  Progress progress(observer, static_cast<int>(sw.sizes.size() * sw.fills.size() * configs.size()) * sw.reps);
  const auto stopped = [&] { return stop && stop->load(); };
  for (std::uint64_t size : sw.sizes) {
    auto crew = make_crew(topo, sw, max_threads, size, std::vector<bool>(static_cast<std::size_t>(max_threads), true),
                          progress, stop);
    if (!crew) break;
    std::vector<std::uint64_t> pass_counters(crew->pus.size(), 0);
    for (const Fill& fill : sw.fills) {
      std::vector<std::vector<WindowResult>> windows(configs.size());
      for (int rep = 0; rep < sw.reps && !stopped(); ++rep) {
        for (std::size_t i = 0; i < configs.size() && !stopped(); ++i) {
          const std::size_t ci = (i + static_cast<std::size_t>(rep)) % configs.size();
          const Config& c = configs[ci];
          std::vector<KernelFn> kernels(crew->pus.size(), nullptr);
          kernels[0] = c.victim->fn;
          for (int s = 1; s < c.threads; ++s) kernels[static_cast<std::size_t>(s)] = c.aggressor->fn;
          WindowResult w = measure_kernels_window(*crew->team, crew->buffers, kernels, fill, pass_counters,
                                                  WindowConfig{sw.duration, rep == 0, stop, sw.dram});
          if (w.stopped) break;
          windows[ci].push_back(std::move(w));
          progress.window_done(fmt::format("{} {} rep {}/{}", label(c), size_label(size), rep + 1, sw.reps));
        }
      }
      // Stopped: the reps every configuration finished are kept (an interrupt at 90% kept nothing).
      const bool cut = stopped();
      const std::size_t reps_done = keep_whole_reps(windows, sw.reps);
      if (cut && reps_done == 0) break;

      // Points: for every (victim, aggressor) pair, its k = 0 baseline first, then k = 1, 2, ...
      for (const auto& vname : spec.victims) {
        const KernelInfo* v = find_kernel(vname);
        std::size_t base_ci = 0;
        while (configs[base_ci].victim != v || configs[base_ci].aggressor) ++base_ci;
        const double baseline = median(aggregate_per_rep(windows[base_ci], {0}, RateBase::elapsed));
        for (const auto& aname : spec.aggressors) {
          const KernelInfo* a = find_kernel(aname);
          std::vector<int> counts = sw.threads;
          std::sort(counts.begin(), counts.end());
          for (int n : counts) {
            std::size_t ci = base_ci;
            if (n > 1) {
              ci = 0;
              while (configs[ci].victim != v || configs[ci].aggressor != a || configs[ci].threads != n) ++ci;
            }
            Point p = base_point(spec, host, cpu.model_name);
            p.kernel = std::string(v->name);
            p.traffic_class = std::string(to_string(v->traffic));
            p.fill = fill.label();
            p.threads = n;
            p.size_bytes = size;
            p.role = "victim";
            p.peer_kernel = std::string(a->name);
            p.peer_threads = n - 1;
            const std::vector<int> all = first_slots(n);
            const std::vector<int> aggressors(all.begin() + 1, all.end());
            std::vector<std::string> slot_kernels(static_cast<std::size_t>(n), std::string(a->name));
            slot_kernels[0] = std::string(v->name);
            fill_figures(p, windows[ci], crew_plan(*crew, sw, {0}, all, slot_kernels, RateBase::elapsed));
            p.huge_pct = crew->huge_pct;
            p.peer_gbps_median =
                aggressors.empty() ? 0.0 : median(aggregate_per_rep(windows[ci], aggressors, RateBase::elapsed));
            p.baseline_gbps = baseline;
            p.slowdown_pct = baseline > 0 ? (1.0 - p.gbps_median / baseline) * 100.0 : Point::kNone;
            if (const std::string f = stopped_reps_flag(reps_done, sw.reps); !f.empty()) p.flags.push_back(f);
            observer.on_point(p);
            result.points.push_back(std::move(p));
          }
        }
      }
      if (cut) break;
    }
    if (stopped()) break;
  }
  result.stopped = stopped();
  return result;
}

}  // namespace bwlab::scenario_detail
