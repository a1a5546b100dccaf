// SPDX-License-Identifier: MIT
#include "core/insight/point_key.hpp"

#include <set>

#include <fmt/format.h>

#include "core/report/table.hpp"

namespace bwlab {

std::string point_key(const Point& p) {
  // '\x1f' (unit separator) cannot appear in any of these fields as bwlab writes them.
  // The scenario columns too: a victim's aggressor kernel and count, a mix's partners, tlbflush's
  // E. Without them a victim run with two aggressor kernels held "two points" per baseline, and
  // compare matched a victim beside stosb with one beside movnti.
  return fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}", p.source, p.scenario,
                     p.kernel, p.fill, p.threads, p.placement, p.membind, p.pages, p.size_bytes, p.role, p.peer_kernel,
                     p.peer_threads, p.entries);
}

std::string point_label(const Point& p) {
  std::string scenario_part;
  if (!p.peer_kernel.empty())
    scenario_part += p.peer_threads > 0 ? fmt::format(" beside {}x {}", p.peer_threads, p.peer_kernel)
                                        : fmt::format(" alone (k = 0 of {})", p.peer_kernel);
  if (p.entries >= 0) scenario_part += fmt::format(" E={}", p.entries);
  // Imported points may not state their set-up: "?" keeps the bracket's words apart ("[imported scaling   ]").
  auto said = [](const std::string& s) { return s.empty() ? std::string("?") : s; };
  return fmt::format("{} {} {}T {}{} [{} {} {} {} {}]", p.kernel, format_bytes(p.size_bytes), p.threads, said(p.fill),
                     scenario_part, said(p.source), said(p.scenario), said(p.placement), said(p.membind),
                     said(p.pages));
}

std::string repeated_point_label(std::span<const Point> points) {
  std::set<std::string> seen;
  for (const Point& p : points)
    if (!seen.insert(p.host + '\n' + point_key(p)).second) return point_label(p);
  return {};
}

}  // namespace bwlab
