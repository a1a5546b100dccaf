// SPDX-License-Identifier: MIT
// mix: the threads split between kernels (--mix stosb:1,avx512-nt:1), all in one window;
// one point per kernel with its threads' aggregate, the rest of the mix as its peers.
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

SweepResult run_mix(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu, SweepObserver& observer,
                    const std::atomic<bool>* stop) {
  const SweepSpec& sw = spec.sweep;
  SweepResult result;
  const std::string host = host_name();

  // Slots in mix order: the first part's threads, then the second's, ...
  std::vector<KernelFn> kernels;
  std::vector<std::string> slot_kernels;
  std::vector<std::vector<int>> groups;
  std::string mix_label;
  for (const MixPart& part : spec.mix) {
    const KernelInfo* k = find_kernel(part.kernel);
    groups.emplace_back();
    for (int i = 0; i < part.threads; ++i) {
      groups.back().push_back(static_cast<int>(kernels.size()));
      kernels.push_back(k->fn);
      slot_kernels.emplace_back(k->name);
    }
    mix_label += fmt::format("{}{}:{}", mix_label.empty() ? "" : ",", k->name, part.threads);
  }
  const int n = static_cast<int>(kernels.size());

  result.points_planned = sw.sizes.size() * sw.fills.size() * groups.size();
  Progress progress(observer, static_cast<int>(sw.sizes.size() * sw.fills.size()) * sw.reps);
  const auto stopped = [&] { return stop && stop->load(); };
  for (std::uint64_t size : sw.sizes) {
    auto crew = make_crew(topo, sw, n, size, std::vector<bool>(static_cast<std::size_t>(n), true), progress, stop);
    if (!crew) break;
    std::vector<std::uint64_t> pass_counters(crew->pus.size(), 0);
    for (const Fill& fill : sw.fills) {
      std::vector<WindowResult> windows;
      for (int rep = 0; rep < sw.reps && !stopped(); ++rep) {
        WindowResult w = measure_kernels_window(*crew->team, crew->buffers, kernels, fill, pass_counters,
                                                WindowConfig{sw.duration, rep == 0, stop, sw.dram});
        if (w.stopped) break;
        windows.push_back(std::move(w));
        progress.window_done(fmt::format("mix {} {} rep {}/{}", mix_label, size_label(size), rep + 1, sw.reps));
      }
      if (stopped()) break;
      for (std::size_t g = 0; g < groups.size(); ++g) {
        const KernelInfo* k = find_kernel(spec.mix[g].kernel);
        Point p = base_point(spec, host, cpu.model_name);
        p.kernel = std::string(k->name);
        p.traffic_class = std::string(to_string(k->traffic));
        p.fill = fill.label();
        p.threads = static_cast<int>(groups[g].size());
        p.size_bytes = size;
        p.role = "mix";
        std::vector<int> others;
        for (std::size_t h = 0; h < groups.size(); ++h) {
          if (h == g) continue;
          p.peer_kernel += (p.peer_kernel.empty() ? "" : "+") + spec.mix[h].kernel;
          others.insert(others.end(), groups[h].begin(), groups[h].end());
        }
        p.peer_threads = static_cast<int>(others.size());
        fill_figures(p, windows, crew_plan(*crew, sw, groups[g], groups[g], slot_kernels, RateBase::elapsed));
        p.huge_pct = crew->huge_pct;
        p.peer_gbps_median = others.empty() ? Point::kNone : median(aggregate_per_rep(windows, others, RateBase::elapsed));
        observer.on_point(p);
        result.points.push_back(std::move(p));
      }
    }
    if (stopped()) break;
  }
  result.stopped = stopped();
  return result;
}

}  // namespace bwlab::scenario_detail
