// SPDX-License-Identifier: MIT
#include "core/insight/verdict.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "core/errors.hpp"
#include "core/insight/point_key.hpp"
#include "core/insight/usable_median.hpp"
#include "core/report/plural.hpp"
#include "core/report/point_flags.hpp"
#include "core/report/table.hpp"
#include "core/report/units.hpp"

namespace bwlab {

namespace {

bool llc_resident(const Point& p) {
  return std::find(p.flags.begin(), p.flags.end(), kLlcResidentFlag) != p.flags.end();
}
// "The data ..." -> "the data ...", after a colon; a word in capitals (NT) keeps its case.
std::string lower_first(std::string s) {
  if (s.size() > 1 && std::isupper(static_cast<unsigned char>(s[0])) && std::islower(static_cast<unsigned char>(s[1])))
    s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}


// Runs [first, last] of consecutive indices 0..n-1 that `same(i, j)` puts together (j = i + 1).
template <class Same>
std::vector<std::pair<std::size_t, std::size_t>> runs_of(std::size_t n, Same same) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && same(j, j + 1)) ++j;
    out.emplace_back(i, j);
    i = j + 1;
  }
  return out;
}

bool is_write_allocate(const Point& p) { return p.traffic_class == "write-allocate"; }
bool is_nt_side(const Point& p) {
  return p.traffic_class == "non-temporal" || p.traffic_class == "zeroing-without-fetch";
}

using Context = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string, std::string,
                           std::string, std::string>;
// A victim run's rows are judged per aggressor kernel: the victims beside stosb apart from those
// beside movnti (each has its own k = 0 baseline).
Context context_of(const Point& p) {
  return {p.source, p.scenario, p.host,  p.cpu_model, p.fill, p.placement, p.membind, p.pages,
          p.scenario == "victim" ? p.peer_kernel : std::string()};
}

// kernel -> threads -> size -> point
using Grid = std::map<std::string, std::map<int, std::map<std::uint64_t, const Point*>>>;

bool finite_point(const Point& p) {
  if (bounded_by_pstdev(p)) return p.gbps_median > 0;  // its range is the bound (band_of)
  return std::isfinite(p.gbps_median) && std::isfinite(p.gbps_min) && std::isfinite(p.gbps_max) &&
         p.gbps_median > 0 && p.gbps_min > 0;
}

// An imported figure without a min..max range of its own: one number per point (perf bench, a
// mailing-list table; a pstdev printed beside it is no range), nothing to call a side by. Imports
// that keep their repetitions (gbench) have one.
bool imported_without_range(const Point& p) {
  return p.source == "imported" && (!std::isfinite(p.gbps_min) || !std::isfinite(p.gbps_max) || p.reps < 2) &&
         !bounded_by_pstdev(p);
}

// Crossover by medians: the last change of sides, interpolated in log(size) x log(ratio).
void crossover_by_medians(ThreadsVerdict& t, const std::vector<std::pair<const Point*, const Point*>>& both) {
  std::vector<double> log_ratio;
  for (const auto& [wp, np] : both) log_ratio.push_back(std::log(np->gbps_median / wp->gbps_median));
  for (std::size_t i = 1; i < log_ratio.size(); ++i)
    if ((log_ratio[i] > 0) != (log_ratio[i - 1] > 0)) ++t.sign_changes;
  if (log_ratio.back() <= 0) {
    t.crossover = CrossoverKind::none_in_range;
  } else {
    std::size_t first_ahead = log_ratio.size() - 1;
    while (first_ahead > 0 && log_ratio[first_ahead - 1] > 0) --first_ahead;
    if (first_ahead == 0) {
      t.crossover = CrossoverKind::below_range;
      t.bracket_hi = t.sizes.front();
    } else {
      const std::size_t i = first_ahead;
      const double a = log_ratio[i - 1], b = log_ratio[i];  // a <= 0 < b
      const double frac = (0 - a) / (b - a);
      const double lo = std::log2(static_cast<double>(t.sizes[i - 1]));
      const double hi = std::log2(static_cast<double>(t.sizes[i]));
      t.crossover = CrossoverKind::interpolated;
      t.crossover_bytes = std::exp2(lo + frac * (hi - lo));
      t.bracket_lo = t.sizes[i - 1];
      t.bracket_hi = t.sizes[i];
    }
  }
}

// How far a prediction's band reaches below its median, as a fraction of the median (0.6 for a
// band of median / 1.6 .. median x 1.6; the default band's own figure for a point without one).
double band_reach(const Point& p, const VerdictOptions& o) {
  const Band b = band_of(p, o);
  if (b.default_band) return o.model_band_pct / 100;
  return b.lo > 0 ? p.gbps_median / b.lo - 1 : std::numeric_limits<double>::infinity();
}

// NT against write-allocate at one point pair: ranges (measured) apart, else level or too noisy.
// Two predictions are judged by the ratio of their medians against the wider of their two bands'
// reach, and never against less than the model's worst out-of-sample error of such ratios: both
// come from one machine's parameters and share its errors (DRAM efficiency, clock, latency), so
// their ratio is no less certain than either figure (out of sample, the ratio log-RMS is 0.13-0.29
// where the levels' is 0.17-0.57: docs/model.md). Requiring the bands to be apart would ask a
// spec-sheet machine's x/1.6 predictions to differ 2.56x before calling a side; a calibrated
// machine's narrow band (x/1.15) alone would call 16% differences the model cannot vouch for.
constexpr double kRatioErrorFloor = 0.33;  // exp(0.288) - 1: ICX-1's ratio log-RMS, the worst
Standing stand(const Point& w, const Point& n, const VerdictOptions& o) {
  const bool predicted = is_prediction(w) && is_prediction(n);
  if (predicted) {
    const double reach = std::max({band_reach(w, o), band_reach(n, o), kRatioErrorFloor});
    if (n.gbps_median > w.gbps_median * (1 + reach)) return Standing::nt_ahead;
    if (w.gbps_median > n.gbps_median * (1 + reach)) return Standing::nt_behind;
    return Standing::tie;
  }
  if (std::min(w.reps, n.reps) < o.min_reps) return Standing::unusable;
  const Band bw = band_of(w, o), bn = band_of(n, o);
  if (bn.lo > bw.hi) return Standing::nt_ahead;
  if (bn.hi < bw.lo) return Standing::nt_behind;
  if (!predicted && std::max(w.gbps_pstdev_pct, n.gbps_pstdev_pct) > o.max_spread_pct) return Standing::noisy;
  return Standing::tie;
}

