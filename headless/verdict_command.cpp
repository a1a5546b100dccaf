// SPDX-License-Identifier: MIT
#include <charconv>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/insight/glibc_threshold.hpp"
#include "core/insight/load.hpp"
#include "core/insight/quirk_table.hpp"
#include "core/insight/verdict.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

double parse_percent(const std::string& text, const char* option) {
  std::string s = text;
  if (!s.empty() && s.back() == '%') s.pop_back();
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size() || !(v >= 0) || v > 1000)
    throw InputError(fmt::format("bad {} '{}': use a percentage such as 5%", option, text));
  return v;
}

void print_run_verdict(std::ostream& out, std::span<const Point> points) {
  if (!verdict_applicable(points)) return;
  const auto verdicts = compute_verdicts(points);
  if (verdicts.empty()) return;
  out << "\n";
  print_verdicts(out, verdicts);
  print_glibc_comparison(out, read_glibc_info(), verdicts, host_name());
}

int verdict_command(const VerdictArgs& o) {
  bwlab::VerdictOptions vo;
  vo.max_spread_pct = parse_percent(o.max_spread, "--max-spread");
  if (!o.by.empty() && o.by != "cpu") throw InputError(fmt::format("bad --by '{}': the only grouping is 'cpu'", o.by));
  const LoadedPoints in = load_points(o.file);
  if (in.points.empty()) throw InputError(fmt::format("{}: no points", o.file));

  if (o.by == "cpu") {
    if (in.kind == PointFileKind::csv)
      throw InputError(fmt::format("--by cpu needs the CPU identity of every point: {} is a plain bwlab CSV; give a "
                                   "fleet CSV from 'bwlab merge' or a bwlab JSON file",
                                   o.file));
    std::vector<FleetRow> rows;
    for (std::size_t i = 0; i < in.points.size(); ++i) rows.push_back(FleetRow{in.cpus[i], in.points[i]});
    const auto table = quirk_table(rows, vo);
    if (table.empty())
      throw InputError(fmt::format("{}: no host has a write-allocate and a non-temporal kernel measured at the same "
                                   "thread count; nothing to decide",
                                   o.file));
    print_quirk_table(std::cout, table, vo);
    return 0;
  }
  const auto verdicts = compute_verdicts(in.points, vo);
  if (verdicts.empty())
    throw InputError(fmt::format("{}: no write-allocate and non-temporal kernel measured at the same thread count; "
                                 "nothing to decide (measure e.g. --kernels stosb,movnti --sizes 4M..1G)",
                                 o.file));
  print_verdicts(std::cout, verdicts, vo);
  print_glibc_comparison(std::cout, read_glibc_info(), verdicts, host_name());
  return 0;
}

namespace {

constexpr const char* kVerdictFooter = R"(
Examples:
  bwlab verdict results/latest.csv
  bwlab verdict fleet.csv --by cpu

For each pair of a write-allocate kernel (stosb, stosq, memset, ...) and a non-temporal one
(movnti, movntdq, avx2-nt, avx512-nt, clzero) and each thread count: the per-thread size where
NT overtakes by medians (interpolated in log size between the measured sizes, or "none in range"),
the speedup at the largest size with both spreads, and a recommendation: NT good, NT slow,
depends on load (ahead at some thread counts only), no difference, or cannot tell. A side is
called only when the min..max ranges over repetitions do not overlap; overlapping ranges with a
pstdev above --max-spread are "too noisy to tell"; fewer than 2 sizes or 2 repetitions cannot be
judged. Then glibc's x86_non_temporal_threshold on this machine (glibc 2.36's formula and the
live value from ld.so --list-tunables) beside the measured crossover, with a GLIBC_TUNABLES line.
--by cpu (a fleet CSV from 'bwlab merge', or a JSON file) judges each host and gathers the
verdicts per CPU family/model/stepping and microcode into a quirk table.
Exit codes: 0 printed, 2 unusable input (unreadable, nothing to compare).
)";

}  // namespace

Command add_verdict_command(CLI::App& app) {
  auto o = std::make_shared<VerdictArgs>();
  CLI::App* sub =
      app.add_subcommand("verdict", "decide from a CSV/JSON where non-temporal stores overtake write-allocate ones");
  sub->add_option("FILE", o->file, "a bwlab CSV or JSON, or a fleet CSV from 'bwlab merge'")->required();
  sub->add_option("--by", o->by, "cpu: one quirk-table row per CPU model and microcode (fleet CSV or JSON)");
  sub->add_option("--max-spread", o->max_spread,
                          "overlapping ranges with a pstdev above this are too noisy to tell")
      ->capture_default_str();
  sub->footer(kVerdictFooter);

  return {sub, [o] { return verdict_command(*o); }};
}

}  // namespace bwlab::cli
