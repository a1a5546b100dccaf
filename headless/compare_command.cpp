// SPDX-License-Identifier: MIT
#include <iostream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/insight/compare.hpp"
#include "core/insight/load.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

int compare_command(const CompareArgs& o) {
  bwlab::CompareOptions co;
  co.tolerance_pct = parse_percent(o.tolerance, "--tolerance");
  const LoadedPoints base = load_points(o.base);
  const LoadedPoints now = load_points(o.now);
  for (const auto* f : {&base, &now})
    if (f->kind == PointFileKind::fleet_csv)
      throw InputError(fmt::format("{} is a fleet CSV: compare takes one run per file (a bwlab CSV or JSON)",
                                   f == &base ? o.base : o.now));
  const Comparison c = compare_points(base.points, now.points, co);
  print_comparison(std::cout, c, co);
  return c.regressions > 0 ? 1 : 0;
}

}  // namespace bwlab::cli
