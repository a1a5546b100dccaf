// SPDX-License-Identifier: MIT
#include "gui/plots/ceilings.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/model/machine.hpp"
#include "core/report/record.hpp"
#include "core/model/simulate.hpp"
#include "core/model/solver.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"
#include "gui/plots/series.hpp"

namespace bwlab::gui {

namespace {
// The most of `threads` threads that cache in one LLC (one package's, or one of its domains: an AMD
// CCX) where the model puts them for `placement`: compact fills package 0 first, so 2 threads of a
// 2-socket machine share one LLC. 0 when the placement cannot host them or is no --placement text
// (empty: the curves' placements differ).
int most_threads_per_llc(const MachineParams& m, const Topology& t, int threads, const std::string& placement) {
  try {
    const std::vector<int> pus = placed_by_model(t, parse_placement(placement), threads, m);
    const model::Placed placed =
        model::place_threads(pus, std::vector<MemBind>(pus.size()), t, model::shape_of(t), m);
    std::map<std::pair<int, int>, int> per_llc;
    int most = 0;
    for (const model::LoadGroup& g : placed.groups) most = std::max(most, per_llc[{g.package, g.llc_domain}] += g.count);
    return most;
  } catch (const std::exception&) {
    return 0;
  }
}
}  // namespace

std::vector<Ceiling> machine_ceilings(const MachineParams& m, int threads, const std::string& placement) {
  int nodes = 1, packages = 1, cores = 1;
  std::optional<Topology> topo;
  try {
    topo = Topology::from_spec(machine_topology(m));
    nodes = std::max(1, topo->numa_nodes());
    packages = std::max(1, topo->packages());
    cores = std::max(1, topo->cores());
  } catch (const std::exception&) {
    // An unreadable topology: one node, one package (no sum, no link line, no share per thread).
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
    // The x axis is the buffer per thread: one thread's buffer meets the LLC here, n threads' at
    // about LLC / n each. Without a thread count for a share line, the label says so.
    out.push_back({Ceiling::Axis::x, llc,
                   threads > 1 ? fmt::format("LLC {} per package", size_text(llc))
                               : fmt::format("LLC {} per package: n threads, LLC/n each",
                                             size_text(llc))});
    // AMD: a thread caches in its CCX/CCD slice; the share per thread below assumes the threads
    // spread over the slices, as the model takes placement none (pinned ones cache by their core).
    const int domains = static_cast<int>(model::llc_domains(cores / packages, m));
    if (domains > 1)
      out.push_back({Ceiling::Axis::x, llc / domains,
                     fmt::format("LLC domain ({:g} cores) {}", m.llc_domain_cores, size_text(llc / domains))});
    // The share where the model places the threads: n threads of one LLC get its usable part / n
    // (2 compact threads of a 2-socket machine share package 0's LLC; scattered, one each).
    if (const int per_llc = threads > 1 && topo ? most_threads_per_llc(m, *topo, threads, placement) : 0; per_llc > 0) {
      const double share = llc / domains * m.llc_usable_fraction / per_llc;
      out.push_back({Ceiling::Axis::x, share,
                     fmt::format("LLC share per thread ({}T {}) {}", threads, placement, size_text(share))});
    }
  }
  return out;
}

std::string shared_placement(const std::vector<Dataset>& sets, const std::string& host) {
  std::set<std::string> placements;
  for (const Dataset& d : sets)
    for (const Point& p : d.points)
      if (p.host == host) placements.insert(p.placement);
  return placements.size() == 1 ? *placements.begin() : std::string();
}

namespace {
// The model machine's name when every point of `sets` was simulated on one host "model:<name>".
std::optional<std::string> one_model_host(const std::vector<Dataset>& sets) {
  const Point* first = nullptr;
  for (const Dataset& d : sets)
    for (const Point& p : d.points) {
      if (!first) first = &p;
      if (p.source != "simulated" || p.host != first->host) return std::nullopt;
    }
  if (!first || first->host.rfind("model:", 0) != 0) return std::nullopt;
  return first->host.substr(6);
}
}  // namespace

std::optional<MachineParams> model_machine_of(const std::vector<Dataset>& sets) {
  const std::optional<std::string> host = one_model_host(sets);
  if (!host) return std::nullopt;
  const std::string& name = *host;
  const std::string* carried = nullptr;
  bool all_carry = true;
  for (const Dataset& d : sets) {
    if (d.machine.empty()) {
      all_carry = false;
    } else if (!carried) {
      carried = &d.machine;
    } else if (*carried != d.machine) {
      return std::nullopt;  // two different machines under one name
    }
  }
  const bool preset = is_machine_preset(name);
  if (carried) {
    std::istringstream in(*carried);
    MachineParams m = read_machine_json(in, "the file's run.machine");
    if (all_carry) return m;
    // Files without a machine (CSV) are explained only by the preset of that name, unchanged.
    if (!preset) return std::nullopt;
    MachineParams p = *load_machine(name);
    p.topology = Topology::from_spec(machine_topology(p)).origin();  // as bwlab simulate records it
    std::ostringstream a, b;
    write_machine_json(a, m);
    write_machine_json(b, p);
    if (a.str() != b.str()) return std::nullopt;
    return m;
  }
  if (!preset) return std::nullopt;
  return *load_machine(name);
}

std::vector<Ceiling> other_machines_lines(const std::vector<Dataset>& sets, const std::string& except_host) {
  // Each model host in the order its first point comes, with one point of each file simulated on
  // it: enough for model_machine_of, without copying a big sweep's points.
  std::vector<std::string> hosts;
  std::map<std::string, std::vector<Dataset>> on;
  for (const Dataset& d : sets)
    for (const Point& p : d.points) {
      if (p.source != "simulated" || p.host == except_host || p.host.rfind("model:", 0) != 0) continue;
      std::vector<Dataset>& files = on[p.host];
      if (files.empty()) hosts.push_back(p.host);
      if (files.empty() || files.back().name != d.name) files.push_back(Dataset{d.name, {p}, d.from_file, d.machine});
    }
  std::vector<Ceiling> out;
  for (const std::string& host : hosts) {
    std::optional<MachineParams> m;
    try {
      m = model_machine_of(on[host]);
    } catch (const std::exception&) {  // a machine the file carries that does not read: no lines
    }
    // As the GUI refuses the first machine's lines when its topology does not read here (a file
    // on another computer), so another's.
    try {
      if (m) (void)Topology::from_spec(machine_topology(*m));
    } catch (const std::exception&) {
      m.reset();
    }
    if (!m) continue;
    for (Ceiling& c : machine_ceilings(*m))
      if (c.axis == Ceiling::Axis::y && c.label.rfind("DRAM", 0) == 0) {
        c.short_label = c.label;
        c.label += " (" + m->name + ")";
        out.push_back(std::move(c));
      }
  }
  return out;
}

std::string why_no_model_machine(const std::vector<Dataset>& sets) {
  const std::optional<std::string> host = one_model_host(sets);
  if (!host || model_machine_of(sets)) return {};
  const std::string& name = *host;
  std::set<std::string> carried;
  std::vector<std::string> without, with;
  for (const Dataset& d : sets) {
    if (d.machine.empty()) without.push_back(d.name);
    else carried.insert(d.machine), with.push_back(d.name);
  }
  if (carried.size() > 1)
    return fmt::format("the files carry different machines under the one name '{}'", name);
  if (without.empty()) return {};
  const bool preset = is_machine_preset(name);
  const std::string csv = fmt::format("{} {} simulated for '{}'", fmt::join(without, ", "),
                                      without.size() == 1 ? "was" : "were", name);
  // A JSON without a machine (imported, or written by hand) is no CSV: said of the file as it is.
  const bool all_csv = std::all_of(without.begin(), without.end(), [](const std::string& f) {
    return f.size() >= 4 && std::equal(f.end() - 4, f.end(), ".csv", [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == b;
           });
  });
  const std::string lacks = all_csv ? "a CSV does not carry its machine"
                                    : fmt::format("{} no machine", without.size() == 1 ? "it carries" : "they carry");
  if (with.empty())
    return fmt::format("{}, not a preset, and {}: open the JSON file `bwlab simulate --json` wrote", csv, lacks);
  // A JSON file of the same name is open: a name records neither channels nor clocks, so its machine
  // is not assumed to be the other file's.
  return fmt::format("{}, {}, and {}; {} {} a machine of that name, which is not assumed to be {} (a name does not "
                     "record channels or clocks): open the JSON files alone",
                     csv, preset ? "a preset" : "not a preset", lacks, fmt::join(with, ", "),
                     with.size() == 1 ? "carries" : "carry", all_csv ? "the CSV's" : "theirs");
}

std::vector<Ceiling> machine_ceilings(const std::string& preset_or_path, int threads, const std::string& placement) {
  return machine_ceilings(*load_machine(preset_or_path), threads, placement);
}

}  // namespace bwlab::gui