ThreadsVerdict judge(int threads, const std::map<std::uint64_t, const Point*>& wa,
                     const std::map<std::uint64_t, const Point*>& nt, const VerdictOptions& o) {
  ThreadsVerdict t;
  t.threads = threads;
  std::vector<std::pair<const Point*, const Point*>> both;
  for (const auto& [size, w] : wa) {
    const auto it = nt.find(size);
    if (it == nt.end()) continue;
    t.sizes.push_back(size);
    both.emplace_back(w, it->second);
  }
  t.reps = 0;
  for (const auto& [w, n] : both) {
    const int r = std::min(w->reps, n->reps);
    t.reps = t.reps == 0 ? r : std::min(t.reps, r);
    t.reps_most = std::max({t.reps_most, w->reps, n->reps});
    t.reps_auto = t.reps_auto || reps_chosen_automatically(*w) || reps_chosen_automatically(*n);
  }
  if (!both.empty()) t.predicted = is_prediction(*both.front().first) && is_prediction(*both.front().second);
  if (static_cast<int>(both.size()) < o.min_sizes) {
    t.problem = fmt::format("too few sizes: {} {} by both kernels, {} needed", both.size(),
                            t.predicted ? "simulated" : "measured", o.min_sizes);
    return t;
  }
  for (const auto& [w, n] : both)
    if (imported_without_range(*w) || imported_without_range(*n)) {
      // A +-% bounds the repetitions only with their count (bounded_by_pstdev); over one run it is
      // no spread at all (a single-run import's "+-0.000" read as "a +-% but not how many").
      const bool pstdev = (std::isfinite(w->gbps_pstdev_pct) || std::isfinite(n->gbps_pstdev_pct)) &&
                          w->reps != 1 && n->reps != 1;
      // "( +- 0.26)" without '%': a spread whose unit the table does not say ("carry no spread" was
      // said of a table that gave one for every figure).
      const bool unitless = w->origin_spread_unit == "as-reported" || n->origin_spread_unit == "as-reported";
      t.problem = unitless ? "the imported spreads have no unit ('+- 0.26' without '%': percent or GB/s?), so no "
                             "verdict can be judged; where they are percentages, add the '%' and import again"
                  : pstdev ? "imported figures carry a +-% but not how many repetitions it is over, so neither a "
                             "min..max nor a bound of one can be judged"
                           : "imported figures carry no spread (one number per point, no min..max over repetitions), "
                             "so no verdict can be judged";
      // The figures are shown all the same, without a call: SKX-2's 25.1 vs 8.5 GB/s read "-". So is
      // where their medians cross, when every size has both medians.
      const Point& lw = *both.back().first;
      const Point& ln = *both.back().second;
      const auto usable = [](const Point& p) { return std::isfinite(p.gbps_median) && p.gbps_median > 0; };
      if (usable(lw) && usable(ln)) {
        t.bare_medians = true;
        t.largest = lw.size_bytes;
        t.wa_median = lw.gbps_median, t.nt_median = ln.gbps_median;
        t.wa_pstdev_pct = lw.gbps_pstdev_pct, t.nt_pstdev_pct = ln.gbps_pstdev_pct;
        t.speedup_pct = (ln.gbps_median / lw.gbps_median - 1) * 100;
        if (std::all_of(both.begin(), both.end(), [&](const auto& pair) { return usable(*pair.first) && usable(*pair.second); }))
          crossover_by_medians(t, both);
      }
      return t;
    }
  for (const auto& [w, n] : both)
    if (!finite_point(*w) || !finite_point(*n)) {
      t.problem = fmt::format("no usable figure at {} (missing or zero)", format_bytes(w->size_bytes));
      return t;
    }

  const Point& w = *both.back().first;
  const Point& n = *both.back().second;
  for (const auto& [wp, np] : both) {
    t.disturbed += windows_disturbed(*wp) + windows_disturbed(*np);
    t.disturbed_rejecting += disturbed_despite_reject_noisy(*wp) + disturbed_despite_reject_noisy(*np);
    t.default_band |= t.predicted && (band_of(*wp, o).default_band || band_of(*np, o).default_band);
    const Standing st = stand(*wp, *np, o);
    t.sizes_nt_ahead += st == Standing::nt_ahead;
    t.sizes_nt_behind += st == Standing::nt_behind;
    // Said with the call: a 32 MiB 1T point the model keeps in the LLC once made a 2-socket server
    // "NT slow ... for large clears" while the two were level at 256 MiB on every thread count.
    if (t.predicted && (llc_resident(*wp) || llc_resident(*np))) {
      t.sizes_ahead_in_llc += st == Standing::nt_ahead;
      t.sizes_behind_in_llc += st == Standing::nt_behind;
    }
  }
  t.largest = w.size_bytes;
  t.wa_reps = w.reps, t.nt_reps = n.reps;
  t.largest_disturbed = windows_disturbed(w) || windows_disturbed(n);
  t.largest_in_llc = t.predicted && (llc_resident(w) || llc_resident(n));
  const Band bw = band_of(w, o), bn = band_of(n, o);
  t.pstdev_bound = !t.predicted && (bw.pstdev_bound || bn.pstdev_bound);
  t.wa_median = w.gbps_median, t.wa_min = t.pstdev_bound ? bw.lo : w.gbps_min, t.wa_max = t.pstdev_bound ? bw.hi : w.gbps_max;
  t.nt_median = n.gbps_median, t.nt_min = t.pstdev_bound ? bn.lo : n.gbps_min, t.nt_max = t.pstdev_bound ? bn.hi : n.gbps_max;
  t.wa_pstdev_pct = w.gbps_pstdev_pct, t.nt_pstdev_pct = n.gbps_pstdev_pct;
  t.speedup_pct = (n.gbps_median / w.gbps_median - 1) * 100;

  crossover_by_medians(t, both);

  if (!t.predicted && t.reps < o.min_reps) {
    t.problem = fmt::format("{} per point: no spread to judge the noise by (use --reps 3 or more)",
                            count_of(t.reps, "repetition"));
    t.standing = Standing::unusable;
    return t;
  }
  t.standing = stand(w, n, o);
  return t;
}

