// SPDX-License-Identifier: MIT
#include <iostream>

#include <fmt/format.h>

#include "core/sweep/parse.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

int topo_command(const TopoOptions& o) {
  const Topology topo = Topology::from_spec(o.topology);
  topo.print(std::cout);
  const auto allowed = topo.allowed_pus();
  fmt::print("allowed PUs: {}\n", format_pu_list(allowed));
  if (!topo.is_this_system()) fmt::print("(not this machine: measuring needs --topology local)\n");
  if (!o.placement.empty()) {
    const Placement p = parse_placement(o.placement);
    const auto counts = parse_threads(o.threads.empty() ? "max" : o.threads, static_cast<int>(allowed.size()));
    fmt::print("placement {}:\n", p.label());
    for (int t : counts) fmt::print("  {:>4} threads -> PUs {}\n", t, format_pu_list(plan_pus(topo, p, t)));
  }
  return 0;
}

}  // namespace bwlab::cli
