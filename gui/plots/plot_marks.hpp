// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include "core/topology/topology.hpp"
#include "gui/plots/ceilings.hpp"
#include "gui/plots/series.hpp"

namespace bwlab::gui {

// The lines each GB/s plot of `runs` gets, as the GUI and `bwlab plot` draw them.
struct PlotMarks {
  std::vector<Ceiling> threads;  // the threads plot: machine lines, then where the stosb-vs-NT winner changes
  std::vector<Ceiling> size;     // the size plot: the machine lines that are not thread counts
};

// `machine_ceilings` (of the machine the plots are drawn for, possibly none), plus, when
// `topology` is given, the placement marks (placement_marks) of the points simulated on it, those
// whose host is `machine_host` ("model:<name>"). When any point comes from another host, the
// machine's lines name it ("DRAM peak per node 128.0 GB/s (skylake-sp-2s)"): a demo server's
// ceiling is not the limit of this VM's curves. Every other machine points were simulated on gets
// its DRAM peak lines, named (other_machines_lines), unless `other_machines` is false; machines with
// the same DRAM peak share one line that names them all. Crossover marks (crossover_marks) go on the
// threads plot whatever the machine. No Qt.
// Placement and crossover marks are those of `scenario`'s rows, the rows the plots draw (a victim
// plot's x is the aggressor count k: its marks stand there; its y is one thread's GB/s: the
// machine's aggregate GB/s lines are left out).
PlotMarks plot_marks(const std::vector<Dataset>& runs, std::vector<Ceiling> machine_ceilings, const Topology* topology,
                     const std::string& machine_host, const std::string& scenario = "scaling",
                     bool other_machines = true);

}  // namespace bwlab::gui