// Per size, the standing at every thread count both kernels have, and where it changes.
std::vector<ThreadCrossover> thread_crossovers(const std::map<int, std::map<std::uint64_t, const Point*>>& wa,
                                               const std::map<int, std::map<std::uint64_t, const Point*>>& nt,
                                               const VerdictOptions& o) {
  std::map<std::uint64_t, ThreadCrossover> by_size;
  for (const auto& [threads, wa_sizes] : wa) {
    const auto nit = nt.find(threads);
    if (nit == nt.end()) continue;
    for (const auto& [size, w] : wa_sizes) {
      const auto pit = nit->second.find(size);
      if (pit == nit->second.end()) continue;
      const Point& n = *pit->second;
      ThreadCrossover& c = by_size[size];
      c.size = size;
      c.predicted = is_prediction(*w) && is_prediction(n);
      c.threads.push_back(threads);
      const bool usable = finite_point(*w) && finite_point(n);
      c.standing.push_back(usable ? stand(*w, n, o) : Standing::unusable);
      c.speedup_pct.push_back(usable ? (n.gbps_median / w->gbps_median - 1) * 100 : 0);
    }
  }
  std::vector<ThreadCrossover> out;
  auto decisive = [](Standing s) { return s == Standing::nt_ahead || s == Standing::nt_behind || s == Standing::tie; };
  for (auto& [size, c] : by_size) {
    if (c.threads.size() < 2) continue;
    c.from = c.standing.front();
    if (!decisive(c.from)) {
      c.kind = ThreadCrossoverKind::cannot_tell;
    } else {
      c.kind = ThreadCrossoverKind::none;
      bool any_judged = false;
      for (std::size_t i = 1; i < c.threads.size(); ++i) {
        if (!decisive(c.standing[i])) continue;
        any_judged = true;
        if (c.standing[i] != c.from) {
          c.kind = ThreadCrossoverKind::changes;
          c.at_threads = c.threads[i];
          c.to = c.standing[i];
          break;
        }
      }
      if (!any_judged) c.kind = ThreadCrossoverKind::cannot_tell;
    }
    out.push_back(std::move(c));
  }
  return out;
}

using Rows = std::vector<const ThreadsVerdict*>;

// `rows` (pointers into one PairVerdict's rows, ascending) in runs of rows next to each other in
// the sweep, each run as [first, last] indices into `rows`.
std::vector<std::pair<std::size_t, std::size_t>> sweep_runs(const Rows& rows) {
  return runs_of(rows.size(), [&](std::size_t a, std::size_t b) { return rows[b] == rows[a] + 1; });
}

// The thread counts of a run: three or more as one label ("34..51T (18 thread counts)").
std::string run_label(const Rows& rows, std::size_t i, std::size_t j) {
  return j - i >= 2 ? threads_range_label(rows[i]->threads, rows[j]->threads, j - i + 1)
                    : fmt::format("{}T", rows[i]->threads);
}

std::string join_and(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? i + 1 == items.size() ? " and " : ", " : "") + items[i];
  return s;
}

// "1T, 2T and 34..51T (18 thread counts)": a 128-thread sweep stays one readable phrase.
std::string threads_list(const Rows& rows) {
  std::vector<std::string> items;
  for (const auto& [i, j] : sweep_runs(rows)) {
    if (j - i >= 2) items.push_back(run_label(rows, i, j));
    else
      for (std::size_t k = i; k <= j; ++k) items.push_back(fmt::format("{}T", rows[k]->threads));
  }
  return join_and(items);
}

// A run's speedups, first..last ("+17.7%..+13.3%").
std::string speedup_span(const std::vector<double>& pct) {
  return fmt::format("{}..{}", signed_pct(pct.front()), signed_pct(pct.back()));
}

// Where a thread count inside a run goes beyond both of its ends by more than 5 points, the run's
// extremes ("+9.0% to +95.0% within the run"), else "": a peak in the middle of a run is never
// hidden by its ends, and a ripple of a point or two does not lengthen the line.
std::string run_extremes(const std::vector<double>& pct) {
  const double first = pct.front(), last = pct.back();
  const auto [lo, hi] = std::minmax_element(pct.begin(), pct.end());
  constexpr double kPoints = 5;
  if (*lo >= std::min(first, last) - kPoints && *hi <= std::max(first, last) + kPoints) return "";
  return fmt::format("{} to {} within the run", signed_pct(*lo), signed_pct(*hi));
}

// "+95.0% at 1T, +17.7%..+13.3% at 34..51T": a run's first and last speedup (and its extremes).
std::string speedups(const Rows& rows) {
  std::string s;
  for (const auto& [i, j] : sweep_runs(rows)) {
    if (j - i >= 2) {
      std::vector<double> pct;
      for (std::size_t k = i; k <= j; ++k) pct.push_back(rows[k]->speedup_pct);
      const std::string extremes = run_extremes(pct);
      s += fmt::format("{}{} at {}..{}T{}", s.empty() ? "" : ", ", speedup_span(pct), rows[i]->threads,
                       rows[j]->threads, extremes.empty() ? "" : " (" + extremes + ")");
    } else {
      for (std::size_t k = i; k <= j; ++k)
        s += fmt::format("{}{} at {}T", s.empty() ? "" : ", ", signed_pct(rows[k]->speedup_pct), rows[k]->threads);
    }
  }
  return s;
}

// Per thread count the crossover; runs of three or more thread counts as one entry.
std::string crossovers(const std::vector<ThreadsVerdict>& all) {
  Rows rows;
  for (const ThreadsVerdict& t : all)
    if (t.crossover != CrossoverKind::not_computed) rows.push_back(&t);
  std::vector<std::string> items;
  for (const auto& [i, j] : runs_of(rows.size(), [&](std::size_t a, std::size_t b) {
         return rows[b] == rows[a] + 1 && rows[a]->crossover == rows[b]->crossover;
       })) {
    if (j - i >= 2) {
      const std::string first = crossover_text(*rows[i]), last = crossover_text(*rows[j]);
      bool same = true;
      for (std::size_t k = i; k <= j; ++k) same &= crossover_text(*rows[k]) == first;
      items.push_back(same ? fmt::format("{}: {}", run_label(rows, i, j), first)
                           : fmt::format("{}: from {} at {}T to {} at {}T", run_label(rows, i, j), first,
                                         rows[i]->threads, last, rows[j]->threads));
    } else {
      for (std::size_t k = i; k <= j; ++k) items.push_back(fmt::format("{}T: {}", rows[k]->threads, crossover_text(*rows[k])));
    }
  }
  std::string s;
  for (const std::string& x : items) s += (s.empty() ? "" : "; ") + x;
  return s;
}

// Thread counts counted as behind (or, the mirror, as ahead) although level within the model's
// uncertainty at the largest size (behind at smaller sizes, ahead at none): said as such, since
// their largest-size figure is level (and may favour the other side by medians).
std::string level_below_text(const Rows& rows, const std::string& nt, bool ahead) {
  const auto count = [ahead](const ThreadsVerdict* t) { return ahead ? t->sizes_nt_ahead : t->sizes_nt_behind; };
  int lo = count(rows.front()), hi = lo;
  for (const ThreadsVerdict* t : rows) lo = std::min(lo, count(t)), hi = std::max(hi, count(t));
  std::string sizes = lo == hi ? fmt::format("{} smaller size{}", lo, lo == 1 ? "" : "s")
                               : fmt::format("{} to {} smaller sizes", lo, hi);
  const bool all_in_llc = std::all_of(rows.begin(), rows.end(), [&](const ThreadsVerdict* t) {
    return (ahead ? t->sizes_ahead_in_llc : t->sizes_behind_in_llc) == count(t);
  });
  if (all_in_llc) sizes += hi == 1 ? " (whose buffer the model keeps in the LLC)" : " (whose buffers the model keeps in the LLC)";
  return fmt::format("at {} the predictions are within the model's uncertainty of each other at the largest size ({}), but {} "
                     "is {} at {} and {} at "
                     "none, so {} as {}",
                     threads_list(rows), speedups(rows), nt, ahead ? "ahead" : "behind", sizes,
                     ahead ? "behind" : "ahead", rows.size() == 1 ? "that thread count counts" : "those thread counts count",
                     ahead ? "ahead" : "behind");
}

