// SPDX-License-Identifier: MIT
#include "core/insight/verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "core/errors.hpp"
#include "core/insight/point_key.hpp"
#include "core/report/table.hpp"

namespace bwlab {

namespace {

bool is_write_allocate(const Point& p) { return p.traffic_class == "write-allocate"; }
bool is_nt_side(const Point& p) {
  return p.traffic_class == "non-temporal" || p.traffic_class == "zeroing-without-fetch";
}

using Context = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string, std::string,
                           std::string>;
Context context_of(const Point& p) {
  return {p.source, p.scenario, p.host, p.cpu_model, p.fill, p.placement, p.membind, p.pages};
}

// kernel -> threads -> size -> point
using Grid = std::map<std::string, std::map<int, std::map<std::uint64_t, const Point*>>>;

bool finite_point(const Point& p) {
  return std::isfinite(p.gbps_median) && std::isfinite(p.gbps_min) && std::isfinite(p.gbps_max) &&
         p.gbps_median > 0 && p.gbps_min > 0;
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
  }
  if (static_cast<int>(both.size()) < o.min_sizes) {
    t.problem = fmt::format("too few sizes: {} measured by both kernels, {} needed", both.size(), o.min_sizes);
    return t;
  }
  for (const auto& [w, n] : both)
    if (!finite_point(*w) || !finite_point(*n)) {
      t.problem = fmt::format("no usable figure at {} (missing or zero)", format_bytes(w->size_bytes));
      return t;
    }

  const Point& w = *both.back().first;
  const Point& n = *both.back().second;
  t.largest = w.size_bytes;
  t.wa_median = w.gbps_median, t.wa_min = w.gbps_min, t.wa_max = w.gbps_max, t.wa_pstdev_pct = w.gbps_pstdev_pct;
  t.nt_median = n.gbps_median, t.nt_min = n.gbps_min, t.nt_max = n.gbps_max, t.nt_pstdev_pct = n.gbps_pstdev_pct;
  t.speedup_pct = (n.gbps_median / w.gbps_median - 1) * 100;

  // Crossover by medians: the last change of sides, interpolated in log(size) x log(ratio).
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

  if (t.reps < o.min_reps) {
    t.problem = fmt::format("{} repetition{} per point: no spread to judge the noise by (use --reps 3 or more)", t.reps,
                            t.reps == 1 ? "" : "s");
    t.standing = Standing::unusable;
    return t;
  }
  if (n.gbps_min > w.gbps_max) t.standing = Standing::nt_ahead;
  else if (n.gbps_max < w.gbps_min) t.standing = Standing::nt_behind;
  else if (std::max(w.gbps_pstdev_pct, n.gbps_pstdev_pct) > o.max_spread_pct) t.standing = Standing::noisy;
  else t.standing = Standing::tie;
  return t;
}

std::string threads_list(const std::vector<const ThreadsVerdict*>& rows) {
  std::string s;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i) s += i + 1 == rows.size() ? " and " : ", ";
    s += fmt::format("{}", rows[i]->threads);
  }
  return s + (rows.size() == 1 && rows[0]->threads == 1 ? " thread" : " threads");
}

std::string speedups(const std::vector<const ThreadsVerdict*>& rows) {
  std::string s;
  for (std::size_t i = 0; i < rows.size(); ++i)
    s += fmt::format("{}{:+.1f}% at {}T", i ? ", " : "", rows[i]->speedup_pct, rows[i]->threads);
  return s;
}

std::string crossovers(const std::vector<ThreadsVerdict>& rows) {
  std::string s;
  for (const ThreadsVerdict& r : rows) {
    if (r.crossover == CrossoverKind::not_computed) continue;
    s += fmt::format("{}{}T: {}", s.empty() ? "" : "; ", r.threads, crossover_text(r));
  }
  return s;
}

