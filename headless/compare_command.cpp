// SPDX-License-Identifier: MIT
#include <algorithm>
#include <iostream>
#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <vector>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/insight/compare.hpp"
#include "core/insight/load.hpp"
#include "core/insight/usable_median.hpp"
#include "core/model/validate.hpp"
#include "core/report/plural.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

// A regression is neither a failure (1) nor bad input (2): a CI job can tell them apart.
constexpr int kExitRegression = 3;
// NEW lacks points of BASE, with --require-all: not a regression (nothing was measured lower).
constexpr int kExitMissing = 4;

namespace {

// "4 points (measured), host vm, run 2026-12-02T16:20:11Z": what a file holds, for the log.
std::string describe_file(const LoadedPoints& f) {
  std::set<std::string> sources, hosts;
  std::set<double> windows;  // ms, measured points only (the rows say each point's repetitions)
  for (const Point& p : f.points) {
    sources.insert(p.source), hosts.insert(p.host.empty() ? "?" : p.host);
    if (p.source == "measured" && std::isfinite(p.duration_ms) && p.duration_ms > 0) windows.insert(p.duration_ms);
  }
  // The window was said only in a "windows differ" warning; an imported file's date is when it was
  // imported, not when its figures were measured ("run" read as the measurement's).
  const std::string window = windows.empty() ? std::string()
                             : windows.size() == 1
                                 ? fmt::format(", windows of {:g} ms", *windows.begin())
                                 : fmt::format(", windows of {:g}..{:g} ms", *windows.begin(), *windows.rbegin());
  const bool imported = sources.size() == 1 && *sources.begin() == "imported";
  return fmt::format("{} ({}), host {}{}{}", count_of(f.points.size(), "point"), fmt::join(sources, ", "),
                     fmt::join(hosts, ", "), window,
                     f.run && !f.run->date.empty() ? (imported ? ", imported " : ", run ") + f.run->date : std::string());
}

// Every point matched and each with the same median, min and max: the same figures twice.
// Every point the same figures, both sides of `source` ("measured" or "simulated").
// A measured run and its own export imported back (bwlab export, import gbench) are the same
// figures too, to a rounding: they passed as "+0.0% within tolerance" at every row.
bool identical_figures(const Comparison& c, const std::string& source) {
  if (c.matched.empty() || !c.only_base.empty() || !c.only_new.empty()) return false;
  const auto of_source = [&](const Point& p) {
    return p.source == source || (source == "measured" && p.source == "imported");
  };
  const auto same = [](double a, double b) { return a == b || std::abs(a - b) <= 1e-6 * std::max(std::abs(a), std::abs(b)); };
  return std::all_of(c.matched.begin(), c.matched.end(), [&](const ComparedPoint& m) {
    return of_source(m.base) && of_source(m.now) && same(m.base.gbps_median, m.now.gbps_median) &&
           same(m.base.gbps_min, m.now.gbps_min) && same(m.base.gbps_max, m.now.gbps_max);
  });
}

// What differs between two JSON runs' systems besides the host (the note on hosts is core's):
// "CPU AMD 25/17/1 -> GenuineIntel 6/207/2, microcode 0xa101144 -> 0xa101148"; empty when nothing
// does or a file is a CSV (which carries no system). A field one run does not record (an imported
// file's run: no CPUID, kernel or glibc) is unknown there, not changed.
std::string system_changes(const LoadedPoints& base, const LoadedPoints& now) {
  if (!base.run || !now.run) return {};
  const RunInfo &a = *base.run, &b = *now.run;
  // A prediction ran on no system (host "model:<machine>"): its empty CPU, kernel and glibc read
  // as "CPU AuthenticAMD 25/17/1 -> 0/0/0 ()"; the comparison already says measured vs predicted.
  if (a.host.rfind("model:", 0) == 0 || b.host.rfind("model:", 0) == 0) return {};
  std::vector<std::string> out;
  auto cpu = [](const RunInfo& r) {
    return fmt::format("{} {}/{}/{}", r.cpu_vendor, r.cpu_family, r.cpu_model, r.cpu_stepping);
  };
  const auto cpuid_known = [](const RunInfo& r) { return !r.cpu_vendor.empty() || r.cpu_family != 0; };
  if (cpuid_known(a) && cpuid_known(b) && (cpu(a) != cpu(b) || a.cpu_model_name != b.cpu_model_name))
    out.push_back(fmt::format("CPU {} ({}) -> {} ({})", cpu(a), a.cpu_model_name, cpu(b), b.cpu_model_name));
  else if (!a.cpu_model_name.empty() && !b.cpu_model_name.empty() && a.cpu_model_name != b.cpu_model_name)
    out.push_back(fmt::format("CPU {} -> {}", a.cpu_model_name, b.cpu_model_name));
  for (const auto& [what, x, y] : {std::tuple{"microcode", &a.microcode, &b.microcode},
                                   std::tuple{"kernel", &a.kernel_release, &b.kernel_release},
                                   std::tuple{"glibc", &a.glibc_version, &b.glibc_version},
                                   std::tuple{"THP", &a.thp, &b.thp},
                                   std::tuple{"bwlab", &a.bwlab_version, &b.bwlab_version}})
    if (*x != *y && !x->empty() && !y->empty()) out.push_back(fmt::format("{} {} -> {}", what, *x, *y));
  return out.empty() ? std::string() : fmt::format("{}", fmt::join(out, ", "));
}

// The matched points of one side its run flagged unstable or noisy (a point only one side has is
// not compared: counting it said "BASE holds 8" beside 4 matched rows).
std::size_t unstable_points(const Comparison& c, bool base) {
  return static_cast<std::size_t>(std::count_if(c.matched.begin(), c.matched.end(), [&](const ComparedPoint& cp) {
    return flagged_unsteady(base ? cp.base : cp.now);
  }));
}

}  // namespace

