// SPDX-License-Identifier: MIT
#pragma once
#include <iosfwd>
#include <span>
#include <chrono>
#include <string>
#include <vector>

#include "core/kernels/cpu_features.hpp"
#include "core/report/record.hpp"

// The `bwlab` subcommands, each a thin layer over core. main.cpp parses the arguments
// (CLI11 lives there only) and calls one of these. They throw bwlab::InputError for bad
// input (exit 2) and std::runtime_error for failures (exit 1), and return the exit code.
namespace bwlab::cli {

struct RunOptions {
  std::string scenario = "scaling";
  std::string kernels;    // empty: the default set
  std::string sizes;      // empty: the scenario's default (scenario_default_sizes)
  std::string threads;    // empty: 1..max (mix: the --mix counts)
  std::string victim;     // victim: victim kernels (empty: --kernels)
  std::string aggressor;  // victim: aggressor kernels (empty: --kernels)
  std::string mix;        // mix: kernel:threads,...
  std::string entries;    // tlbflush: pages per munmap (empty: 1..512)
  std::string placement = "compact";
  std::string membind = "local";
  std::string pages = "4k";
  std::string fill;       // empty: zero
  std::string reps = "5";         // a count, or auto
  double target_pstdev = 2.0;     // with --reps auto
  int max_reps = 31;              // with --reps auto
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

// "200ms", "1s", "5" (ms): 1 ms to 1 h. Throws InputError naming --duration.
std::chrono::milliseconds parse_duration(const std::string& text);

// `bwlab simulate`: the sweep options of `run`, predicted by the model (headless/simulate_command.cpp).
struct SimulateOptions {
  std::string machine;   // preset or JSON file
  std::string topology;  // empty: the machine's own
  std::string kernels;   // empty: stosb, movnti and the widest NT kernel of the machine
  std::string sizes = "16M,1G";
  std::string threads = "1..max";
  std::string placement = "compact";
  std::string membind = "local";
  std::string pages = "4k";
  std::string fill = "zero";
  std::string duration = "200ms";
  std::string csv, json;
  std::string validate;  // a measured CSV (ours or the seed's): compare instead of sweeping
  bool quiet = false;
  std::string command_line;
};
int simulate_command(const SimulateOptions& o);

// `bwlab calibrate`: measure a few points here (or read them) and fit a machine file.
struct CalibrateOptions {
  std::string out;       // machine JSON to write
  std::string from;      // fit these measured points (CSV) instead of measuring
  std::string base = "local";  // starting machine: local or a preset
  std::string fit;       // parameters to fit (comma list; a leading + adds to the automatic list)
  std::string kernels, sizes, threads;  // override the measurement plan
  int reps = 5;
  std::string duration = "400ms";
  std::string csv;       // write the measured points
  bool quiet = false;
  std::string command_line;
};
int calibrate_command(const CalibrateOptions& o);

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

// --sizes when not given: 16M,1G (scaling, victim, mix), 64M (pagefault: bytes mapped per cycle),
// 1M (tlbflush: each reader's memory).
std::string scenario_default_sizes(const std::string& scenario);

}  // namespace bwlab::cli

// Insight commands (headless/*_command.cpp over core/insight).
namespace bwlab::cli {

struct VerdictArgs {
  std::string file;
  std::string by;                  // "" or "cpu"
  std::string max_spread = "15%";  // overlapping ranges with a larger pstdev: too noisy to tell
  std::string model_band = "10%";  // default band of a simulated point that carries none
  std::string machine;             // predict and judge: a preset or a `bwlab calibrate` file
  std::string threads, sizes, kernels;  // with --machine (defaults: 1,max; 2M..4G; stosb,movnti,widest NT)
  std::string against_model;       // FILE's verdict beside the model's for this machine
};

int verdict_command(const VerdictArgs& o);

struct CompareArgs {
  std::string base, now;
  std::string tolerance = "5%";
};
int compare_command(const CompareArgs& o);

struct MergeArgs {
  std::vector<std::string> files;
  std::string out;
};
int merge_command(const MergeArgs& o);

struct ReportArgs {
  std::string file;
  std::string out;
};
int report_command(const ReportArgs& o);

// "5%", "5" or "0.5%" -> 5, 5, 0.5. Throws InputError naming `option` otherwise.
double parse_percent(const std::string& text, const char* option);

// stosb, movnti and the widest vector NT kernel the machine has (simulate's and verdict's default).
std::string machine_default_kernels(const CpuFeatures& cpu);

// Prints the verdict and this machine's glibc comparison after `run`'s table, when the
// points allow one (>= 2 sizes, a write-allocate and an NT kernel); nothing otherwise.
void print_run_verdict(std::ostream& out, std::span<const Point> points);

}  // namespace bwlab::cli