void decide(PairVerdict& v, const VerdictOptions& o) {
  std::vector<const ThreadsVerdict*> ahead, behind, tie, noisy, unusable;
  for (const ThreadsVerdict& t : v.rows) {
    switch (t.standing) {
      case Standing::nt_ahead: ahead.push_back(&t); break;
      case Standing::nt_behind: behind.push_back(&t); break;
      case Standing::tie: tie.push_back(&t); break;
      case Standing::noisy: noisy.push_back(&t); break;
      case Standing::unusable: unusable.push_back(&t); break;
    }
  }
  const std::string wa = v.wa_kernel, nt = v.nt_kernel;
  std::uint64_t largest = 0;
  for (const ThreadsVerdict& t : v.rows) largest = std::max(largest, t.largest);
  std::string p;
  const bool decisive = !ahead.empty() || !behind.empty() || !tie.empty();
  if (!decisive) {
    v.recommendation = Recommendation::cannot_tell;
    p = fmt::format("The data cannot support a verdict on {} vs {}: ", nt, wa);
    std::vector<std::string> why;
    for (const ThreadsVerdict& t : v.rows) {
      if (t.standing == Standing::noisy)
        why.push_back(fmt::format("at {}T the min..max ranges at {} overlap and the spread is {:.1f}%/{:.1f}% "
                                  "(above {:.0f}%)",
                                  t.threads, format_bytes(t.largest), t.wa_pstdev_pct, t.nt_pstdev_pct,
                                  o.max_spread_pct));
      else
        why.push_back(fmt::format("at {}T {}", t.threads, t.problem));
    }
    for (std::size_t i = 0; i < why.size(); ++i) p += (i ? "; " : "") + why[i];
    p += ". Measure again with more sizes (e.g. --sizes 4M..1G), more repetitions (--reps 11) or a longer "
         "--duration, on a quieter machine.";
    v.reasoning = p;
    return;
  }
  if (!ahead.empty() && behind.empty() && tie.empty()) {
    v.recommendation = Recommendation::nt_good;
    p = fmt::format("{} beats {} beyond the noise at the largest size measured at every judged thread count "
                    "({}; its slowest repetition is faster than {}'s fastest). In the seeds' terms this CPU is "
                    "NT good (X86_FEATURE_NT_GOOD): clear with non-temporal stores above the crossover",
                    nt, wa, speedups(ahead), wa);
  } else if (!behind.empty() && ahead.empty() && tie.empty()) {
    v.recommendation = Recommendation::nt_slow;
    p = fmt::format("{} stays behind {} beyond the noise at the largest size at every judged thread count ({}). "
                    "In the seeds' terms this CPU is NT slow (MOVNT_SLOW): keep the cacheable {} for large clears",
                    nt, wa, speedups(behind), wa);
  } else if (!tie.empty() && ahead.empty() && behind.empty()) {
    v.recommendation = Recommendation::no_difference;
    p = fmt::format("{} and {} are within each other's min..max range at the largest size ({}), with spreads of at "
                    "most {:.0f}%: no measurable difference, so neither X86_FEATURE_NT_GOOD nor MOVNT_SLOW is "
                    "supported by this data",
                    nt, wa, speedups(tie), o.max_spread_pct);
  } else {
    v.recommendation = Recommendation::depends_on_load;
    std::vector<std::string> parts;
    if (!ahead.empty()) parts.push_back(fmt::format("{} is ahead at {} ({})", nt, threads_list(ahead), speedups(ahead)));
    if (!behind.empty())
      parts.push_back(fmt::format("behind at {} ({})", threads_list(behind), speedups(behind)));
    if (!tie.empty())
      parts.push_back(fmt::format("level (within the noise) at {} ({})", threads_list(tie), speedups(tie)));
    std::string joined;
    for (std::size_t i = 0; i < parts.size(); ++i) joined += (i ? ", " : "") + parts[i];
    p = fmt::format("At the largest size, {}. Which store is faster depends on how many cores clear memory at "
                    "once: depends on load, so neither flag should be set unconditionally; a kernel or libc "
                    "would need the contended case in mind (the seeds' \"trust but verify\")",
                    joined);
  }
  const std::string cx = crossovers(v.rows);
  if (!cx.empty()) p += fmt::format(". Crossover where {} overtakes {} (by medians, per-thread buffer size): {}", nt, wa, cx);
  for (const ThreadsVerdict& t : v.rows)
    if (t.sign_changes > 1 && t.crossover != CrossoverKind::not_computed)
      p += fmt::format(" ({}T changes sides {} times over the sizes; the last change is reported)", t.threads,
                       t.sign_changes);
  std::vector<std::string> left;
  for (const ThreadsVerdict* t : noisy)
    left.push_back(fmt::format("{}T is too noisy to tell (ranges overlap, spread {:.1f}%/{:.1f}%)", t->threads,
                               t->wa_pstdev_pct, t->nt_pstdev_pct));
  for (const ThreadsVerdict* t : unusable) left.push_back(fmt::format("{}T not judged: {}", t->threads, t->problem));
  if (!left.empty()) {
    p += ". Left out: ";
    for (std::size_t i = 0; i < left.size(); ++i) p += (i ? "; " : "") + left[i];
  }
  if (largest) p += fmt::format(". Largest size judged: {} per thread", format_bytes(largest));
  p += ".";
  v.reasoning = p;
}

