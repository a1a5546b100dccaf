// SPDX-License-Identifier: MIT
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/insight/compare.hpp"
#include "core/insight/load.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

// A regression is neither a failure (1) nor bad input (2): a CI job can tell them apart.
constexpr int kExitRegression = 3;

int compare_command(const CompareArgs& o) {
  bwlab::CompareOptions co;
  co.tolerance_pct = parse_percent(o.tolerance, "--tolerance");
  const LoadedPoints base = load_points(o.base);
  const LoadedPoints now = load_points(o.now);
  for (const auto* f : {&base, &now})
    if (f->kind == PointFileKind::fleet_csv)
      throw InputError(fmt::format("{} is a fleet CSV: compare takes one run per file (a bwlab CSV or JSON)",
                                   f == &base ? o.base : o.now));
  // An interrupted run's missing points show as "only in BASE": say why, before the table.
  for (const auto& [f, name] : {std::pair{&base, o.base}, std::pair{&now, o.now}})
    if (const std::string w = partial_run_warning(*f, name); !w.empty())
      fmt::print(stderr, "warning: {}; points it did not finish are not compared\n", w);
  const Comparison c = compare_points(base.points, now.points, co);
  print_comparison(std::cout, c, co);
  return c.regressions > 0 ? kExitRegression : 0;
}

namespace {

constexpr const char* kCompareFooter = R"(
Example (a CI job):
  bwlab compare base.csv new.csv --tolerance 5%

Points are matched by source, scenario, kernel, fill, threads, placement, membind, pages and size
(not by host; nor by window: a "warning: windows differ" line names both --durations; a JSON run
marked partial by an interrupt gets a warning too); a file of
one source against one of another (measured vs simulated) on every parameter but the source. A point REGRESSED when its median GB/s dropped by more than the tolerance AND beyond
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
Exit codes: 0 no regression, 3 at least one point regressed (measured vs measured, or predicted vs
predicted), 1 run-time failure (with the reason), 2 unusable input (unreadable file, not a bwlab CSV/JSON, a fleet CSV, no matching points, a bad
--tolerance: above 100%, or a bare fraction such as 0.05, which would be 0.05%: "did you mean 5%?").
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
  sub->footer(kCompareFooter);

  return {sub, [o] { return compare_command(*o); }};
}

}  // namespace bwlab::cli