// "movnti is ahead at 1T (+95.0% at 1T), behind at ..., level (within the noise) at ..." at the
// largest size; empty when every group is empty.
std::string standings_text(const Rows& ahead, const Rows& behind, const Rows& tie, const std::string& nt,
                           bool predicted) {
  std::vector<std::string> parts;
  if (!ahead.empty()) parts.push_back(fmt::format("{} is ahead at {} ({})", nt, threads_list(ahead), speedups(ahead)));
  if (!behind.empty()) parts.push_back(fmt::format("behind at {} ({})", threads_list(behind), speedups(behind)));
  if (!tie.empty())
    parts.push_back(fmt::format("level ({}) at {} ({})", predicted ? "within the model's uncertainty" : "within the noise",
                                threads_list(tie), speedups(tie)));
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s;
}

void decide(PairVerdict& v, const VerdictOptions& o) {
  // behind: NT behind at the largest size; behind_below: level there but behind at smaller sizes
  // and ahead at none (predictions only), counted as behind; ahead_below the mirror, counted as ahead.
  Rows ahead, behind, behind_below, ahead_below, tie, noisy, unusable;
  for (const ThreadsVerdict& t : v.rows) {
    switch (t.standing) {
      case Standing::nt_ahead: ahead.push_back(&t); break;
      case Standing::nt_behind: behind.push_back(&t); break;
      case Standing::tie:
        // A prediction level within the band at the largest size, behind at smaller sizes and ahead at
        // none: NT never pays off (the seeds' MOVNT_SLOW call on Skylake-X).
        if (counts_as_behind(t)) behind_below.push_back(&t);
        else if (counts_as_ahead(t)) ahead_below.push_back(&t);
        else tie.push_back(&t);
        break;
      case Standing::noisy: noisy.push_back(&t); break;
      case Standing::unusable: unusable.push_back(&t); break;
    }
  }
  const bool any_behind = !behind.empty() || !behind_below.empty();
  const bool any_ahead = !ahead.empty() || !ahead_below.empty();
  const std::string wa = v.wa_kernel, nt = v.nt_kernel;
  std::uint64_t largest = 0;
  for (const ThreadsVerdict& t : v.rows) largest = std::max(largest, t.largest);
  std::string p;
  const bool decisive = any_ahead || any_behind || !tie.empty();
  if (!decisive) {
    v.recommendation = Recommendation::cannot_tell;
    p = fmt::format("The data cannot support a verdict on {} vs {}: ", nt, wa);
    std::vector<std::string> why;
    // Consecutive thread counts with the same problem: one entry ("at 1T..256T (256 thread counts) ...").
    const auto& rows = v.rows;
    for (const auto& [i, j] : runs_of(rows.size(), [&](std::size_t a, std::size_t b) {
           return rows[a].standing != Standing::noisy && rows[b].standing != Standing::noisy &&
                  rows[a].problem == rows[b].problem;
         })) {
      if (rows[i].standing == Standing::noisy) {
        const ThreadsVerdict& t = rows[i];
        why.push_back(fmt::format("at {}T the min..max ranges at {} overlap and the spread is {:.1f}%/{:.1f}% "
                                  "(above {:.0f}%)",
                                  t.threads, format_bytes(t.largest), t.wa_pstdev_pct, t.nt_pstdev_pct,
                                  o.max_spread_pct));
      } else if (j - i >= 2) {
        why.push_back(
            fmt::format("at {} {}", threads_range_label(rows[i].threads, rows[j].threads, j - i + 1), rows[i].problem));
      } else {
        for (std::size_t k = i; k <= j; ++k) why.push_back(fmt::format("at {}T {}", rows[k].threads, rows[k].problem));
      }
    }
    for (std::size_t i = 0; i < why.size(); ++i) p += (i ? "; " : "") + why[i];
    if (v.predicted) {
      p = "Predicted by the model, not measured: " + lower_first(p) + ". Simulate more sizes (e.g. --sizes 2M..4G).";
      v.reasoning = p;
      return;
    }
    p += v.source == "imported"
             ? ". To judge, measure that machine with bwlab run (e.g. --sizes 4M..1G --reps 5): every point then "
               "has its min..max over repetitions."
             // --reps auto chose the count: its cap or target is what to change, not a --reps it did not use.
             : any_reps_auto(v)
                 ? ". Measure again with more sizes (e.g. --sizes 4M..1G), more repetitions (a higher --max-reps or "
                   "a lower --target-pstdev) or a longer --duration, on a quieter machine."
                 : ". Measure again with more sizes (e.g. --sizes 4M..1G), more repetitions (--reps 11) or a longer "
                   "--duration, on a quieter machine.";
    v.reasoning = p;
    return;
  }
  if (any_ahead && !any_behind && (!tie.empty() || !ahead_below.empty())) {
    // Ahead at some judged thread count and behind at none (level at the rest): NT never costs,
    // the mirror of NT slow below (it said "depends on load" with NT never behind).
    v.recommendation = Recommendation::nt_good;
    p = fmt::format("{} is behind {} at no judged thread count", nt, wa);
    const std::string at_largest = standings_text(ahead, {}, tie, nt, v.predicted);
    if (!at_largest.empty()) p += ". At the largest size, " + at_largest;
    if (!ahead_below.empty()) p += (at_largest.empty() ? ": " : "; ") + level_below_text(ahead_below, nt, true);
    p += fmt::format(". In the terms of the Linux x86 clear_page patches this CPU is NT good (X86_FEATURE_NT_GOOD): clear with non-temporal "
                     "stores above the crossover; where the two are level they cost nothing {}",
                     v.predicted ? "beyond the model's uncertainty" : "measurable");
  } else if (!ahead.empty() && !any_behind && tie.empty()) {
    v.recommendation = Recommendation::nt_good;
    p = fmt::format("{} beats {} beyond the noise at the largest size measured at every judged thread count "
                    "({}; {}). In the terms of the Linux x86 clear_page patches this CPU is "
                    "NT good (X86_FEATURE_NT_GOOD): clear with non-temporal stores above the crossover",
                    nt, wa, speedups(ahead),
                    v.predicted ? fmt::format("the two predictions differ by more than the model's uncertainty")
                                : fmt::format("its slowest repetition is faster than {}'s fastest", wa));
  } else if (any_behind && !any_ahead) {
    // Behind at some judged thread count and ahead at none (level at the rest): NT never pays.
    v.recommendation = Recommendation::nt_slow;
    if (behind_below.empty() && tie.empty()) {
      p = fmt::format("{} stays behind {} beyond the noise at the largest size at every judged thread count ({})", nt,
                      wa, speedups(behind));
    } else {
      p = fmt::format("{} is ahead of {} at no judged thread count", nt, wa);
      const std::string at_largest = standings_text({}, behind, tie, nt, v.predicted);
      if (!at_largest.empty()) p += ". At the largest size, " + at_largest;
      if (!behind_below.empty()) p += (at_largest.empty() ? ": " : "; ") + level_below_text(behind_below, nt, false);
    }
    // Behind only below the largest size (level there): stosb is kept because NT wins nowhere, not
    // because it is faster on large clears.
    p += behind.empty() ? fmt::format(". In the terms of the Linux x86 clear_page patches this CPU is NT slow (MOVNT_SLOW): NT wins nowhere, so keep "
                                      "the cacheable {}, level with it on the largest clears and ahead at smaller sizes at {}",
                                      wa, threads_list(behind_below))
                        : fmt::format(". In the terms of the Linux x86 clear_page patches this CPU is NT slow (MOVNT_SLOW): keep the cacheable {} "
                                      "for large clears",
                                      wa);
  } else if (!tie.empty() && !any_ahead && !any_behind) {
    v.recommendation = Recommendation::no_difference;
    p = v.predicted
            ? fmt::format("The predictions for {} and {} are within the model's uncertainty of each other at the largest size "
                          "({}): the difference is within the model's uncertainty, so neither X86_FEATURE_NT_GOOD nor "
                          "MOVNT_SLOW is supported by this prediction",
                          nt, wa, speedups(tie))
            : fmt::format("{} and {} are within each other's min..max range at the largest size ({}), with spreads "
                          "of at most {:.0f}%: no measurable difference, so neither X86_FEATURE_NT_GOOD nor "
                          "MOVNT_SLOW is supported by this data",
                          nt, wa, speedups(tie), o.max_spread_pct);
  } else {
    // Ahead at some thread counts, behind or level at others.
    v.recommendation = Recommendation::depends_on_load;
    std::vector<std::string> parts;
    if (const std::string s = standings_text(ahead, behind, tie, nt, v.predicted); !s.empty())
      parts.push_back("at the largest size, " + s);
    if (!behind_below.empty()) parts.push_back(level_below_text(behind_below, nt, false));
    if (!ahead_below.empty()) parts.push_back(level_below_text(ahead_below, nt, true));
    p = fmt::format("{}", fmt::join(parts, "; "));
    p[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(p[0])));
    p += ". Which store is faster depends on how many cores clear memory at once: depends on load, so neither flag "
         "should be set unconditionally; a kernel or libc would need the contended case in mind (the \"trust but verify\" those patches' "
         "reviewers asked for)";
  }
  // A call from fewer threads than measured: contention decides this question, and the most
  // contended row could not be judged (a one-thread "NT slow" once stood beside an unjudged 2T).
  if ((v.recommendation == Recommendation::nt_good || v.recommendation == Recommendation::nt_slow) && !v.rows.empty()) {
    const ThreadsVerdict& most = v.rows.back();
    if (most.standing == Standing::noisy || most.standing == Standing::unusable)
      p += fmt::format(". Tentative: at {}T, the most threads {}, the standing could not be judged ({}), and how "
                       "many cores clear at once can change the winner; {} it before acting on this call",
                       most.threads, v.predicted ? "simulated" : "measured",
                       most.standing == Standing::noisy ? "too noisy" : most.problem,
                       v.predicted ? "simulate" : "measure");
  }
  const std::string cx = crossovers(v.rows);
  if (!cx.empty()) p += fmt::format(". Crossover where {} overtakes {} (by medians, per-thread buffer size): {}", nt, wa, cx);
  {
    Rows changing;
    for (const ThreadsVerdict& t : v.rows)
      if (t.sign_changes > 1 && t.crossover != CrossoverKind::not_computed) changing.push_back(&t);
    for (const auto& [i, j] : sweep_runs(changing)) {
      int lo = changing[i]->sign_changes, hi = lo;
      for (std::size_t k = i; k <= j; ++k)
        lo = std::min(lo, changing[k]->sign_changes), hi = std::max(hi, changing[k]->sign_changes);
      if (j - i >= 2)
        p += fmt::format(" ({} change sides {} times over the sizes; the last change is reported)",
                         run_label(changing, i, j), lo == hi ? fmt::format("{}", lo) : fmt::format("{} to {}", lo, hi));
      else
        for (std::size_t k = i; k <= j; ++k)
          p += fmt::format(" ({}T changes sides {} times over the sizes; the last change is reported)",
                           changing[k]->threads, changing[k]->sign_changes);
    }
  }
  std::vector<std::string> left;
  for (const auto& [i, j] : sweep_runs(noisy)) {
    double wa_spread = 0, nt_spread = 0;
    for (std::size_t k = i; k <= j; ++k)
      wa_spread = std::max(wa_spread, noisy[k]->wa_pstdev_pct), nt_spread = std::max(nt_spread, noisy[k]->nt_pstdev_pct);
    if (j - i >= 2)
      left.push_back(fmt::format("{} are too noisy to tell (ranges overlap, spreads up to {:.1f}%/{:.1f}%)",
                                 run_label(noisy, i, j), wa_spread, nt_spread));
    else
      for (std::size_t k = i; k <= j; ++k)
        left.push_back(fmt::format("{}T is too noisy to tell (ranges overlap, spread {:.1f}%/{:.1f}%)",
                                   noisy[k]->threads, noisy[k]->wa_pstdev_pct, noisy[k]->nt_pstdev_pct));
  }
  for (const auto& [i, j] : runs_of(unusable.size(), [&](std::size_t a, std::size_t b) {
         return unusable[b] == unusable[a] + 1 && unusable[a]->problem == unusable[b]->problem;
       })) {
    if (j - i >= 2) left.push_back(fmt::format("{} not judged: {}", run_label(unusable, i, j), unusable[i]->problem));
    else
      for (std::size_t k = i; k <= j; ++k)
        left.push_back(fmt::format("{}T not judged: {}", unusable[k]->threads, unusable[k]->problem));
  }
  if (!left.empty()) {
    p += ". Left out: ";
    for (std::size_t i = 0; i < left.size(); ++i) p += (i ? "; " : "") + left[i];
  }
  if (largest) p += fmt::format(". Largest size judged: {} per thread", format_bytes(largest));
  // One size (a thread sweep such as `--sizes 256M`): its standings say which store wins there at
  // each thread count; where in size NT starts to win is bounded, not found.
  const bool one_size = largest && std::all_of(v.rows.begin(), v.rows.end(), [](const ThreadsVerdict& t) {
    return t.crossover == CrossoverKind::not_computed || t.sizes.size() == 1;
  });
  if (one_size)
    p += fmt::format(" (the only size {}: it says which store wins at that size; where in size the winner changes "
                     "needs two or more sizes, e.g. --sizes 2M..4G)",
                     v.predicted ? "simulated" : "measured");
  p += ".";
  if (v.predicted) {
    for (std::size_t at = p.find("beyond the noise"); at != std::string::npos; at = p.find("beyond the noise"))
      p.replace(at, 16, "beyond the model's uncertainty");
    for (std::size_t at = p.find("largest size measured"); at != std::string::npos; at = p.find("largest size measured"))
      p.replace(at, 21, "largest size simulated");
    bool default_band = false;
    for (const ThreadsVerdict& t : v.rows) default_band |= t.default_band;
    p = "Predicted by the model, not measured: " + lower_first(p) +
        (default_band ? fmt::format(" The simulated points carry no band of their own: judged by the default band of "
                                    "+-{:g}% around the model's figure.",
                                    o.model_band_pct)
                      : " Judged by the model's band: two predictions are apart when their medians differ by more "
                        "than the band's reach, and by more than 33% (the largest per-machine log-RMS error of such "
                        "ratios out of sample; a single point can be off more); they share the machine's errors, so their ratio is surer than either figure.");
  }
  v.reasoning = p;
}