int compare_command(const CompareArgs& o) {
  bwlab::CompareOptions co;
  co.tolerance_pct = parse_percent(o.tolerance, "--tolerance");
  const LoadedPoints base = load_points(o.base);
  const LoadedPoints now = load_points(o.now);
  for (const auto* f : {&base, &now})
    if (f->kind == PointFileKind::fleet_csv)
      throw InputError(fmt::format("{} is a fleet CSV: compare takes one run per file (a bwlab CSV or JSON)",
                                   f == &base ? o.base : o.now));
  for (const auto& [f, name] : {std::pair{&base, o.base}, std::pair{&now, o.now}})
    if (f->points.empty())
      throw InputError(fmt::format("{} ({}) holds no points: a run interrupted before its first point?",
                                   f == &base ? "BASE" : "NEW", name));
  // A spec sheet of another vendor than the measured CPU: its gap is the machines' (it read as the
  // model's error: a cascadelake-sp sheet against an AMD guest, +473% "model vs measurement").
  for (const auto& [sim, other, other_name] : {std::tuple{&base, &now, o.now}, std::tuple{&now, &base, o.base}})
    if (co.other_cpu_note.empty())
      co.other_cpu_note =
          model::other_vendor_sheet(sim->run ? sim->run->machine : std::string(), sim->points, other->points, other_name);
  Comparison c = compare_points(base.points, now.points, co);
  // An interrupted run's missing points show as "only in BASE": said with the comparison's other
  // warnings, before the table, on stdout (on stderr, a CI job that kept stdout kept "windows
  // differ" and lost this one).
  for (const auto& [f, name] : {std::pair{&base, o.base}, std::pair{&now, o.now}})
    if (const std::string w = partial_run_warning(*f, name); !w.empty())
      c.warnings.push_back(w + "; points it did not finish are not compared");
  // Which files were compared, for a CI log with several compares.
  fmt::print("BASE {}: {}\nNEW  {}: {}\n", o.base, describe_file(base), o.now, describe_file(now));
  print_comparison(std::cout, c, co);
  if (const std::string changed = system_changes(base, now); !changed.empty())
    fmt::print(stderr, "note: the systems differ besides the points: {} (a change of the figures may come from "
                       "them)\n",
               changed);
  if (identical_figures(c, "measured"))
    fmt::print(stderr, "note: BASE and NEW hold the same figures at every point: the same run twice? (a baseline "
                       "overwritten by the new run would pass every time)\n");
  // Two predictions agree exactly when the machine and options do (the model is deterministic):
  // "+0.0% within tolerance" at every row read as two sweeps that happened to agree.
  if (identical_figures(c, "simulated"))
    fmt::print(stderr, "note: BASE and NEW predict the same figures at every point: the same machine and options "
                       "(a prediction is deterministic, so this compares nothing)\n");
  // Points their own run flagged as unstable: a change there may be the host's noise.
  for (const auto& [is_base, name] : {std::pair{true, "BASE"}, std::pair{false, "NEW"}})
    if (const auto n = unstable_points(c, is_base); n > 0)
      fmt::print(stderr, "note: {} of the {} matched points {} flagged unstable or noisy in {} (spread between "
                         "repetitions or disturbed windows, e.g. a shared or virtual host): a change there may be "
                         "noise; each point's flags say what to change (--reps, --duration, --reject-noisy, or "
                         "a quieter machine)\n",
                 n, c.matched.size(), n == 1 ? "is" : "are", name);
  if (c.regressions > 0) return kExitRegression;
  // NEW without some of BASE's points (a run cut short, a narrower sweep): a CI job that relied
  // on them would pass without checking them, so say it, and fail when asked to.
  if (!c.only_base.empty()) {
    const std::size_t of = c.matched.size() + c.only_base.size();
    if (o.require_all) {
      fmt::print(stderr, "bwlab compare: NEW lacks {} of BASE's {} (the 'only in BASE' lines): exit {} (--require-all)\n",
                 c.only_base.size(), count_of(of, "point"), kExitMissing);
      return kExitMissing;
    }
    fmt::print(stderr, "note: NEW lacks {} of BASE's {}: not compared; --require-all makes that fail (exit {})\n",
               c.only_base.size(), count_of(of, "point"), kExitMissing);
  }
  return 0;
}

