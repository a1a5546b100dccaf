// SPDX-License-Identifier: MIT
#include <iostream>
#include <vector>

#include <fmt/format.h>

#include "core/sweep/parse.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

int topo_command(const TopoOptions& o) {
  const Topology topo = Topology::from_spec(o.topology);
  const auto allowed = topo.allowed_pus();
  // Bad --placement/--threads are refused before anything is printed.
  Placement p;
  std::vector<std::vector<int>> plans;  // one per thread count
  if (!o.placement.empty()) {
    p = parse_placement(o.placement);
    for (int t : parse_threads(o.threads.empty() ? "max" : o.threads, static_cast<int>(allowed.size())))
      plans.push_back(plan_pus(topo, p, t));
  }
  topo.print(std::cout);
  fmt::print("allowed PUs: {}\n", format_pu_list(allowed));
  if (!topo.is_this_system()) fmt::print("(not this machine: measuring needs --topology local)\n");
  if (!o.placement.empty()) {
    fmt::print("placement {}:\n", p.label());
    for (const auto& pus : plans) fmt::print("  {:>4} threads -> PUs {}\n", pus.size(), format_pu_list(pus));
  }
  return 0;
}

}  // namespace bwlab::cli