int vector_width_rank(const std::string& kernel) {
  static const char* order[] = {"avx512-nt", "avx2-nt", "movntdq", "movnti", "clzero"};
  for (int i = 0; i < 5; ++i)
    if (kernel == order[i]) return i;
  return 5;
}

}  // namespace

bool is_prediction(const Point& p) { return p.source == "simulated"; }


bool counts_as_behind(const ThreadsVerdict& t) {
  return t.standing == Standing::nt_behind ||
         (t.standing == Standing::tie && t.predicted && t.sizes_nt_ahead == 0 && t.sizes_nt_behind > 0);
}

bool counts_as_ahead(const ThreadsVerdict& t) {
  return t.standing == Standing::nt_ahead ||
         (t.standing == Standing::tie && t.predicted && t.sizes_nt_behind == 0 && t.sizes_nt_ahead > 0);
}

bool bounded_by_pstdev(const Point& p) {
  return p.source == "imported" && (!std::isfinite(p.gbps_min) || !std::isfinite(p.gbps_max)) && p.reps >= 2 &&
         std::isfinite(p.gbps_pstdev_pct) && p.gbps_pstdev_pct >= 0 && std::isfinite(p.gbps_median);
}

Band band_of(const Point& p, const VerdictOptions& o) {
  if (bounded_by_pstdev(p)) {
    const double f = (p.reps - 1) * p.gbps_pstdev_pct / 100;
    return {p.gbps_median * std::max(0.0, 1 - f), p.gbps_median * (1 + f), false, true};
  }
  if (!is_prediction(p) || p.gbps_min < p.gbps_max) return {p.gbps_min, p.gbps_max, false};
  const double f = o.model_band_pct / 100;
  return {p.gbps_median * (1 - f), p.gbps_median * (1 + f), true};
}

