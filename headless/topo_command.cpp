// SPDX-License-Identifier: MIT
#include <algorithm>
#include <iostream>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/model/solver.hpp"
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
  // --threads alone asks where threads go too: by run's default placement (it was ignored, exit 0).
  const std::string placement = o.placement.empty() && !o.threads.empty() ? "compact" : o.placement;
  if (!placement.empty()) {
    p = parse_placement(placement);
    // A PU list bounds the threads by its length ("max" was the topology's PUs).
    const bool pu_list = p.kind == Placement::Kind::list;
    for (int t : parse_threads(o.threads.empty() ? "max" : o.threads,
                               static_cast<int>(pu_list ? std::min(p.list.size(), allowed.size()) : allowed.size()), {},
                               pu_list                 ? fmt::format("placement {}", p.label())
                               : topo.is_this_system() ? std::string()
                                                       : "the topology " + topo.origin()))
      plans.push_back(plan_pus(topo, p, t));
  }
  topo.print(std::cout);
  fmt::print("allowed PUs: {}\n", format_pu_list(allowed));
  if (!topo.is_this_system()) fmt::print("(not this machine: measuring needs --topology local)\n");
  // hwloc puts one NUMA node above every package of a synthetic string without a numa level: shown
  // as hwloc builds it, but the simulator refuses it (exit 2); said here, before a simulate fails.
  try {
    model::check_nodes_within_packages(topo);
  } catch (const InputError& e) {
    fmt::print("note: bwlab simulate refuses this topology: {}\n", e.what());
  }
  if (!placement.empty()) {
    fmt::print("placement {}{}:\n", p.label(), o.placement.empty() ? " (run's default; --placement to choose)" : "");
    for (const auto& pus : plans) fmt::print("  {:>4} threads -> PUs {}\n", pus.size(), format_pu_list(pus));
  }
  return 0;
}


Command add_topo_command(CLI::App& app) {
  auto o = std::make_shared<TopoOptions>();
  CLI::App* sub = app.add_subcommand("topo", "show a topology (this machine, an hwloc XML file or a synthetic one)");
  sub->add_option("--topology", o->topology,
                       "local, a file.xml written by lstopo, or a synthetic string such as 'package:2 numa:1 core:26 pu:2'")
      ->capture_default_str();
  sub->add_option("-p,--placement", o->placement, "also show where threads go: compact, scatter, a PU list, or none (unbound: the "
                  "scatter order, where the OS is expected to put busy threads)");
  sub->add_option("-t,--threads", o->threads, "thread counts for --placement (default max: the PUs, or the length of a PU list; without --placement: compact, run's default)");
  sub->footer(
      "\nExamples:\n  bwlab topo\n  bwlab topo --topology 'package:2 numa:1 core:4 pu:2' --placement scatter --threads 1..16\n");

  return {sub, [o] { return topo_command(*o); }};
}

}  // namespace bwlab::cli
