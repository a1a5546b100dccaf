// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

// The `bwlab` subcommands, each a thin layer over core. main.cpp parses the arguments
// (CLI11 lives there only) and calls one of these. They throw bwlab::InputError for bad
// input (exit 2) and std::runtime_error for failures (exit 1), and return the exit code.
namespace bwlab::cli {

struct RunOptions {
  std::string kernels;    // empty: the default set
  std::string sizes = "16M,1G";
  std::string threads = "1..max";
  std::string placement = "compact";
  std::string membind = "local";
  std::string pages = "4k";
  std::string fill = "zero";
  int reps = 5;
  std::string duration = "200ms";
  std::string topology = "local";
  std::string csv;
  std::string json;
  bool quiet = false;
  double unstable_pct = 5.0;
  std::string command_line;
};
int run_command(const RunOptions& o);

int list_command();

struct TopoOptions {
  std::string topology = "local";
  std::string placement;  // optional: show the plan
  std::string threads;    // with placement
};
int topo_command(const TopoOptions& o);

struct PlotOptions {
  std::vector<std::string> files;  // CSV or JSON written by bwlab
  std::string out;                 // .png, .pdf or .svg
  std::string kind = "auto";       // threads | size | auto
  bool per_thread = false;
  std::string llc = "auto";        // auto (this machine's LLC when every point was measured here), none, or a size
  int width = 1200, height = 720;
};
// Renders the GUI's plot of the files without a display (offscreen Qt).
int plot_command(const PlotOptions& o);

// The kernels `run` measures when --kernels is not given: stosb, movnti and the widest
// non-temporal SIMD kernel this CPU has.
std::string default_kernels();

}  // namespace bwlab::cli
