// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Roofline-style ceilings drawn over the GB/s plots (PlotPanel::set_ceilings). No Qt.
#include "core/model/machine.hpp"

namespace bwlab::gui {
struct Dataset;
}

namespace bwlab::gui {

struct Ceiling {
  // y: a horizontal line at `value` GB/s; x: a vertical line at `value` bytes (size plot);
  // threads: a vertical line at `value` threads (threads plot), e.g. where the winner changes.
  enum class Axis { y, x, threads };
  Axis axis = Axis::y;
  double value = 0;
  std::string label;  // "DRAM peak per node 140.8 GB/s"
  // The label with what the plot says elsewhere left out (the machine's or run's name, which the
  // legend gives), for a plot with no room for the whole label; empty: there is none shorter.
  std::string short_label = {};
  // A mark where a winner stops being sure (the change ends in "level"), not where one overtakes:
  // drawn dotted, so it does not read as a crossing ("from 13T the gap ..." under a dash-dot line
  // read as a winner change where nothing crosses).
  bool unsure = false;
  bool operator==(const Ceiling&) const = default;
};

// The ceilings of a model machine (core/model): the DRAM peak of one NUMA node and of all nodes
// together (when more than one), the inter-socket link peak (when more than one package), and on
// the size plot (x) the LLC of one package and, with threads > 1, its share per thread for the
// threads' `placement` (a --placement text: LLC x usable fraction / the most threads the model
// places in one LLC; no share line for a placement that cannot host them). Node and package counts
// come from the machine's topology (machine_topology); a machine whose topology cannot be read
// counts as one node.
std::vector<Ceiling> machine_ceilings(const MachineParams& m, int threads = 0, const std::string& placement = "compact");

// The placement every point of `sets` simulated on `host` shares ("compact", "scatter", ...), for
// machine_ceilings' share line; empty when they differ or there are none.
std::string shared_placement(const std::vector<Dataset>& sets, const std::string& host);

// The machine every point of `sets` was simulated on: the machine whose ceilings, topology and
// marks `bwlab plot --machine auto` and the GUI draw for opened files. All points must be
// simulated on one host "model:<name>". Then: the machine the files carry (a JSON file written by
// `bwlab simulate --json` holds it in run.machine) when they all carry the same one; else the
// preset <name>, when no file carries a different machine. nullopt otherwise: measured points,
// several machines, or CSV files simulated from a machine file (a CSV carries no machine).
std::optional<MachineParams> model_machine_of(const std::vector<Dataset>& sets);

// The DRAM peak lines (per node, and summed over nodes) of every model machine that points of
// `sets` were simulated on, except the one on host `except_host` ("model:<name>"; it has its own
// lines), each named: "DRAM peak per node 204.8 GB/s (icelake-x-8358)". Beside one machine's
// ceilings, a second machine's curves rose above lines that were not theirs, with their own peak
// not drawn. Machines are found as model_machine_of finds them, one host at a time; one that is
// not found (a CSV of a machine file), or whose topology does not read here, gets no line. Link and LLC lines are the first machine's only.
std::vector<Ceiling> other_machines_lines(const std::vector<Dataset>& sets, const std::string& except_host);

// Why model_machine_of(sets) finds no machine for points that were all simulated on one model
// host, said for the user ("s.csv was simulated for 'm', not a preset, and a CSV does not carry
// its machine: open the JSON file `bwlab simulate --json` wrote"); ""
// when a machine is found or the points were not all simulated on one model host.
std::string why_no_model_machine(const std::vector<Dataset>& sets);

// The same for a preset name or machine JSON file (load_machine); throws InputError.
std::vector<Ceiling> machine_ceilings(const std::string& preset_or_path, int threads = 0,
                                      const std::string& placement = "compact");

}  // namespace bwlab::gui
