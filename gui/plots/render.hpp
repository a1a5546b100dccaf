// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gui/plots/ceilings.hpp"
#include "gui/plots/series.hpp"

namespace bwlab::gui {

// What `bwlab plot` draws.
struct PlotFileOptions {
  std::vector<std::string> inputs;  // CSV or JSON files, overlaid
  std::string out;                  // .png, .pdf or .svg
  std::string kind = "auto";        // threads | size | auto (see auto_plot_kind)
  std::string rows = "auto";        // the scenario drawn: auto (default_plot_scenario) or one the files hold
  bool per_thread = false;
  bool log_y = false;               // GB/s on a log10 axis
  int width = 1200, height = 720;
  std::uint64_t llc_bytes = 0;      // marked on the size plot when non-zero
  std::string llc_origin;           // "this machine"
  std::vector<Ceiling> ceilings;    // roofline lines (machine_ceilings), drawn when near the data
  // The machine the ceilings are of: its topology (a synthetic hwloc string, machine_topology) and
  // host ("model:<name>"), for the placement marks of the points simulated on it; "" for none.
  // Crossover marks (where the stosb-vs-NT winner changes) are drawn on the threads plot whatever
  // the machine (plot_marks).
  std::string marks_topology, marks_host;
  // The DRAM peaks of every other machine points were simulated on (other_machines_lines); off
  // for `bwlab plot --machine none`.
  bool other_machines = true;
};

// Loads the inputs and writes the plot, without a display (offscreen Qt; creates the
// QApplication when there is none). Throws InputError for unreadable or malformed inputs,
// an unknown kind or an unsupported suffix; std::runtime_error when the file cannot be written.
// Returns a one-line description of what was drawn.
std::string render_plot_file(const PlotFileOptions& options);

// The --kind values: threads, size, auto.
const std::vector<std::string>& plot_kinds();

// "size" when the size plot's curves hold more points each than the threads plot's (a sweep of more
// sizes than thread counts), else "threads"; of the rows of `scenario` (empty: default_plot_scenario).
std::string auto_plot_kind(const std::vector<Dataset>& datasets, std::string scenario = {});

}  // namespace bwlab::gui
