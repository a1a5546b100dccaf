// SPDX-License-Identifier: MIT
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/insight/verdict.hpp"
#include "core/report/plural.hpp"
#include "core/report/table.hpp"
#include "core/report/units.hpp"

namespace bwlab {

namespace {

std::string pad_right(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

std::string figures(double median, double lo, double hi, double pstdev, int fewest_reps, bool predicted,
                    const VerdictOptions& o) {
  // One repetition has no spread: "[x..x] +-0.0%" read as a perfectly steady figure.
  if (!predicted && fewest_reps == 1 && lo == hi) return fmt::format("{:.2f} (1 rep)", median);
  if (!predicted) return fmt::format("{:.2f} [{:.2f}..{:.2f}] +-{:.1f}%", median, lo, hi, pstdev);
  Point p;  // the band the verdict used
  p.source = "simulated", p.gbps_median = median, p.gbps_min = lo, p.gbps_max = hi;
  const Band b = band_of(p, o);
  return fmt::format("{:.2f} [{:.2f}..{:.2f}] {}", median, b.lo, b.hi, b.default_band ? "default band" : "model band");
}

// A context field, or "unknown" where the points leave it empty (imported: not stated by the source).
std::string or_unknown(const std::string& s) { return s.empty() ? "unknown" : s; }

// Every line of `block` prefixed with `tag`.
std::string tag_lines(const std::string& block, const std::string& tag) {
  std::string out;
  std::size_t start = 0;
  while (start < block.size()) {
    const std::size_t end = block.find('\n', start);
    const std::size_t stop = end == std::string::npos ? block.size() : end;
    out += tag + block.substr(start, stop - start) + "\n";
    start = stop + 1;
  }
  return out;
}

}  // namespace

std::string no_verdict_reason(std::span<const Point> points) {
  const auto any = [&](const char* scenario) {
    return std::any_of(points.begin(), points.end(), [&](const Point& p) { return p.scenario == scenario; });
  };
  const auto all_from = [&](const char* source) {
    return !points.empty() &&
           std::all_of(points.begin(), points.end(), [&](const Point& p) { return p.source == source; });
  };
  const bool simulated = all_from("simulated"), imported = all_from("imported");
  const char* verb = simulated ? "simulate" : "measure";
  // pagefault and tlbflush rows choose no store kernel: "e.g. --kernels stosb,movnti" beside them
  // was advice those scenarios refuse.
  if (!points.empty() && std::all_of(points.begin(), points.end(), [](const Point& p) {
        return p.scenario == "pagefault" || p.scenario == "tlbflush";
      }))
    return fmt::format("{} rows measure the kernel's own work (page faults, TLB shootdowns), not a choice between "
                       "store kernels; nothing to decide (the scaling scenario compares kernels: bwlab run --kernels "
                       "stosb,movnti --sizes 4M..1G)",
                       any("pagefault") && any("tlbflush") ? "pagefault and tlbflush" : any("pagefault") ? "pagefault" : "tlbflush");
  // A mix file holds both kinds at one thread count: what it lacks is a scaling or victim row.
  if (any("mix") && !any("scaling") && !any("victim"))
    return fmt::format("mix rows are not judged: their kernels run at once, not as alternatives; nothing to decide "
                       "({} the kernels alone, e.g. --kernels stosb,movnti --sizes 4M..1G)",
                       verb);
  const std::string hint =
      any("victim") && !any("scaling")
          ? fmt::format("victim rows are judged between two victim kernels beside the same aggressors: {} e.g. "
                        "--scenario victim --victim stosb,movnti --aggressor stosb",
                        verb)
          : fmt::format("{}{} e.g. --kernels stosb,movnti --sizes 4M..1G",
                        any("mix") ? "mix rows are not judged: their kernels run at once, not as alternatives; " : "",
                        verb);
  // Another tool's figures were imported, not measured by bwlab (perf bench rows read "measured").
  return fmt::format("no write-allocate and non-temporal kernel {} at the same thread count; nothing to decide ({})",
                     simulated ? "simulated" : imported ? "in the imported figures" : "measured", hint);
}

void print_verdicts(std::ostream& out, std::span<const PairVerdict> verdicts, const VerdictOptions& o) {
  std::string s;
  if (verdicts.empty()) {
    s += "bwlab verdict: no pair of a write-allocate kernel and a non-temporal kernel measured at the same thread "
         "count; nothing to decide (measure e.g. --kernels stosb,movnti --sizes 4M..1G).\n";
    out << s;
    return;
  }
  bool any_predicted = false, all_predicted = true, victim = false;
  for (const PairVerdict& v : verdicts)
    any_predicted |= v.predicted, all_predicted &= v.predicted, victim |= v.scenario == "victim";
  const std::string gbps = gbps_meaning(victim);
  if (all_predicted)  // nothing was measured: no repetitions, no min..max to speak of
    s += fmt::format("bwlab verdict: where non-temporal stores overtake write-allocate ones. Per point: predicted "
                     "GB/s [the model's band], GB = 1e9 bytes, {}; sizes are bytes per thread.\n",
                     gbps);
  else
    s += fmt::format(
        "bwlab verdict: where non-temporal stores overtake write-allocate ones. Per point: median GB/s [min..max over "
        "repetitions] +-pstdev, GB = 1e9 bytes, {}; sizes are bytes per thread. A side is "
        "called only when the min..max ranges do not overlap; overlapping ranges with a spread above {:.0f}% are too "
        "noisy to tell.\n",
        gbps, o.max_spread_pct);
  if (any_predicted)
    s += fmt::format("Lines marked {}are the analytical model's predictions for simulated points, not measurements: a "
                     "side is called when the two medians differ by more than the model's band reaches below them and by "
                     "more than 33%, the largest per-machine log-RMS error of such ratios out of sample, which a single "
                     "point can exceed (a point without a band of "
                     "its own gets +-{:g}% around its figure); there are no repetitions.\n",
                     kPredictionTag, o.model_band_pct);
  for (const PairVerdict& v : verdicts) {
    s += "\n";
    const std::size_t block_start = s.size();
    s += fmt::format("== {} (write-allocate) vs {} ({}) ==\n", v.wa_kernel, v.nt_kernel,
                     v.nt_kernel == "clzero" ? "zeroing-without-fetch" : "non-temporal");
    // Kernels the model predicts identically at every point: one verdict for all of them (a report
    // printed identical blocks for movnti and avx512-nt, and for stosb, stosq and memset).
    std::vector<std::string> twins;
    if (!v.wa_twins.empty()) twins.push_back(fmt::format("{} as {}", fmt::join(v.wa_twins, ", "), v.wa_kernel));
    if (!v.nt_twins.empty()) twins.push_back(fmt::format("{} as {}", fmt::join(v.nt_twins, ", "), v.nt_kernel));
    if (!twins.empty())
      s += fmt::format("the model predicts {} at every point: this verdict is theirs too\n", fmt::join(twins, " and "));
    s += fmt::format("{}, host {}, cpu {}; scenario {}{}, fill {}, placement {}, membind {}, pages {}; {}{}\n",
                     v.predicted ? "simulated (model prediction, not a measurement)" : v.source, or_unknown(v.host), or_unknown(v.cpu_model), v.scenario,
                     v.aggressor.empty() ? "" : " beside " + v.aggressor + " aggressors", or_unknown(v.fill),
                     or_unknown(v.placement), or_unknown(v.membind), or_unknown(v.pages),
                     v.predicted                  ? std::string("steady state, no windows")
                     : std::isfinite(v.duration_ms) && v.duration_ms > 0 ? fmt::format("windows of {} ms", v.duration_ms)
                                                    : std::string("window unknown"),
                     v.threads_assumed ? "; threads not stated by the source (1 assumed)" : "");
    const std::string wa_head = fmt::format("{} GB/s at largest", v.wa_kernel);
    const std::string nt_head = fmt::format("{} GB/s at largest", v.nt_kernel);
    std::vector<std::vector<std::string>> table;
    table.push_back({"threads", "sizes", "reps", "crossover (NT overtakes, by medians)", "largest", "speedup", wa_head, nt_head,
                     "standing"});
    for (const ThreadsVerdict& t : v.rows) {
      std::vector<std::string> row = {fmt::format("{}", t.threads), fmt::format("{}", t.sizes.size()),
                                      t.predicted              ? std::string("model")
                                      : t.reps == t.reps_most ? fmt::format("{}", t.reps)
                                                               : fmt::format("{}..{}", t.reps, t.reps_most)};
      if (t.bare_medians) {
        // Figures without a spread to judge them by (single-run imports): shown, and where their
        // medians cross, but not called.
        const auto bare = [&](double median) {
          return fmt::format("{:.2f} ({})", median, t.reps == 1 ? "1 rep" : "no spread");
        };
        row.insert(row.end(), {t.crossover == CrossoverKind::not_computed ? "-" : crossover_text(t),
                               format_bytes(t.largest), signed_pct(t.speedup_pct), bare(t.wa_median),
                               bare(t.nt_median), fmt::format("cannot judge: {}", t.problem)});
      } else if (t.crossover == CrossoverKind::not_computed) {
        row.insert(row.end(), {"-", "-", "-", "-", "-", fmt::format("cannot judge: {}", t.problem)});
      } else {
        row.push_back(crossover_text(t));
        row.push_back(format_bytes(t.largest));
        row.push_back(signed_pct(t.speedup_pct));
        // Where the row's points differ in repetitions (--reps auto), each figure says its own: the
        // reps column's fewest read as the count behind the figures at the largest size.
        const auto reps_of = [&](int n) {
          return t.predicted || t.reps == t.reps_most || n < 2 ? std::string() : fmt::format(" ({} reps)", n);
        };
        row.push_back(figures(t.wa_median, t.wa_min, t.wa_max, t.wa_pstdev_pct, t.wa_reps, t.predicted, o) +
                      (t.pstdev_bound ? " bound" : "") + reps_of(t.wa_reps));
        row.push_back(figures(t.nt_median, t.nt_min, t.nt_max, t.nt_pstdev_pct, t.nt_reps, t.predicted, o) +
                      (t.pstdev_bound ? " bound" : "") + reps_of(t.nt_reps));
        std::string st = t.standing == Standing::unusable ? fmt::format("cannot judge: {}", t.problem)
                                                          : std::string(standing_text(t.standing, t.predicted));
        if (t.largest_disturbed) st += ", windows disturbed";
        row.push_back(st);
      }
      table.push_back(std::move(row));
    }
    std::vector<std::size_t> width(table[0].size(), 0);
    for (const auto& row : table)
      for (std::size_t i = 0; i + 1 < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    for (const auto& row : table) {
      std::string line;
      for (std::size_t i = 0; i < row.size(); ++i)
        line += (i ? "  " : "") + (i + 1 < row.size() ? pad_right(row[i], width[i]) : row[i]);
      s += line + "\n";
    }
    if (std::any_of(v.rows.begin(), v.rows.end(), [](const ThreadsVerdict& t) { return t.pstdev_bound; }))
      s += "The imported figures give a mean, a +-% and their repetitions n but no min..max: the range shown "
           "(\"bound\") holds every repetition, mean +- (n-1) x that % (Samuelson's inequality: no value of n lies "
           "more than sqrt(n-1) population standard deviations from their mean; the (n-1) covers a +-% that is perf "
           "stat's standard error of the mean too), and sides are called where those bounds are apart.\n";
    if (!v.by_size.empty()) {
      s += fmt::format("Thread-count crossover (per size: where the winner changes as more threads clear at once):\n");
      for (const ThreadCrossover& c : v.by_size)
        s += fmt::format("  {}: {}\n", format_bytes(c.size), thread_crossover_text(c, v.wa_kernel, v.nt_kernel));
    }
    // A call from in-cache rows only says so before its reasoning: "NT slow ... keep the cacheable
    // stosb for large clears" from 16 MiB rows on a 32 MiB LLC was undone only by a note below.
    const bool in_cache_only = call_from_cache_only(v, o);
    // Its reasoning then keeps to those clears: it ended "keep the cacheable stosb for large clears".
    std::string reasoning = v.reasoning;
    if (in_cache_only)
      for (std::size_t at; (at = reasoning.find(" for large clears")) != std::string::npos;)
        reasoning.replace(at, 17, " for clears that stay in the cache");
    s += fmt::format("{}: {}{}. {}\n", v.predicted ? "Predicted recommendation" : "Recommendation",
                     recommendation_label(v, o),
                     !in_cache_only ? std::string()
                     : v.predicted  ? std::string(": the model keeps every judged row's buffers in the machine's "
                                                  "last-level cache (their flags say so), so this is not the "
                                                  "large-clear call its flag names")
                    : same_machine(v.host, v.cpu_model, o.this_host, o.this_cpu)
                        ? fmt::format(": every row judged fits in {} last-level cache (see the note below), so this "
                                      "is not the large-clear call its flag names",
                                      o.llc_whose)
                        : fmt::format(": every row judged fits in {}'s last-level cache ({}{}, as its run recorded "
                                      "it), so this is not the large-clear call its flag names",
                                      v.host, llc_judging(v, o).second > 1 ? fmt::format("{} x ", llc_judging(v, o).second) : "",
                                      format_bytes(llc_judging(v, o).first)),
                     reasoning);
    // Points measured while a thread lost CPU time (a shared host): the ranges rule cannot see
    // that their figures may be low; the call read as sure as a quiet run's.
    std::vector<std::string> disturbed;
    int disturbed_points = 0, rejecting = 0;
    for (const ThreadsVerdict& t : v.rows)
      if (t.disturbed > 0)
        disturbed.push_back(fmt::format("{}T", t.threads)), disturbed_points += t.disturbed,
            rejecting += t.disturbed_rejecting;
    // A run that had --reject-noisy on was told to rerun with it: its fresh windows were disturbed too.
    if (!disturbed.empty())
      s += fmt::format("Caution: {} of these rows ({}) {} measured in windows the run flagged as disturbed (a thread "
                       "lost CPU time or was held up: a shared or virtual host), so {} may be low and the call "
                       "less sure than its ranges say; {} before relying on it.\n",
                       count_of(disturbed_points, "point"),
                       fmt::join(disturbed, ", "), disturbed_points == 1 ? "was" : "were",
                       disturbed_points == 1 ? "its figure" : "their figures",
                       rejecting == disturbed_points
                           ? "the run had --reject-noisy on and its fresh windows were disturbed too: measure again "
                             "on a quieter machine or at a quieter hour"
                       // run refuses --reject-noisy outside the scaling scenario: it was advised for victim rows
                       : v.scenario != "scaling"
                           ? fmt::format("measure again on a quieter machine or at a quieter hour, with more --reps "
                                         "(--reject-noisy is for --scenario scaling; a {} run keeps every window)",
                                         v.scenario)
                       : any_reps_auto(v)
                               ? "rerun with --reject-noisy (and a higher --max-reps)"
                               : "rerun with --reject-noisy (and more --reps)");
    if (v.predicted) s.replace(block_start, std::string::npos, tag_lines(s.substr(block_start), kPredictionTag));
  }
  // One run printed "this CPU is NT slow (MOVNT_SLOW)" for movnti and "this CPU is NT good
  // (X86_FEATURE_NT_GOOD)" for avx512-nt, blocks apart: said together, the two calls are one
  // finding (the NT instruction decides), not a contradiction.
  using Key = std::tuple<const std::string&, const std::string&, const std::string&, const std::string&,
                         const std::string&, const std::string&, const std::string&, const std::string&,
                         const std::string&>;
  std::map<Key, std::vector<const PairVerdict*>> by_context;
  for (const PairVerdict& v : verdicts)
    if (v.recommendation == Recommendation::nt_good || v.recommendation == Recommendation::nt_slow)
      by_context[std::tie(v.source, v.host, v.scenario, v.aggressor, v.fill, v.placement, v.membind, v.pages,
                          v.wa_kernel)]
          .push_back(&v);
  for (const auto& [context, vs] : by_context) {
    const bool good = std::any_of(vs.begin(), vs.end(), [](const PairVerdict* v) { return v->recommendation == Recommendation::nt_good; });
    const bool slow = std::any_of(vs.begin(), vs.end(), [](const PairVerdict* v) { return v->recommendation == Recommendation::nt_slow; });
    if (!good || !slow) continue;
    std::vector<std::string> calls;
    for (const PairVerdict* v : vs) calls.push_back(fmt::format("{}: {}", v->nt_kernel, to_string(v->recommendation)));
    s += fmt::format("\n{}note: against {} the non-temporal kernels disagree ({}): on this {} the NT instruction "
                     "decides, so one flag for the CPU (MOVNT_SLOW or X86_FEATURE_NT_GOOD) does not fit; judge the "
                     "instruction the clearing code would use.\n",
                     vs.front()->predicted ? kPredictionTag : "", vs.front()->wa_kernel, fmt::join(calls, "; "),
                     vs.front()->predicted ? "machine (predicted)" : "host");
  }
  out << s;
}

bool same_machine(std::string_view host, std::string_view cpu, std::string_view this_host, std::string_view this_cpu) {
  return host == this_host && (cpu.empty() || this_cpu.empty() || cpu == this_cpu);
}

std::pair<std::uint64_t, int> llc_judging(const PairVerdict& v, const VerdictOptions& o) {
  if (same_machine(v.host, v.cpu_model, o.this_host, o.this_cpu)) return {o.llc_bytes, o.llc_count};
  if (const auto it = o.recorded_llc.find(v.host); it != o.recorded_llc.end())
    return {it->second.first, std::max(1, it->second.second)};
  return {0, 1};
}

bool call_from_cache_only(const PairVerdict& v, const VerdictOptions& o) {
  if (v.recommendation != Recommendation::nt_good && v.recommendation != Recommendation::nt_slow) return false;
  const auto judged = [](const ThreadsVerdict& t) {
    return t.standing == Standing::nt_ahead || t.standing == Standing::nt_behind || t.standing == Standing::tie;
  };
  // Predictions: the model says which buffers it keeps in the LLC (a simulated file's 1 MiB rows on a
  // 35.75 MiB LLC read "keep the cacheable stosb for large clears").
  if (v.predicted)
    return std::all_of(v.rows.begin(), v.rows.end(), [&](const ThreadsVerdict& t) { return !judged(t) || t.largest_in_llc; });
  const auto [bytes, count] = llc_judging(v, o);
  if (bytes == 0) return false;
  return std::all_of(v.rows.begin(), v.rows.end(),
                     [&, count = count, bytes = bytes](const ThreadsVerdict& t) { return !judged(t) || fits_in_llc(t, bytes, count); });
}

std::string recommendation_label(const PairVerdict& v, const VerdictOptions& o) {
  // "no difference" alone overstated a level: Zen 4's prediction with NT +8% to +47% read as two
  // equal kernels. It is level within what the figures can tell.
  if (v.recommendation == Recommendation::no_difference)
    return v.predicted ? "no difference within the model's uncertainty" : "no difference beyond the noise";
  return std::string(to_string(v.recommendation)) + (call_from_cache_only(v, o) ? ", for clears that fit in the cache only" : "");
}

std::uint64_t llc_reach(std::uint64_t llc_bytes, int llc_count, int threads) {
  return llc_bytes * static_cast<std::uint64_t>(std::max(1, std::min(threads, llc_count)));
}

bool fits_in_llc(const ThreadsVerdict& t, std::uint64_t llc_bytes, int llc_count) {
  // A row without a call (its figures shown for lack of a spread) says nothing of the cache.
  return !t.bare_medians && t.crossover != CrossoverKind::not_computed && t.largest > 0 &&
         t.largest * static_cast<std::uint64_t>(t.threads) <= llc_reach(llc_bytes, llc_count, t.threads);
}

VerdictOptions judged_by_llc_of(VerdictOptions o, const std::string& host, std::uint64_t llc_bytes, int llc_count) {
  o.llc_bytes = llc_bytes, o.llc_count = std::max(1, llc_count), o.this_host = host;
  o.llc_whose = host + "'s";
  o.this_cpu.clear();  // that host's points: its name decides (this_cpu is this machine's)
  return o;
}

std::string llc_phrase(std::uint64_t llc_bytes, int llc_count) {
  return llc_count > 1 ? fmt::format("last-level caches ({} x {}, one per thread at most, as the CPU reports them)",
                                     llc_count, format_bytes(llc_bytes))
                       : fmt::format("last-level cache ({}, as the CPU reports it)", format_bytes(llc_bytes));
}

namespace {

// The rows whose largest judged size, times the thread count, fits in the LLCs those threads reach: their thread
// counts ("1T, 2T and 4T"; empty when none fits), that largest size and the fewest threads among
// them. `take` picks the verdicts.
struct ResidentRows {
  std::string at;
  std::uint64_t largest = 0;
  int fewest = 1;
};
template <class Take>
ResidentRows llc_resident_rows(std::span<const PairVerdict> verdicts, std::uint64_t llc_bytes, int llc_count,
                               Take take) {
  std::set<int> threads;
  ResidentRows r;
  for (const PairVerdict& v : verdicts) {
    if (!take(v)) continue;
    for (const ThreadsVerdict& t : v.rows)
      if (fits_in_llc(t, llc_bytes, llc_count)) {
        threads.insert(t.threads);
        r.largest = std::max(r.largest, t.largest);
      }
  }
  std::size_t i = 0;
  for (int t : threads) {
    r.at += fmt::format("{}{}T", i == 0 ? "" : i + 1 == threads.size() ? " and " : ", ", t);
    ++i;
  }
  if (!threads.empty()) r.fewest = *threads.begin();
  return r;
}

}  // namespace

std::string llc_resident_note(std::span<const PairVerdict> verdicts, std::uint64_t llc_bytes,
                              const std::string& this_host, int llc_count, std::string_view whose,
                              std::string_view this_cpu) {
  if (llc_bytes == 0) return {};
  const auto [at, largest, fewest] = llc_resident_rows(verdicts, llc_bytes, llc_count, [&](const PairVerdict& v) {
    return !v.predicted && same_machine(v.host, v.cpu_model, this_host, this_cpu);
  });
  if (at.empty()) return {};
  return fmt::format("note: at {} the largest size judged ({} per thread) and its threads' buffers together fit in "
                     "{} {}: those rows judge clears that can "
                     "stay in the cache, not the DRAM-bound large clears MOVNT_SLOW and NT_GOOD are about; measure "
                     "sizes above {} per thread for those.\n",
                     at, format_bytes(largest), whose, llc_phrase(llc_bytes, llc_count),
                     format_bytes(llc_reach(llc_bytes, llc_count, fewest) / static_cast<std::uint64_t>(fewest)));
}

std::string predicted_llc_resident_note(std::span<const PairVerdict> verdicts, std::uint64_t llc_bytes,
                                        const std::string& machine) {
  if (llc_bytes == 0) return {};
  const auto [at, largest, fewest] =
      llc_resident_rows(verdicts, llc_bytes, 1, [](const PairVerdict& v) { return v.predicted; });
  if (at.empty()) return {};
  return tag_lines(
      fmt::format("note: at {} the largest size judged ({} per thread) and its threads' buffers together fit in "
                  "machine {}'s last-level caches ({} in all): the model predicts clears of a buffer that stays "
                  "in the cache from pass to pass, not of fresh pages (a page being cleared for the first time, "
                  "a huge page too, comes from DRAM), which MOVNT_SLOW and NT_GOOD are about; judge sizes above "
                  "{} per thread for those.\n",
                  at, format_bytes(largest), machine, format_bytes(llc_bytes),
                  format_bytes(llc_bytes / static_cast<std::uint64_t>(fewest))),
      kPredictionTag);
}

}  // namespace bwlab