namespace {

constexpr const char* kCompareFooter = R"(
Example (a CI job):
  bwlab compare base.csv new.csv --tolerance 5%

Points are matched by source, scenario, kernel, fill, threads, placement, membind, pages and size
(not by host; nor by window: a "warning: windows differ" line names both --durations; a JSON run
marked partial by an interrupt gets a warning too); a file of one source against one of another
(measured vs simulated) on every parameter but the source. A point REGRESSED when its median GB/s dropped by more than the tolerance AND beyond
the noise of both runs: NEW's fastest repetition (max) is below BASE's slowest (min), so the two
min..max ranges do not overlap. With 1 repetition a range is one value and only the tolerance
applies. Improvements are judged the same way. Simulated points (bwlab simulate) are predictions:
their rows start with "[prediction]", show the model band instead of repetitions, and they are
judged by the model's low..high band, +-10% around the figure when a point carries none: bands
apart, as ranges apart (compare sets runs of different machines side by side, which share no
errors); "within the model bands" where they overlap. `bwlab verdict` judges two predictions of
one machine by the ratio of their medians instead (its --help says how): a looser rule. A measured
point against a simulated one is never a regression: where the two are apart beyond the band the
row says NEW lower (or higher) beyond the band, model vs measurement; counted apart, exit 0.
Where the prediction names another CPU than the measurement's (a preset of another machine), or
is a spec sheet of another vendor's microarchitecture (cascadelake-sp against an AMD EPYC),
the row says "a prediction for another CPU" instead, counted apart again, and a note names both
machines: that gap is the machines', not the model's error.
Notes on stderr also say when the two JSON runs' systems differ besides the host (CPU, microcode,
kernel, glibc, THP, bwlab version), when BASE and NEW hold the same figures (the same run twice?
two predictions: the same machine) and how many of the matched points a run flagged unstable or noisy (their
rows end "[flagged: NEW]", "[flagged: BASE]" or "[flagged: BASE and NEW]"). Points of BASE that NEW lacks (a run cut short, a
narrower sweep) are listed "only in BASE" and not compared; a note counts them, and with
--require-all they fail the comparison (exit 4).
Exit codes: 0 no regression, 3 at least one point regressed (measured vs measured, or predicted vs
predicted; it wins over 4), 4 NEW lacks points of BASE (with --require-all only), 1 run-time failure
(with the reason), 2 unusable input (unreadable file, not a bwlab CSV/JSON, a fleet CSV, a file with
no points, no matching points, a bad --tolerance: above 100%, or a bare fraction such as 0.05,
which would be 0.05%: "did you mean 5%?").
)";

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto o = std::make_shared<CompareArgs>();
  CLI::App* sub = app.add_subcommand("compare", "compare two runs point by point; exit 3 on a regression (for CI)");
  sub->add_option("BASE", o->base, "the reference run (bwlab CSV or JSON)")->required();
  sub->add_option("NEW", o->now, "the run to check (bwlab CSV or JSON)")->required();
  sub->add_option("--tolerance", o->tolerance,
                  "drop of the median allowed before a point may regress, 0% to 100% (a bare number is a percentage; "
                  "below 1 it is refused as ambiguous: write 0.5% or 50%)")
      ->capture_default_str();
  sub->add_flag("--require-all", o->require_all,
                "fail (exit 4) when NEW lacks a point of BASE, as a run cut short would; without it they are "
                "listed 'only in BASE' and counted in a note");
  sub->footer(kCompareFooter);

  return {sub, [o] { return compare_command(*o); }};
}

}  // namespace bwlab::cli