int vector_width_rank(const std::string& kernel) {
  static const char* order[] = {"avx512-nt", "avx2-nt", "movntdq", "movnti", "clzero"};
  for (int i = 0; i < 5; ++i)
    if (kernel == order[i]) return i;
  return 5;
}

}  // namespace

const char* to_string(Standing s) {
  switch (s) {
    case Standing::nt_ahead: return "NT ahead (ranges apart)";
    case Standing::nt_behind: return "NT behind (ranges apart)";
    case Standing::tie: return "level (ranges overlap, tight spread)";
    case Standing::noisy: return "too noisy to tell";
    case Standing::unusable: return "cannot judge";
  }
  return "?";
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
  switch (t.crossover) {
    case CrossoverKind::interpolated:
      return fmt::format("~{} (between {} and {})", format_bytes(static_cast<std::uint64_t>(t.crossover_bytes + 0.5)),
                         format_bytes(t.bracket_lo), format_bytes(t.bracket_hi));
    case CrossoverKind::below_range: return fmt::format("at or below {} (NT ahead at every size)", format_bytes(t.bracket_hi));
    case CrossoverKind::none_in_range: return fmt::format("none in range (up to {})", format_bytes(t.largest));
    case CrossoverKind::not_computed: return "not computed";
  }
  return "?";
}

bool verdict_applicable(std::span<const Point> points) {
  std::set<std::uint64_t> sizes;
  bool wa = false, nt = false;
  for (const Point& p : points) {
    sizes.insert(p.size_bytes);
    wa |= is_write_allocate(p);
    nt |= is_nt_side(p);
  }
  return sizes.size() >= 2 && wa && nt;
}

std::vector<PairVerdict> compute_verdicts(std::span<const Point> points, const VerdictOptions& o) {
  std::map<Context, Grid> groups;
  std::map<Context, std::vector<std::string>> kernel_order;  // as first seen, for stable output
  std::map<Context, double> durations;
  for (const Point& p : points) {
    if (!is_write_allocate(p) && !is_nt_side(p)) continue;
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
  }
  std::vector<PairVerdict> out;
  for (const auto& [ctx, grid] : groups) {
    for (const std::string& wa : kernel_order[ctx]) {
      const Point* wa_any = grid.at(wa).begin()->second.begin()->second;
      if (!is_write_allocate(*wa_any)) continue;
      for (const std::string& nt : kernel_order[ctx]) {
        const Point* nt_any = grid.at(nt).begin()->second.begin()->second;
        if (!is_nt_side(*nt_any)) continue;
        PairVerdict v;
        std::tie(v.source, v.scenario, v.host, v.cpu_model, v.fill, v.placement, v.membind, v.pages) = ctx;
        v.duration_ms = durations[ctx];
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
