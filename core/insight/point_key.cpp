// SPDX-License-Identifier: MIT
#include "core/insight/point_key.hpp"

#include <fmt/format.h>

#include "core/report/table.hpp"

namespace bwlab {

std::string point_key(const Point& p) {
  // '\x1f' (unit separator) cannot appear in any of these fields as bwlab writes them.
  return fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}", p.source, p.scenario, p.kernel, p.fill,
                     p.threads, p.placement, p.membind, p.pages, p.size_bytes);
}

std::string point_label(const Point& p) {
  return fmt::format("{} {} {}T {} [{} {} {} {} {}]", p.kernel, format_bytes(p.size_bytes), p.threads, p.fill,
                     p.source, p.scenario, p.placement, p.membind, p.pages);
}

}  // namespace bwlab