namespace {
// What changes at a crossover, one rule for the long and the short text: who moves (the
// write-allocate side or NT) and the verb, with the preposition that takes the other side.
struct Change {
  bool wa_moves;
  const char* verb;
  const char* before_other;  // "is level" + " with", "pulls ahead" + " of", "overtakes" + ""
};
Change change_of(const ThreadCrossover& c) {
  if (c.from == Standing::nt_ahead) return c.to == Standing::tie ? Change{true, "is level", " with"} : Change{true, "overtakes", ""};
  if (c.from == Standing::nt_behind) return c.to == Standing::tie ? Change{false, "is level", " with"} : Change{false, "overtakes", ""};
  return c.to == Standing::nt_ahead ? Change{false, "pulls ahead", " of"} : Change{true, "pulls ahead", " of"};
}
}  // namespace

std::string crossover_change_short(const ThreadCrossover& c, const std::string& wa) {
  const Change ch = change_of(c);
  return fmt::format("{} {}", ch.wa_moves ? wa : std::string("NT"), ch.verb);
}

std::string thread_crossover_text(const ThreadCrossover& c, const std::string& wa, const std::string& nt) {
  auto short_standing = [](Standing s) {
    switch (s) {
      case Standing::nt_ahead: return "NT ahead";
      case Standing::nt_behind: return "NT behind";
      case Standing::tie: return "level";
      case Standing::noisy: return "too noisy";
      case Standing::unusable: return "cannot judge";
    }
    return "?";
  };
  // Thread counts in runs of one standing: three or more become "5..256T (9 thread counts) level
  // (+141.4%..+12.1%)" (with the run's extremes when its middle goes beyond its ends), so a sweep
  // of 256 thread counts stays a readable line, in the notation of the recommendation's runs.
  std::string steps;
  for (const auto& [i, j] :
       runs_of(c.threads.size(), [&](std::size_t a, std::size_t b) { return c.standing[a] == c.standing[b]; })) {
    if (!steps.empty()) steps += ", ";
    if (c.standing[i] == Standing::unusable) {  // no figure to give: a percentage here would read as a tie
      steps += j - i >= 2 ? fmt::format("{} cannot judge", threads_range_label(c.threads[i], c.threads[j], j - i + 1))
                          : fmt::format("{}T cannot judge", c.threads[i]);
      for (std::size_t k = i + 1; j - i < 2 && k <= j; ++k) steps += fmt::format(", {}T cannot judge", c.threads[k]);
    } else if (j - i >= 2) {
      const std::vector<double> pct(c.speedup_pct.begin() + static_cast<std::ptrdiff_t>(i),
                                    c.speedup_pct.begin() + static_cast<std::ptrdiff_t>(j) + 1);
      const std::string extremes = run_extremes(pct);
      steps += fmt::format("{} {} ({}{})", threads_range_label(c.threads[i], c.threads[j], j - i + 1),
                           short_standing(c.standing[i]), speedup_span(pct), extremes.empty() ? "" : "; " + extremes);
    } else {
      for (std::size_t k = i; k <= j; ++k)
        steps += fmt::format("{}{}T {} {}", k > i ? ", " : "", c.threads[k], short_standing(c.standing[k]),
                             signed_pct(c.speedup_pct[k]));
    }
  }
  const std::string rule = c.predicted ? "model's uncertainty" : "min..max ranges";
  switch (c.kind) {
    case ThreadCrossoverKind::changes: {
      const Change ch = change_of(c);
      const std::string what = fmt::format("{} {}{} {}", ch.wa_moves ? wa : nt, ch.verb, ch.before_other,
                                           ch.wa_moves ? nt : wa);
      return fmt::format("{} at {} threads ({}; decided by the {})", what, c.at_threads, steps, rule);
    }
    case ThreadCrossoverKind::none:
      return fmt::format("none: {} at every judged thread count ({}; decided by the {})", short_standing(c.from),
                         steps, rule);
    case ThreadCrossoverKind::cannot_tell:
      return fmt::format("cannot tell: {} ({})",
                         c.from == Standing::unusable || c.from == Standing::noisy
                             ? fmt::format("the standing at {}T cannot be judged", c.threads.front())
                             : std::string("no later thread count can be judged"),
                         steps);
  }
  return "?";
}

