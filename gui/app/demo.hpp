// SPDX-License-Identifier: MIT
#pragma once
#include <optional>
#include <string>

#include "core/model/simulate.hpp"
#include "core/topology/topology.hpp"
#include "gui/app/session.hpp"

namespace bwlab::gui {

// Help > Open demo: the one-click story of rep stosb against non-temporal stores under
// bandwidth competition. This machine's measured scaling curves (the newest CSV/JSON in
// `results_dir` measured on this host, else the small committed sample, named after its host)
// beside the same kernels predicted on a simulated 2-socket server (preset skylake-x-8270cl,
// `package:2 numa:1 core:26 pu:2`) at 1..104 threads, through core's simulator.
struct Demo {
  std::vector<KeptRun> runs;  // measured first, then simulated, then the simulated victim scenario
  MachinePtr machine;          // the simulated server
  std::optional<Topology> topology;
  std::string story;           // what to look at, for the log
  // The measured run's kernels that this CPU runs and its sizes ("avx512-nt,stosb", "32MiB,256MiB"),
  // for the control panel: Run then measures the same comparison here.
  std::string panel_kernels, panel_sizes;
  // The simulated point the Topology tab shows (it showed every PU idle): the NT kernel at the
  // largest size on half the server's PUs (compact: one thread per core on both packages, the SMT
  // siblings idle); `topology_note` says so for the log.
  std::optional<Point> topology_point;
  std::string topology_note;
  // The top of its colour scale: what one thread alone gets at that kernel and size (0: none),
  // so 52 equal shares read as a share of it, not as the scale's maximum (every PU had the scale's top colour).
  double topology_scale = 0;
  // The victim run's largest predicted slowdown, for the log ("" when it has none).
  std::string victim_note;
};

// Whether a run holds victim-scenario points (the demo's third run): no stosb-vs-NT verdict.
bool is_victim_run(const KeptRun& r);

inline constexpr const char* kDemoMachine = "skylake-x-8270cl";

Demo build_demo(const std::string& results_dir = "results");

}  // namespace bwlab::gui
