// SPDX-License-Identifier: MIT
#include "gui/plots/ceilings.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/model/machine.hpp"
#include "core/report/record.hpp"
#include "core/model/simulate.hpp"
#include "core/model/solver.hpp"
#include "core/topology/topology.hpp"
#include "gui/plots/series.hpp"

namespace bwlab::gui {

std::vector<Ceiling> machine_ceilings(const MachineParams& m, int threads) {
  int nodes = 1, packages = 1, cores = 1;
  try {
    const Topology t = Topology::from_spec(machine_topology(m));
    nodes = std::max(1, t.numa_nodes());
    packages = std::max(1, t.packages());
    cores = std::max(1, t.cores());
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
    // It bounds only traffic that crosses it: local-memory curves rightly run above it.
    out.push_back({Ceiling::Axis::y, m.link_gbps,
                   fmt::format("inter-socket link {:.1f} GB/s (remote or interleaved memory only)", m.link_gbps)});
  if (m.llc_bytes_per_package > 0) {
    const double llc = double(m.llc_bytes_per_package);
    out.push_back({Ceiling::Axis::x, llc, "LLC " + size_text(llc)});
    // AMD: a thread caches in its CCX/CCD slice; the share per thread below assumes the threads
    // spread over the slices, as the model takes placement none (pinned ones cache by their core).
    const int domains = static_cast<int>(model::llc_domains(cores / packages, m));
    if (domains > 1)
      out.push_back({Ceiling::Axis::x, llc / domains,
                     fmt::format("LLC domain ({:g} cores) {}", m.llc_domain_cores, size_text(llc / domains))});
    if (threads > 1) {
      const int per_package = (threads + packages - 1) / packages;
      const int per_domain = (per_package + domains - 1) / domains;
      const double share = llc / domains * m.llc_usable_fraction / per_domain;
      out.push_back({Ceiling::Axis::x, share,
                     fmt::format("LLC share per thread ({}T) {}", threads, size_text(share))});
    }
  }
  return out;
}

std::string model_preset_of(const std::vector<Point>& points) {
  if (points.empty()) return "";
  const std::string& host = points.front().host;
  for (const Point& p : points)
    if (p.source != "simulated" || p.host != host) return "";
  if (host.rfind("model:", 0) != 0) return "";
  const std::string name = host.substr(6);
  for (const auto& preset : machine_presets())
    if (preset == name) return name;
  return "";
}

std::vector<Ceiling> machine_ceilings(const std::string& preset_or_path, int threads) {
  return machine_ceilings(*load_machine(preset_or_path), threads);
}

}  // namespace bwlab::gui
