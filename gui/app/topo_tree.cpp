// SPDX-License-Identifier: MIT
#include "gui/app/topo_tree.hpp"

#include <hwloc.h>

#include <fmt/format.h>

#include "gui/plots/series.hpp"

namespace bwlab::gui {
namespace {

bool is_llc(hwloc_obj_t o) {
  if (!hwloc_obj_type_is_cache(o->type) || hwloc_obj_type_is_icache(o->type)) return false;
  // The last level: no data/unified cache above it.
  for (hwloc_obj_t p = o->parent; p; p = p->parent)
    if (hwloc_obj_type_is_dcache(p->type)) return false;
  return true;
}

// Puts `kids` (the drawable children of `o`) into `into`, inside a NUMA box when `o` holds
// NUMA nodes as memory children (hwloc 2 attaches them there).
// `sizes`: whether the nodes' memory sizes are real (hwloc gives a synthetic topology's nodes a
// placeholder size, which is not shown).
void add_children(hwloc_obj_t o, std::vector<TopoNode> kids, std::vector<TopoNode>& into, bool sizes) {
  std::string numa_label;
  for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling)
    if (m->type == HWLOC_OBJ_NUMANODE)
      numa_label += fmt::format("{}NUMA node {}{}", numa_label.empty() ? "" : ", ", m->os_index,
                                sizes ? " (" + size_text(double(m->attr->numanode.local_memory)) + ")" : "");
  if (numa_label.empty()) {
    for (auto& k : kids) into.push_back(std::move(k));
    return;
  }
  TopoNode box;
  box.kind = TopoNode::Kind::numa;
  box.label = numa_label;
  box.children = std::move(kids);
  into.push_back(std::move(box));
}

// Appends the drawable nodes under `o` to `out` (objects we do not draw are flattened away).
void collect(hwloc_topology_t t, hwloc_obj_t o, std::vector<TopoNode>& out, bool sizes) {
  TopoNode node;
  bool keep = true;
  switch (o->type) {
    case HWLOC_OBJ_PACKAGE:
      node.kind = TopoNode::Kind::package;
      node.label = fmt::format("Package L#{}", o->logical_index);
      break;
    case HWLOC_OBJ_CORE:
      node.kind = TopoNode::Kind::core;
      node.label = fmt::format("Core L#{}", o->logical_index);
      break;
    case HWLOC_OBJ_PU:
      node.kind = TopoNode::Kind::pu;
      node.os_index = static_cast<int>(o->os_index);
      node.label = fmt::format("PU P#{}", o->os_index);
      break;
    default:
      if (is_llc(o)) {
        node.kind = TopoNode::Kind::llc;
        node.label = fmt::format("L{} {}", o->attr->cache.depth, size_text(double(o->attr->cache.size)));
      } else {
        keep = false;
      }
  }
  std::vector<TopoNode>& into = keep ? node.children : out;
  std::vector<TopoNode> kids;
  for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling) collect(t, c, kids, sizes);
  add_children(o, std::move(kids), into, sizes);
  if (keep) out.push_back(std::move(node));
}

}  // namespace

TopoNode topo_tree(const Topology& topo) {
  TopoNode root;
  root.kind = TopoNode::Kind::machine;
  root.label = "Machine (" + topo.origin() + ")";
  hwloc_topology_t t = topo.raw();
  if (!t) return root;
  hwloc_obj_t top = hwloc_get_root_obj(t);
  // A synthetic description ("package:2 numa:1 core:18 pu:2") gives no memory sizes of its own.
  const std::string& origin = topo.origin();
  const bool sizes = topo.is_this_system() || (origin.size() > 4 && origin.compare(origin.size() - 4, 4, ".xml") == 0);
  std::vector<TopoNode> kids;
  for (hwloc_obj_t c = top->first_child; c; c = c->next_sibling) collect(t, c, kids, sizes);
  add_children(top, std::move(kids), root.children, sizes);
  return root;
}

TopoNode simulated_topo_tree(const MachineParams& machine, const Topology& topo) {
  TopoNode tree = topo_tree(topo);
  // Not this computer: the tab names the simulated machine, and its LLC (a synthetic topology has none).
  tree.label = fmt::format("Simulated machine {} ({}{})", machine.name, topo.origin(),
                           machine.llc_bytes_per_package
                               ? ", LLC " + size_text(double(machine.llc_bytes_per_package)) + " per package"
                               : std::string());
  return tree;
}

int count_nodes(const TopoNode& node, TopoNode::Kind kind) {
  int n = node.kind == kind ? 1 : 0;
  for (const auto& c : node.children) n += count_nodes(c, kind);
  return n;
}

}  // namespace bwlab::gui
