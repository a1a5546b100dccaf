// SPDX-License-Identifier: MIT
// scaling: every thread runs the same kernel. Kernels are interleaved across repetitions (rep r
// runs them rotated by r) so the drift of a shared host does not favour one of them; with
// --reps auto, repetitions are added until every kernel's spread is under the target.
#include <fmt/format.h>

#include "core/engine/window.hpp"
#include "core/kernels/kernels.hpp"
#include "core/report/units.hpp"
#include "core/scenario/crew.hpp"
#include "core/scenario/points.hpp"
#include "core/scenario/runners.hpp"
#include "core/stats/stats.hpp"
#include "core/sysinfo/sysinfo.hpp"

namespace bwlab {
namespace scenario_detail {

SweepResult run_scaling(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                        SweepObserver& observer, const std::atomic<bool>* stop) {
  const SweepSpec& sw = spec.sweep;
  SweepResult result;
  const std::string host = host_name();
  std::vector<const KernelInfo*> kernels;
  for (const auto& name : sw.kernels) kernels.push_back(find_kernel(name));

  result.points_planned = sw.sizes.size() * sw.threads.size() * sw.fills.size() * kernels.size();
  Progress progress(observer, static_cast<int>(result.points_planned) * sw.reps);
  const auto stopped = [&] { return stop && stop->load(); };

  for (std::uint64_t size : sw.sizes) {
    for (int threads : sw.threads) {
      if (stopped()) break;
      auto crew = make_crew(topo, sw, threads, size, std::vector<bool>(static_cast<std::size_t>(threads), true), progress, stop);
      if (!crew) break;
      std::vector<std::uint64_t> pass_counters(crew->pus.size(), 0);
      const std::vector<int> slots = first_slots(threads);
      for (const Fill& fill : sw.fills) {
        std::vector<std::vector<WindowResult>> windows(kernels.size());
        std::vector<int> replaced(kernels.size(), 0);  // --reject-noisy: windows measured again
        // Fixed count, or (--reps auto) at least sw.reps, then more until every kernel's
        // spread is under the target or the cap is reached.
        const auto enough = [&](int reps_done) {
          if (!sw.reps_auto) return reps_done >= sw.reps;
          if (reps_done >= sw.max_reps) return true;
          if (reps_done < sw.reps) return false;
          for (const auto& w : windows)
            if (pstdev_pct(aggregate_per_rep(w, slots, RateBase::elapsed)) > sw.target_pstdev_pct) return false;
          return true;
        };
        for (int rep = 0; !enough(rep) && !stopped(); ++rep) {
          for (std::size_t i = 0; i < kernels.size() && !stopped(); ++i) {
            const std::size_t ki = (i + static_cast<std::size_t>(rep)) % kernels.size();
            const KernelInfo& k = *kernels[ki];
            WindowResult w = measure_window(*crew->team, crew->buffers, k.fn, fill, pass_counters,
                                            WindowConfig{sw.duration, rep == 0, stop, sw.dram});
            // --reject-noisy: a disturbed window is measured again, at most sw.reps times per point
            // (the last try is kept, noisy or not, and counted in noisy_windows).
            while (sw.reject_noisy && !w.stopped && replaced[ki] < sw.reps &&
                   judge_window(w, slots, sw.noise).noisy) {
              ++replaced[ki];
              progress.grow_total(progress.done() + 1);
              w = measure_window(*crew->team, crew->buffers, k.fn, fill, pass_counters,
                                 WindowConfig{sw.duration, false, stop, sw.dram});
            }
            if (w.stopped) break;
            windows[ki].push_back(std::move(w));
            if (sw.reps_auto) progress.grow_total(progress.done() + 2);  // the plan grows as repetitions are added
            progress.window_done(
                sw.reps_auto ? fmt::format("{} {} {}T {} rep {} (auto)", k.name, size_label(size), threads,
                                           fill.label(), rep + 1)
                             : fmt::format("{} {} {}T {} rep {}/{}", k.name, size_label(size), threads, fill.label(),
                                           rep + 1, sw.reps),
                aggregate_per_rep({windows[ki].back()}, slots, RateBase::elapsed).front());
          }
        }
        if (stopped()) break;
        for (std::size_t ki = 0; ki < kernels.size(); ++ki) {
          const KernelInfo& k = *kernels[ki];
          Point p = base_point(spec, host, cpu.model_name);
          p.kernel = std::string(k.name);
          p.traffic_class = std::string(to_string(k.traffic));
          p.fill = fill.label();
          p.threads = threads;
          p.size_bytes = size;
          PointPlan plan = crew_plan(*crew, sw, slots, slots, {}, RateBase::elapsed);
          plan.reps_auto = sw.reps_auto;
          plan.target_pstdev_pct = sw.target_pstdev_pct;
          plan.replaced_windows = replaced[ki];
          plan.reject_noisy_applies = true;
          plan.reject_noisy_on = sw.reject_noisy;
          fill_figures(p, windows[ki], plan);
          p.huge_pct = crew->huge_pct;
          observer.on_point(p);
          result.points.push_back(std::move(p));
        }
      }
      if (stopped()) break;
    }
    if (stopped()) break;
  }
  result.stopped = stopped();
  return result;
}

}  // namespace scenario_detail

SweepResult run_sweep(const SweepSpec& spec, const Topology& topo, const CpuFeatures& cpu, SweepObserver& observer,
                      const std::atomic<bool>* stop) {
  ScenarioSpec s;
  s.scenario = Scenario::scaling;
  s.sweep = spec;
  return scenario_detail::run_scaling(s, topo, cpu, observer, stop);
}

}  // namespace bwlab
