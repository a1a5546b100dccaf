// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include "core/model/machine.hpp"
#include "core/topology/topology.hpp"

namespace bwlab::gui {

// A topology reduced to what the topology view draws: machine, packages, NUMA nodes, LLC
// groups, cores and PUs. Plain data, built from hwloc, copied to the UI thread.
struct TopoNode {
  enum class Kind { machine, package, numa, llc, core, pu };
  Kind kind = Kind::machine;
  std::string label;  // "Package L#0", "NUMA node 0 (23 GiB)", "L3 32 MiB", "Core L#1", "PU P#3"
  int os_index = -1;  // PUs only
  std::vector<TopoNode> children;
};

TopoNode topo_tree(const Topology& topo);
// The tree of a machine the model simulates on `topo`, its top box naming it and its LLC:
// "Simulated machine skylake-x-8270cl (package:2 numa:1 core:26 pu:2, LLC 35.75 MiB per package)".
TopoNode simulated_topo_tree(const MachineParams& machine, const Topology& topo);

// Number of nodes of `kind` in the tree.
int count_nodes(const TopoNode& node, TopoNode::Kind kind);

}  // namespace bwlab::gui
