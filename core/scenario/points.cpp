// SPDX-License-Identifier: MIT
#include "core/report/plural.hpp"
#include "core/scenario/points.hpp"

#include <algorithm>
#include <map>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/counters/dram_pmu.hpp"
#include "core/report/units.hpp"
#include "core/stats/stats.hpp"
#include "core/sweep/sweep.hpp"

namespace bwlab {

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

namespace {

// The flag of a window much longer than asked: either one pass is longer than the window, or
// threads were held up (host preemption). Tells which from the longest time per counted pass.
std::string stretch_flag(const Point& p) {
  const double window_ms = p.elapsed_ns_median / 1e6;
  if (!(window_ms > 1.5 * p.duration_ms)) return {};
  double pass_ms = 0;
  for (const auto& tf : p.per_thread)
    if (tf.passes_total > 0)
      pass_ms = std::max(pass_ms, static_cast<double>(tf.bytes_total) / static_cast<double>(tf.passes_total) /
                                      std::max(tf.gbps_median, 1e-9) / 1e6);
  if (pass_ms > 0.5 * p.duration_ms)
    return fmt::format("window {:.0f} ms for --duration {:g} ms: a pass of {} took {:.0f} ms on average", window_ms,
                       p.duration_ms, size_label(p.size_bytes), pass_ms);
  return fmt::format("window {:.0f} ms for --duration {:g} ms: threads were held up (preempted by the host or "
                     "other tasks?)",
                     window_ms, p.duration_ms);
}

}  // namespace

WindowNoise judge_window(const WindowResult& w, const std::vector<int>& slots, const NoiseLimits& limits) {
  WindowNoise n;
  n.steal_pct = w.steal_pct;
  for (int s : slots) {
    const ThreadWindow& t = w.threads[static_cast<std::size_t>(s)];
    if (t.idle) continue;
    n.invol_ctx_switches += t.invol_ctx_switches;
    if (t.wall_ns > 0) {
      const double lost = 100.0 * (1.0 - static_cast<double>(t.cpu_ns) / static_cast<double>(t.wall_ns));
      if (lost > n.lost_pct) {
        n.lost_pct = lost;
        n.lost_slot = s;
      }
    }
  }
  n.noisy = n.steal_pct > limits.steal_pct || n.lost_pct > limits.lost_pct;
  return n;
}

std::size_t keep_whole_reps(std::vector<std::vector<WindowResult>>& windows, int reps) {
  auto done = static_cast<std::size_t>(std::max(0, reps));
  for (const auto& w : windows) done = std::min(done, w.size());
  for (auto& w : windows) w.resize(done);
  return done;
}

std::string stopped_reps_flag(std::size_t reps_done, int reps) {
  if (reps_done >= static_cast<std::size_t>(std::max(0, reps))) return {};
  return fmt::format("stopped after {} of {}: the figures are of the reps measured", count_of(reps_done, "rep"), reps);
}

void fill_figures(Point& p, const std::vector<WindowResult>& reps, const PointPlan& plan) {
  p.reps = static_cast<int>(reps.size());
  p.gbps_reps = aggregate_per_rep(reps, plan.slots, plan.base);
  std::vector<double> bytes, elapsed, per_thread_median, fairness;
  for (const WindowResult& w : reps) {
    double total = 0, longest = 0;
    std::vector<double> rates;
    for (int s : plan.slots) {
      const ThreadWindow& t = w.threads[static_cast<std::size_t>(s)];
      total += static_cast<double>(t.bytes);
      longest = std::max(longest, static_cast<double>(t.elapsed_ns));
      rates.push_back(thread_rate(t, plan.base));
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
  std::vector<int> stray;  // per shown thread: the first PU it was seen on off the plan, -1 none
  std::vector<std::vector<int>> seen;  // per shown thread: every PU seen, over all windows
  std::vector<int> off_windows;        // per shown thread: windows in which it ran off its PU
  for (int s : plan.shown) {
    const auto slot = static_cast<std::size_t>(s);
    ThreadFigures tf;
    tf.slot = s;
    tf.pu_planned = plan.pus_planned[slot];
    tf.pinned = tf.pu_planned >= 0;  // kAnyPu: placement none, the OS placed it
    tf.mem_node = slot < plan.mem_nodes.size() ? plan.mem_nodes[slot] : -1;
    tf.kernel = slot < plan.slot_kernels.size() ? plan.slot_kernels[slot] : p.kernel;
    stray.push_back(-1);
    seen.emplace_back();
    off_windows.push_back(0);
    for (const WindowResult& w : reps) {
      const ThreadWindow& t = w.threads[slot];
      tf.gbps_reps.push_back(thread_rate(t, plan.base));
      tf.bytes_total += t.bytes;
      tf.passes_total += t.passes;
      tf.ops_total += t.ops;
      tf.pu_observed = t.cpu_end;
      // Every PU the thread was sampled on in this window, over all repetitions.
      std::vector<int> here{t.cpu_start};
      here.insert(here.end(), t.cpus_seen.begin(), t.cpus_seen.end());
      here.push_back(t.cpu_end);
      bool off = false;
      for (int cpu : here) {
        if (std::find(seen.back().begin(), seen.back().end(), cpu) == seen.back().end()) seen.back().push_back(cpu);
        if (tf.pu_planned >= 0 && cpu != tf.pu_planned) {
          off = true;
          if (stray.back() < 0) stray.back() = cpu;
        }
      }
      if (off || (tf.pu_planned < 0 && here.size() > 1 &&
                  std::any_of(here.begin(), here.end(), [&](int c) { return c != here.front(); }))) {
        tf.pinned = false;
        ++off_windows.back();  // for an unbound thread: windows in which the OS moved it
      }
    }
    tf.gbps_median = median(tf.gbps_reps);
    p.pus.push_back(tf.pu_observed);
    p.pus_planned.push_back(tf.pu_planned);
    p.per_thread.push_back(std::move(tf));
  }

  // --reps auto chose the count: what to change is its target or its cap ("try --reps 11" beside
  // "reps auto: cap of 5 reps reached" named an option the run did not use).
  const std::string advice = !plan.reps_auto ? std::string()
                             : s.pstdev_pct <= plan.target_pstdev_pct
                                 ? fmt::format("lower --target-pstdev (now {}%) for more reps, or use a longer --duration",
                                               plan.target_pstdev_pct)
                                 : fmt::format("raise --max-reps (the cap, {}, was reached) or use a longer --duration",
                                               p.reps);
  if (std::string f = stability_flag("GB/s", s.pstdev_pct, p.reps, plan.unstable_pct, advice); !f.empty())
    p.flags.push_back(std::move(f));
  if (plan.reps_auto)
    p.flags.push_back(s.pstdev_pct <= plan.target_pstdev_pct
                          ? fmt::format("reps auto: {:.1f}% pstdev after {} (target {}%)", s.pstdev_pct, count_of(p.reps, "rep"),
                                        plan.target_pstdev_pct)
                          : fmt::format("reps auto: cap of {} reached at {:.1f}% pstdev (target {}%)", count_of(p.reps, "rep"),
                                        s.pstdev_pct, plan.target_pstdev_pct));
  for (std::size_t i = 0; i < p.per_thread.size(); ++i)
    if (p.per_thread[i].pu_planned < 0 && off_windows[i] > 0)
      p.flags.push_back(fmt::format("placement none: the OS moved thread {} in {} of {} (PUs seen: {})",
                                    p.per_thread[i].slot, off_windows[i], count_of(reps.size(), "window"),
                                    fmt::join(seen[i], ",")));
    else if (p.per_thread[i].pu_planned >= 0 && !p.per_thread[i].pinned)
      p.flags.push_back(fmt::format("not pinned: thread {} was seen on PU {}, planned {} (ran off its PU in {} of {}; "
                                    "PUs seen: {})",
                                    p.per_thread[i].slot, stray[i], p.per_thread[i].pu_planned, off_windows[i],
                                    count_of(reps.size(), "window"), fmt::join(seen[i], ",")));
  // Unbound threads the OS kept on one PU for a whole window took turns there: such a point
  // measures the scheduler's placement, not memory contention (two threads at 24 GB/s on PU 1,
  // where the same point on PUs 1 and 0 gave 54, read as a 2-thread result).
  {
    int shared_windows = 0, first_pu = -1;
    std::vector<int> first_slots;
    for (const WindowResult& w : reps) {
      std::map<int, std::vector<int>> stayed;  // PU -> unbound threads that saw no other PU all window
      for (int s : plan.shown) {
        const ThreadWindow& t = w.threads[static_cast<std::size_t>(s)];
        if (plan.pus_planned[static_cast<std::size_t>(s)] >= 0 || t.idle || t.cpu_start < 0 || t.cpu_end != t.cpu_start)
          continue;
        if (std::all_of(t.cpus_seen.begin(), t.cpus_seen.end(), [&](int c) { return c == t.cpu_start; }))
          stayed[t.cpu_start].push_back(s);
      }
      for (const auto& [pu, slots] : stayed)
        if (slots.size() > 1) {
          if (shared_windows++ == 0) first_pu = pu, first_slots = slots;
          break;
        }
    }
    if (shared_windows > 0)
      p.flags.push_back(fmt::format("placement none: threads {} shared PU {} in {} of {} (the OS kept them on one PU: "
                                    "they took turns, so this point measures the placement, not memory contention; "
                                    "--placement compact pins one thread per PU)",
                                    fmt::join(first_slots, " and "), first_pu, shared_windows,
                                    count_of(reps.size(), "window")));
  }
  if (std::string f = stretch_flag(p); !f.empty()) p.flags.push_back(std::move(f));

  // What disturbed the windows: worst window per column, noisy ones counted and explained.
  std::vector<double> mhz;
  WindowNoise worst;  // the noisy window that lost the most, for the flag
  bool any_steal = false;
  p.steal_pct_max = Point::kNone;
  p.invol_ctx_switches = 0;
  p.noisy_windows = 0;
  for (const WindowResult& w : reps) {
    const WindowNoise n = judge_window(w, plan.shown, plan.noise);
    if (!std::isnan(n.steal_pct)) {
      p.steal_pct_max = any_steal ? std::max(p.steal_pct_max, n.steal_pct) : n.steal_pct;
      any_steal = true;
    }
    p.invol_ctx_switches = std::max(p.invol_ctx_switches, static_cast<int>(n.invol_ctx_switches));
    if (w.cpu_mhz > 0) mhz.push_back(w.cpu_mhz);
    if (n.noisy) {
      ++p.noisy_windows;
      if (!worst.noisy || std::max(n.lost_pct, std::isnan(n.steal_pct) ? 0.0 : n.steal_pct) >
                              std::max(worst.lost_pct, std::isnan(worst.steal_pct) ? 0.0 : worst.steal_pct))
        worst = n;
    }
  }
  p.cpu_mhz_median = mhz.empty() ? Point::kNone : median(mhz);
  if (p.noisy_windows > 0) {
    std::string why;
    if (worst.steal_pct > plan.noise.steal_pct) why = fmt::format("steal {:.1f}% of the PUs' time", worst.steal_pct);
    if (worst.lost_pct > plan.noise.lost_pct)
      why += fmt::format("{}thread {} got only {:.0f}% of the window's CPU time", why.empty() ? "" : ", ",
                         worst.lost_slot, 100.0 - worst.lost_pct);
    // Advice only where it can be followed: --reject-noisy is refused outside the scaling scenario.
    p.flags.push_back(fmt::format("noisy: {} of {} disturbed (worst: {}; {}){}",
                                  p.noisy_windows, count_of(reps.size(), "window"), why,
                                  count_of(worst.invol_ctx_switches, "involuntary context switch",
                                           "involuntary context switches"),
                                  // It was on already: its fresh windows were disturbed too.
                                  plan.reject_noisy_on ? "; --reject-noisy was on and its fresh windows were disturbed "
                                                         "too: measure again on a quieter machine"
                                  : plan.reject_noisy_applies ? "; --reject-noisy measures such windows again"
                                                              : "; measure again on a quieter machine"));
  }
  if (plan.replaced_windows > 0)
    p.flags.push_back(fmt::format("reject-noisy: {} replaced by {}", count_of(plan.replaced_windows, "noisy window"),
                                  plan.replaced_windows == 1 ? "a fresh one" : "fresh ones"));
  for (const auto& note : plan.notes) p.flags.push_back(note);
  fill_dram(p, reps);
}

void fill_dram(Point& p, const std::vector<WindowResult>& reps) {
  double read = 0, write = 0, cleared = 0;
  for (const WindowResult& w : reps) {
    if (!w.dram.counted()) return;  // one window not counted: no figure rather than a partial one
    read += w.dram.read;
    write += w.dram.write;
    for (const ThreadWindow& t : w.threads) cleared += static_cast<double>(t.bytes_all);
  }
  p.dram_read_per_byte = dram_per_byte(reps.empty() ? Point::kNone : read, cleared);
  p.dram_write_per_byte = dram_per_byte(reps.empty() ? Point::kNone : write, cleared);
}

}  // namespace bwlab