std::vector<std::string> verdict_disagreements(std::span<const PairVerdict> a, std::span<const PairVerdict> b) {
  std::vector<std::string> out;
  for (const PairVerdict& x : a)
    for (const PairVerdict& y : b) {
      if (x.wa_kernel != y.wa_kernel || x.nt_kernel != y.nt_kernel || x.fill != y.fill) continue;
      const std::string pair = fmt::format("{} vs {} (fill {})", x.nt_kernel, x.wa_kernel, x.fill);
      if (x.recommendation != y.recommendation)
        out.push_back(fmt::format("{}: {} says {}, {} says {}", pair, x.source, to_string(x.recommendation), y.source,
                                  to_string(y.recommendation)));
      for (const ThreadsVerdict& r : x.rows)
        for (const ThreadsVerdict& q : y.rows)
          if (r.threads == q.threads && r.standing != q.standing)
            out.push_back(fmt::format("{} at {}T: {} {} at {}, {} {} at {}", pair, r.threads, x.source,
                                      standing_text(r.standing, r.predicted), format_bytes(r.largest), y.source,
                                      standing_text(q.standing, q.predicted), format_bytes(q.largest)));
    }
  return out;
}

const char* to_string(Standing s) {
  switch (s) {
    case Standing::nt_ahead: return "NT ahead (ranges apart)";
    case Standing::nt_behind: return "NT behind (ranges apart)";
    case Standing::tie: return "level (ranges overlap, spreads within --max-spread)";
    case Standing::noisy: return "too noisy to tell";
    case Standing::unusable: return "cannot judge";
  }
  return "?";
}

const char* standing_text(Standing s, bool predicted) {
  if (predicted) {
    switch (s) {
      case Standing::nt_ahead: return "NT ahead (beyond the model's uncertainty)";
      case Standing::nt_behind: return "NT behind (beyond the model's uncertainty)";
      case Standing::tie: return "level (within the model's uncertainty)";
      default: break;
    }
  }
  return to_string(s);
}

const char* to_string(Recommendation r) {
  switch (r) {
    case Recommendation::nt_good: return "NT good";
    case Recommendation::nt_slow: return "NT slow";
    case Recommendation::depends_on_load: return "depends on load";
    case Recommendation::no_difference: return "no difference";
    case Recommendation::cannot_tell: return "cannot tell";
  }
  return "?";
}

std::string crossover_text(const ThreadsVerdict& t) {
  // A crossover of medians where NT is ahead beyond the noise (or band) at no size is no call: said
  // beside it (a row "at or below 16MiB (NT's median ahead at every size)" stood over "level" and
  // an "NT wins nowhere" recommendation).
  const bool by_medians_only = t.sizes_nt_ahead == 0;
  const std::string apart = t.predicted ? "beyond the model's uncertainty" : "ranges apart";
  switch (t.crossover) {
    case CrossoverKind::interpolated:
      return fmt::format("~{} (between {} and {}{})", format_bytes_approx(t.crossover_bytes),
                         format_bytes(t.bracket_lo), format_bytes(t.bracket_hi),
                         by_medians_only ? fmt::format("; by medians only: NT ahead {} at no size",
                                                       t.predicted ? "beyond the model's uncertainty"
                                                                   : "with the ranges apart")
                                         : std::string());
    case CrossoverKind::below_range:
      if (t.sizes.size() == 1)
        return fmt::format("at or below {} (NT's median ahead at the only size{})", format_bytes(t.bracket_hi),
                           !by_medians_only ? ""
                           : t.predicted    ? ", not beyond the model's uncertainty"
                                            : ", ranges not apart");
      return fmt::format("at or below {} (NT's median ahead at every size{})", format_bytes(t.bracket_hi),
                         by_medians_only ? fmt::format(", {} at none", apart) : std::string());
    case CrossoverKind::none_in_range: return fmt::format("none in range (up to {})", format_bytes(t.largest));
    case CrossoverKind::not_computed: return "not computed";
  }
  return "?";
}

bool verdict_applicable(std::span<const Point> points) {
  std::set<std::uint64_t> sizes;
  std::set<int> threads;
  bool wa = false, nt = false;
  for (const Point& p : points) {
    if (p.scenario != "scaling" && p.scenario != "victim") continue;  // as compute_verdicts
    sizes.insert(p.size_bytes);
    threads.insert(p.threads);
    wa |= is_write_allocate(p);
    nt |= is_nt_side(p);
  }
  return (sizes.size() >= 2 || threads.size() >= 2) && wa && nt;
}

// A point compute_verdicts sets beside another: a write-allocate or NT kernel's, run one at a time
// (scaling) or as victims beside the same aggressors, alternatives to choose between. A mix's
// kernels run at once, and the OS clears in pagefault: not judged.
namespace {
bool clearing_point(const Point& p) {
  return (is_write_allocate(p) || is_nt_side(p)) && (p.scenario == "scaling" || p.scenario == "victim");
}
// A point the run flagged as measuring the placement is not judged (a 2-thread one said "NT behind").
bool judged_point(const Point& p) { return clearing_point(p) && !threads_shared_a_pu(p); }

// "note: N points not judged: WHY: label; ...; and K more\n", at most 6 named; empty without labels.
// `why` is given whether one point is named.
std::string not_judged_note(std::vector<std::string> labels, const std::function<std::string(bool one)>& why) {
  if (labels.empty()) return {};
  constexpr std::size_t kShown = 6;
  const std::size_t n = labels.size();
  if (n > kShown) labels.resize(kShown);
  return fmt::format("note: {} not judged: {}: {}{}\n", count_of(n, "point"), why(n == 1), fmt::join(labels, "; "),
                     n > kShown ? fmt::format("; and {} more", n - kShown) : "");
}

// Two kernels' points at the same thread counts and sizes with the same median rates.
bool same_figures(const std::map<int, std::map<std::uint64_t, const Point*>>& a,
                  const std::map<int, std::map<std::uint64_t, const Point*>>& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [threads, sizes] : a) {
    const auto it = b.find(threads);
    if (it == b.end() || it->second.size() != sizes.size()) return false;
    for (const auto& [size, p] : sizes) {
      const auto q = it->second.find(size);
      if (q == it->second.end() || std::abs(p->gbps_median - q->second->gbps_median) > 1e-9 * p->gbps_median)
        return false;
    }
  }
  return true;
}
}  // namespace

