// SPDX-License-Identifier: MIT
#include "gui/plots/placement_marks.hpp"

#include <limits>
#include <set>

#include <fmt/format.h>

namespace bwlab::gui {

std::vector<Ceiling> placement_marks(const std::vector<Point>& points, const Topology& topology,
                                     const std::string& scenario) {
  if (scenario != "scaling" && scenario != "victim") return {};  // a mix part's threads are not the machine's
  const bool victim = scenario == "victim";
  constexpr int kNone = std::numeric_limits<int>::max();
  int second_package = kNone, siblings = kNone;
  for (const Point& p : points) {
    if (p.scenario != scenario || (victim && p.peer_threads < 0)) continue;
    const int x = victim ? p.peer_threads : p.threads;  // the plot's x: a victim plot's is k
    const std::vector<int>& pus = p.pus.empty() ? p.pus_planned : p.pus;
    std::set<int> packages;
    bool sibling = false;
    for (int os : pus) {
      const Topology::Pu* pu = topology.find_pu(os);
      if (!pu) return {};  // not this topology's PUs: say nothing rather than guess
      packages.insert(pu->package);
      sibling = sibling || pu->smt_rank > 0;
    }
    if (packages.size() > 1) second_package = std::min(second_package, x);
    if (sibling) siblings = std::min(siblings, x);
  }
  const auto at = [&](int x) { return victim ? fmt::format("k = {}", x) : fmt::format("{}T", x); };
  std::vector<Ceiling> marks;
  if (second_package != kNone)
    marks.push_back({Ceiling::Axis::threads, double(second_package), fmt::format("first point on socket 2: {}", at(second_package))});
  if (siblings != kNone)
    marks.push_back({Ceiling::Axis::threads, double(siblings), fmt::format("first point with SMT siblings: {}", at(siblings))});
  return marks;
}

}  // namespace bwlab::gui
