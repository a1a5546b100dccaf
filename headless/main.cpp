// SPDX-License-Identifier: MIT
// bwlab: the command line. Argument parsing only; the work is in commands.hpp and core.
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/version.hpp"
#include "headless/commands.hpp"

namespace {

std::string join_args(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += argv[i];
  }
  return s;
}

constexpr const char* kRunExamples = R"(
Examples:
  bwlab run
      stosb vs movnti vs the widest NT kernel, 16MiB and 1GiB per thread, 1..all threads.
  bwlab run --kernels stosb,movnti,avx512-nt --sizes 16M,1G --threads 1,2 --csv out.csv
  bwlab run --kernels stosb --sizes 2M..1G --threads 1 --fill zero,0xff
      a size sweep (doubling), writing zeros and 0xff side by side.
  bwlab run --kernels all --sizes 64M --threads max --placement scatter --json out.json

What is measured: each thread clears its own buffer (--sizes is bytes per thread) in passes
during a window of --duration; all threads start at one barrier and keep clearing until every
one has passed the deadline, so every counted pass ran with all its competitors. GB/s uses
GB = 1e9 bytes; the aggregate is the sum of per-thread rates; each point is --reps windows
(median, min, max, pstdev %), kernels interleaved across repetitions.
Exit codes: 0 done, 1 run-time failure, 2 bad input, 130/143 interrupted (finished points kept).
)";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bwlab: how do rep stosb and non-temporal clearing scale when cores compete for memory bandwidth?"};
  app.name("bwlab");
  app.set_version_flag("--version", std::string("bwlab ") + bwlab::kVersion);
  app.require_subcommand(1);
  app.footer("Run 'bwlab COMMAND --help' for the options of a command.");

  bwlab::cli::RunOptions run;
  run.command_line = join_args(argc, argv);
  CLI::App* run_cmd = app.add_subcommand("run", "measure clearing kernels on this machine");
  run_cmd->add_option("-k,--kernels", run.kernels,
                      "comma list of kernels, or 'all' (every kernel this CPU runs); see 'bwlab list'")
      ->default_str(bwlab::cli::default_kernels());
  run_cmd->add_option("-s,--sizes", run.sizes,
                      "bytes per thread: a comma list with K/M/G (2^10/2^20/2^30) and doubling ranges, e.g. 16M,1G or 2M..1G")
      ->capture_default_str();
  run_cmd->add_option("-t,--threads", run.threads, "thread counts: 1,2,4 or 1..max or max (max = PUs this process may use)")
      ->capture_default_str();
  run_cmd->add_option("-p,--placement", run.placement,
                      "compact (one PU per core, siblings last), scatter (round-robin over NUMA nodes/packages), or a PU list such as 0,2,4")
      ->capture_default_str();
  run_cmd->add_option("--membind", run.membind, "local (the thread's own NUMA node), interleave, or node:N")->capture_default_str();
  run_cmd->add_option("--pages", run.pages, "4k (THP off for the buffers) or thp (madvise MADV_HUGEPAGE)")->capture_default_str();
  run_cmd->add_option("-f,--fill", run.fill,
                      "what the kernels write: zero, 0xNN (a byte), perf (the pass number, as perf bench memset); a comma list compares them")
      ->capture_default_str();
  run_cmd->add_option("-r,--reps", run.reps, "timed windows per point")->capture_default_str();  // checked (>= 1) with the other input, one clear message
  run_cmd->add_option("-d,--duration", run.duration, "length of each timed window: 200ms, 1s, ...")->capture_default_str();
  run_cmd->add_option("--topology", run.topology, "local only for measuring (XML and synthetic topologies are for 'bwlab topo')")
      ->capture_default_str();
  run_cmd->add_option("--csv", run.csv, "write the points as CSV (rewritten atomically after every point)");
  run_cmd->add_option("--json", run.json, "write the points, per-thread figures and run metadata as JSON");
  run_cmd->add_option("--unstable-pct", run.unstable_pct, "flag points whose pstdev exceeds this percentage")->capture_default_str();
  run_cmd->add_flag("-q,--quiet", run.quiet, "no progress or warnings on stderr");
  run_cmd->footer(kRunExamples);

  app.add_subcommand("list", "list the clearing kernels, and which ones this CPU can run")
      ->footer("\nExample:\n  bwlab list\n");

  bwlab::cli::TopoOptions topo;
  CLI::App* topo_cmd = app.add_subcommand("topo", "show a topology (this machine, an hwloc XML file or a synthetic one)");
  topo_cmd->add_option("--topology", topo.topology,
                       "local, a file.xml written by lstopo, or a synthetic string such as 'package:2 numa:1 core:26 pu:2'")
      ->capture_default_str();
  topo_cmd->add_option("-p,--placement", topo.placement, "also show where threads go: compact, scatter or a PU list");
  topo_cmd->add_option("-t,--threads", topo.threads, "thread counts for --placement (default max)");
  topo_cmd->footer(
      "\nExamples:\n  bwlab topo\n  bwlab topo --topology 'package:2 core:4 pu:2' --placement scatter --threads 1..16\n");

  bwlab::cli::PlotOptions plot;
  CLI::App* plot_cmd = app.add_subcommand("plot", "draw the GUI's plot of CSV/JSON files as PNG, PDF or SVG, without a display");
  plot_cmd->add_option("files", plot.files, "CSV or JSON files written by bwlab (several are overlaid)")->required();
  plot_cmd->add_option("-o,--out", plot.out, "output file: .png, .pdf or .svg")->required();
  plot_cmd->add_option("--kind", plot.kind,
                       "threads (GB/s against threads), size (GB/s against bytes per thread, log2), or auto "
                       "(size when the files hold more sizes than thread counts, else threads)")
      ->capture_default_str();
  plot_cmd->add_flag("--per-thread", plot.per_thread, "plot the median per-thread GB/s instead of the aggregate");
  plot_cmd->add_option("--llc", plot.llc,
                       "LLC size marked on the size plot: auto (this machine's, when every point was measured on this "
                       "host), none, or a size such as 32M")
      ->capture_default_str();
  plot_cmd->add_option("--width", plot.width, "pixels")->capture_default_str();
  plot_cmd->add_option("--height", plot.height, "pixels")->capture_default_str();
  plot_cmd->footer(
      "\nExamples:\n  bwlab plot results/latest.csv --out results/latest.png\n"
      "  bwlab plot hostA.csv hostB.csv --kind size --out compare.pdf\n");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    // CLI11 reports a mistyped command as "A subcommand is required"; name the word instead.
    if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '-')
      what = std::string("unknown command '") + argv[1] + "'; commands are run, list, topo, plot";
    std::fprintf(stderr, "bwlab: error: %s\nRun 'bwlab --help' or 'bwlab COMMAND --help'.\n", what.c_str());
    return 2;
  }

  try {
    if (*run_cmd) return bwlab::cli::run_command(run);
    if (app.got_subcommand("list")) return bwlab::cli::list_command();
    if (*topo_cmd) return bwlab::cli::topo_command(topo);
    if (*plot_cmd) return bwlab::cli::plot_command(plot);
  } catch (const bwlab::InputError& e) {
    std::fprintf(stderr, "bwlab: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bwlab: failed: %s\n", e.what());
    return 1;
  }
  return 2;
}
