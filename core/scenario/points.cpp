// SPDX-License-Identifier: MIT
#include "core/scenario/points.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/stats/stats.hpp"

namespace bwlab::scenario_detail {

Point base_point(const ScenarioSpec& spec, const std::string& host, const std::string& cpu_model) {
  Point p;
  p.source = "measured";
  p.scenario = std::string(to_string(spec.scenario));
  p.host = host;
  p.cpu_model = cpu_model;
  p.placement = spec.sweep.placement.label();
  p.membind = spec.sweep.membind.label();
  p.pages = std::string(to_string(spec.sweep.pages));
  p.duration_ms = spec_duration_ms(spec.sweep);
  return p;
}

double thread_rate(const ThreadWindow& t, RateBase base) {
  const std::int64_t ns = base == RateBase::busy ? t.busy_ns : t.elapsed_ns;
  return ns > 0 ? static_cast<double>(t.bytes) / static_cast<double>(ns) : 0.0;
}

std::vector<double> aggregate_per_rep(const std::vector<WindowResult>& reps, const std::vector<int>& slots,
                                      RateBase base) {
  std::vector<double> out;
  for (const WindowResult& w : reps) {
    double sum = 0;
    for (int s : slots) sum += thread_rate(w.threads[static_cast<std::size_t>(s)], base);
    out.push_back(sum);
  }
  return out;
}


void fill_figures(Point& p, const std::vector<WindowResult>& reps, const std::vector<int>& slots,
               const std::vector<int>& shown, const Crew& crew, const std::vector<std::string>& slot_kernels,
               RateBase base, double unstable_pct) {
  p.reps = static_cast<int>(reps.size());
  p.gbps_reps = aggregate_per_rep(reps, slots, base);
  std::vector<double> bytes, elapsed, per_thread_median, fairness;
  for (const WindowResult& w : reps) {
    double total = 0, longest = 0;
    std::vector<double> rates;
    for (int s : slots) {
      const ThreadWindow& t = w.threads[static_cast<std::size_t>(s)];
      total += static_cast<double>(t.bytes);
      longest = std::max(longest, static_cast<double>(t.elapsed_ns));
      rates.push_back(thread_rate(t, base));
    }
    bytes.push_back(total);
    elapsed.push_back(longest);
    if (!rates.empty()) {
      per_thread_median.push_back(median(rates));
      const auto [lo, hi] = std::minmax_element(rates.begin(), rates.end());
      fairness.push_back(*hi > 0 ? *lo / *hi : 0.0);
    }
  }
  const Summary s = summarize(p.gbps_reps);
  p.gbps_median = s.median;
  p.gbps_min = s.min;
  p.gbps_max = s.max;
  p.gbps_pstdev_pct = s.pstdev_pct;
  p.bytes_median = median(bytes);
  p.elapsed_ns_median = median(elapsed);
  p.gbps_per_thread_median = median(per_thread_median);
  p.thread_fairness = median(fairness);

  p.pus.clear();
  p.pus_planned.clear();
  p.per_thread.clear();
  for (int s : shown) {
    const auto slot = static_cast<std::size_t>(s);
    ThreadFigures tf;
    tf.slot = s;
    tf.pu_planned = crew.pus[slot];
    tf.pinned = true;
    tf.mem_node = crew.mem_nodes[slot];
    tf.kernel = slot < slot_kernels.size() ? slot_kernels[slot] : p.kernel;
    for (const WindowResult& w : reps) {
      const ThreadWindow& t = w.threads[slot];
      tf.gbps_reps.push_back(thread_rate(t, base));
      tf.bytes_total += t.bytes;
      tf.passes_total += t.passes;
      tf.ops_total += t.ops;
      tf.pu_observed = t.cpu_end;
      if (t.cpu_start != tf.pu_planned || t.cpu_end != tf.pu_planned) tf.pinned = false;
    }
    tf.gbps_median = median(tf.gbps_reps);
    p.pus.push_back(tf.pu_observed);
    p.pus_planned.push_back(tf.pu_planned);
    p.per_thread.push_back(std::move(tf));
  }

  const std::string stab = stability_flag("GB/s", s.pstdev_pct, p.reps, unstable_pct);
  if (!stab.empty()) p.flags.push_back(stab);
  for (const auto& tf : p.per_thread)
    if (!tf.pinned)
      p.flags.push_back(fmt::format("not pinned: thread {} was seen on PU {}, planned {}", tf.slot, tf.pu_observed,
                                    tf.pu_planned));
  const double window_ms = p.elapsed_ns_median / 1e6;
  if (window_ms > 1.5 * p.duration_ms)
    p.flags.push_back(fmt::format("window {:.0f} ms for --duration {:.0f} ms: one pass is longer than the window, "
                                  "or threads were held up",
                                  window_ms, p.duration_ms));
  for (const auto& note : crew.notes) p.flags.push_back(note);
  p.huge_pct = crew.huge_pct;
}

}  // namespace bwlab::scenario_detail
