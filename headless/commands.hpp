// SPDX-License-Identifier: MIT
#pragma once
#include <iosfwd>
#include <span>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernels/cpu_features.hpp"
#include "core/report/record.hpp"
#include "core/scenario/choices.hpp"

// The `bwlab` subcommands, each a thin layer over core. Each X_command.cpp declares its own
// options (add_X_command) and runs them (X_command); main.cpp builds the app and dispatches.
// They throw bwlab::InputError for bad input (exit 2) and std::runtime_error for failures
// (exit 1), and return the exit code.
namespace CLI {
class App;
}

namespace bwlab::cli {

// A subcommand declared on the app, and what runs it once the arguments are parsed into it.
struct Command {
  CLI::App* sub = nullptr;
  std::function<int()> run;
};
Command add_run_command(CLI::App& app, const std::string& command_line);
Command add_list_command(CLI::App& app);
Command add_topo_command(CLI::App& app);
Command add_simulate_command(CLI::App& app, const std::string& command_line);
Command add_calibrate_command(CLI::App& app, const std::string& command_line);
Command add_verdict_command(CLI::App& app);
Command add_compare_command(CLI::App& app);
Command add_merge_command(CLI::App& app);
Command add_report_command(CLI::App& app);
Command add_plot_command(CLI::App& app);
// `bwlab machine spec|uarchs|show` (headless/machine_command.cpp).
Command add_machine_command(CLI::App& app);
// `bwlab import FORMAT FILE...` (headless/import_command.cpp).
Command add_import_command(CLI::App& app, const std::string& command_line);
// `bwlab export --format gbench FILE --out OUT` (headless/export_command.cpp).
Command add_export_command(CLI::App& app);
// The formats `bwlab export --format` writes (the check and the shell completion read this).
std::span<const std::string_view> export_formats();
// `bwlab completion bash` (hidden; headless/completion_command.cpp): the bash completion script,
// generated from `app`'s commands and options (bash_completion).
Command add_completion_command(CLI::App& app);
std::string bash_completion(const CLI::App& app);

// What the user chose (the shared core mapping to a ScenarioSpec), plus what only the CLI has.
struct RunOptions {
  RunChoices choices;
  std::string topology = "local";
  std::string host;  // recorded instead of gethostname() (cloned VMs, containers)
  std::string csv;
  std::string json;
  std::string json_format = "bwlab";  // bwlab | gbench (Google Benchmark's JSON, core/report/gbench_json)
  bool quiet = false;
  std::string target_pstdev = "2%";     // --target-pstdev as typed: "2%" or "2" (parse_percent)
  bool target_pstdev_given = false;     // on the command line
  bool max_reps_given = false;
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

// `bwlab simulate`: the sweep options of `run`, predicted by the model (headless/simulate_command.cpp).
struct SimulateOptions {
  std::string machine;   // preset or JSON file
  std::string topology;  // empty: the machine's own
  std::string scenario = "scaling";  // scaling, victim or mix (pagefault and tlbflush are measured only)
  std::string kernels;   // empty: stosb, movnti and the widest NT kernel of the machine
  std::string victim, aggressor;  // victim: the victims' and aggressors' kernels (empty: kernels)
  std::string mix;                // mix: kernel:threads pairs
  bool threads_given = false;     // --threads was given (mix refuses it: the --mix counts set the threads)
  std::string sizes = "16M,1G";
  std::string threads = "1..max";
  std::string placement = "compact";
  std::string membind = "local";
  std::string pages = "4k";
  std::string fill = "zero";
  std::string duration = "200ms";
  std::string csv, json;
  std::string validate;  // a measured CSV (ours or the seed's): compare instead of sweeping
  bool explain = false;  // print why each point runs at its rate (model::explain_point)
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
  bool reject_noisy = false;  // measure disturbed windows again (SweepSpec::reject_noisy)
  std::string command_line;
};
int calibrate_command(const CalibrateOptions& o);

struct PlotOptions {
  std::vector<std::string> files;  // CSV or JSON written by bwlab
  std::string out;                 // .png, .pdf or .svg
  std::string kind = "auto";       // threads | size | auto
  std::string rows = "auto";       // which scenario's rows: auto (the first present) or scaling|victim|mix|pagefault
  bool per_thread = false;
  bool log_y = false;
  std::string llc = "auto";        // auto (this machine's LLC when every point was measured here), none, or a size
  std::string machine = "auto";    // ceilings: auto (the model machine simulated points name), none, a preset or file
  int width = 1200, height = 720;
};
// Renders the GUI's plot of the files without a display (offscreen Qt).
int plot_command(const PlotOptions& o);

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
  std::string placement, membind;       // with --machine (defaults: compact, local)
  std::string against_model;       // FILE's verdict beside the model's for this machine
};

int verdict_command(const VerdictArgs& o);

struct CompareArgs {
  std::string base, now;
  std::string tolerance = "5%";
  bool require_all = false;  // a point of BASE missing from NEW fails the comparison (exit 4)
};
int compare_command(const CompareArgs& o);

struct MergeArgs {
  std::vector<std::string> files;
  std::string out;
  bool keep_going = false;  // leave out a file that cannot be merged, and say so
};
int merge_command(const MergeArgs& o);

struct ReportArgs {
  std::string file;
  std::string out;
};
int report_command(const ReportArgs& o);

// "5%", "5" or "0.5%" -> 5, 5, 0.5. Throws InputError naming `option` otherwise, and for a bare
// number between 0 and 1, which reads like a fraction: "0.05" -> "did you mean 5%?" (0.05% is
// accepted with its % sign).
double parse_percent(const std::string& text, const char* option);


// Prints the verdict and this machine's glibc comparison after `run`'s table, when the
// points allow one (>= 2 sizes, a write-allocate and an NT kernel); nothing otherwise. A heading
// (an interrupted run says it judges part of the sweep) comes first.
void print_run_verdict(std::ostream& out, std::span<const Point> points, const std::string& heading = {});

}  // namespace bwlab::cli
