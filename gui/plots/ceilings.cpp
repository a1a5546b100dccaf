// SPDX-License-Identifier: MIT
#include "gui/plots/ceilings.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/topology/topology.hpp"
#include "gui/plots/series.hpp"

namespace bwlab::gui {

std::vector<Ceiling> machine_ceilings(const MachineParams& m, int threads) {
  int nodes = 1, packages = 1;
  try {
    const Topology t = Topology::from_spec(machine_topology(m));
    nodes = std::max(1, t.numa_nodes());
    packages = std::max(1, t.packages());
  } catch (const std::exception&) {
    // An unreadable topology: one node, one package (no sum, no link line).
  }
  std::vector<Ceiling> out;
  out.push_back({Ceiling::Axis::y, m.dram_peak_gbps_per_node,
                 fmt::format("DRAM peak per node {:.1f} GB/s", m.dram_peak_gbps_per_node)});
  if (nodes > 1)
    out.push_back({Ceiling::Axis::y, m.dram_peak_gbps_per_node * nodes,
                   fmt::format("DRAM peak, {} nodes {:.1f} GB/s", nodes, m.dram_peak_gbps_per_node * nodes)});
  if (packages > 1)
    out.push_back({Ceiling::Axis::y, m.link_gbps, fmt::format("inter-socket link {:.1f} GB/s", m.link_gbps)});
  if (m.llc_bytes_per_package > 0) {
    const double llc = double(m.llc_bytes_per_package);
    out.push_back({Ceiling::Axis::x, llc, "LLC " + size_text(llc)});
    if (threads > 1) {
      const int per_package = (threads + packages - 1) / packages;
      const double share = llc * m.llc_usable_fraction / per_package;
      out.push_back({Ceiling::Axis::x, share,
                     fmt::format("LLC share per thread ({}T) {}", threads, size_text(share))});
    }
  }
  return out;
}

std::vector<Ceiling> machine_ceilings(const std::string& preset_or_path, int threads) {
  return machine_ceilings(*load_machine(preset_or_path), threads);
}

}  // namespace bwlab::gui
