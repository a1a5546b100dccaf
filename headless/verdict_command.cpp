// SPDX-License-Identifier: MIT
#include <charconv>
#include <iostream>

#include <fmt/format.h>

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

}  // namespace bwlab::cli