std::string shared_pu_note(std::span<const Point> points) {
  std::vector<std::string> labels;
  for (const Point& p : points)
    if (clearing_point(p) && threads_shared_a_pu(p)) labels.push_back(point_label(p));
  return not_judged_note(std::move(labels), [](bool one) {
    return fmt::format("{} threads shared a PU (placement none: the OS placed them), so {} the placement, not memory "
                       "contention; measure with --placement compact or scatter",
                       one ? "its" : "their", one ? "it measures" : "they measure");
  });
}

std::string unpaired_points_note(std::span<const Point> points) {
  struct Sides {
    bool wa = false, nt = false;
    std::vector<const Point*> points;
  };
  std::map<std::tuple<Context, int, std::uint64_t>, Sides> at;
  for (const Point& p : points) {
    if (!judged_point(p)) continue;
    Sides& s = at[{context_of(p), p.threads, p.size_bytes}];
    s.wa |= is_write_allocate(p), s.nt |= is_nt_side(p);
    s.points.push_back(&p);
  }
  std::vector<std::string> labels;
  for (const auto& [key, s] : at)
    if (s.wa != s.nt)
      for (const Point* p : s.points) labels.push_back(point_label(*p));
  return not_judged_note(std::move(labels), [](bool one) {
    return fmt::format("no point of the other side (write-allocate against non-temporal) has {} fill, size, thread "
                       "count and set-up",
                       one ? "its" : "their");
  });
}

bool any_reps_auto(const PairVerdict& v) {
  return std::any_of(v.rows.begin(), v.rows.end(), [](const ThreadsVerdict& t) { return t.reps_auto; });
}

std::vector<PairVerdict> compute_verdicts(std::span<const Point> points, const VerdictOptions& o) {
  std::map<Context, Grid> groups;
  std::map<Context, std::vector<std::string>> kernel_order;  // as first seen, for stable output
  std::map<Context, double> durations;
  std::set<Context> assumed;  // contexts with points whose thread count bwlab import assumed
  for (const Point& p : points) {
    if (!judged_point(p)) continue;
    const Context c = context_of(p);
    const Point*& slot = groups[c][p.kernel][p.threads][p.size_bytes];
    if (slot != nullptr)
      throw InputError(fmt::format("two points for {} on host '{}': the input mixes runs; keep one run per host "
                                   "(or merge runs from several hosts with 'bwlab merge')",
                                   point_label(p), p.host));
    slot = &p;
    auto& order = kernel_order[c];
    if (std::find(order.begin(), order.end(), p.kernel) == order.end()) order.push_back(p.kernel);
    durations[c] = p.duration_ms;
    if (threads_assumed(p)) assumed.insert(c);
  }
  std::vector<PairVerdict> out;
  for (const auto& [ctx, grid] : groups) {
    const std::size_t first_of_ctx = out.size();
    for (const std::string& wa : kernel_order[ctx]) {
      const Point* wa_any = grid.at(wa).begin()->second.begin()->second;
      if (!is_write_allocate(*wa_any)) continue;
      // The same for the write-allocate side (stosq and memset predicted as stosb): named in the
      // verdicts of the kernel already judged, not judged again.
      if (std::get<0>(ctx) == "simulated") {
        bool twin = false;
        for (auto v = out.begin() + static_cast<std::ptrdiff_t>(first_of_ctx); v != out.end(); ++v)
          if (v->wa_kernel != wa && same_figures(grid.at(v->wa_kernel), grid.at(wa))) {
            v->wa_twins.push_back(wa);
            twin = true;
          }
        if (twin) continue;
      }
      const std::size_t first_of_wa = out.size();
      for (const std::string& nt : kernel_order[ctx]) {
        const Point* nt_any = grid.at(nt).begin()->second.begin()->second;
        if (!is_nt_side(*nt_any)) continue;
        if (std::get<0>(ctx) == "simulated") {  // a prediction identical to one already judged: named there
          auto twin = std::find_if(out.begin() + static_cast<std::ptrdiff_t>(first_of_wa), out.end(),
                                   [&](const PairVerdict& e) { return same_figures(grid.at(e.nt_kernel), grid.at(nt)); });
          if (twin != out.end()) {
            twin->nt_twins.push_back(nt);
            continue;
          }
        }
        PairVerdict v;
        std::tie(v.source, v.scenario, v.host, v.cpu_model, v.fill, v.placement, v.membind, v.pages, v.aggressor) = ctx;
        v.duration_ms = durations[ctx];
        v.threads_assumed = assumed.count(ctx) > 0;
        v.wa_kernel = wa;
        v.nt_kernel = nt;
        const auto& wa_grid = grid.at(wa);
        const auto& nt_grid = grid.at(nt);
        for (const auto& [threads, wa_sizes] : wa_grid) {
          const auto it = nt_grid.find(threads);
          if (it == nt_grid.end()) continue;
          v.rows.push_back(judge(threads, wa_sizes, it->second, o));
        }
        if (v.rows.empty()) continue;  // the two kernels never ran at the same thread count
        v.predicted = v.source == "simulated";
        v.by_size = thread_crossovers(wa_grid, nt_grid, o);
        decide(v, o);
        out.push_back(std::move(v));
      }
    }
  }
  return out;
}

const PairVerdict* glibc_reference_pair(std::span<const PairVerdict> verdicts) {
  const PairVerdict* best = nullptr;
  auto wa_rank = [](const std::string& k) { return k == "stosb" ? 0 : k == "memset" ? 1 : 2; };
  for (const PairVerdict& v : verdicts) {
    if (v.source != "measured") continue;
    // Clearing writes zeros: prefer the zero fill, then stosb, then the widest NT kernel.
    auto rank = [&](const PairVerdict& x) {
      return std::make_tuple(x.fill != "zero", wa_rank(x.wa_kernel), vector_width_rank(x.nt_kernel));
    };
    if (!best || rank(v) < rank(*best)) best = &v;
  }
  return best;
}

}  // namespace bwlab
