// SPDX-License-Identifier: MIT
// bwlab: the command line. Argument parsing only; the work is in commands.hpp and core.
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/version.hpp"
#include "headless/commands.hpp"
#include "headless/import_command.hpp"

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

Scenarios (--scenario; every one uses the same pinned threads, barrier and timed window):
  scaling    (default) the table above: every thread runs the same kernel.
  victim     one victim thread runs a kernel while k = 0..max-1 aggressors run another; reports the
             victim's GB/s, its slowdown against k = 0 (measured in the same run, interleaved) and
             the aggressors' total.
               bwlab run --scenario victim --victim stosb --aggressor avx512-nt --sizes 1G
               bwlab run --scenario victim --kernels stosb,movnti,avx512-nt      (the full matrix)
  mix        threads split between kernels in one window; per kernel total and per thread.
               bwlab run --scenario mix --mix stosb:1,avx512-nt:1 --sizes 1G
  pagefault  each thread maps fresh memory (--sizes per cycle), writes one byte per page so the
             kernel clears it on the fault, unmaps; GB/s made ready (touching time) and faults/s.
               bwlab run --scenario pagefault --pages thp --sizes 64M --threads 1,2
  tlbflush   one thread maps, touches and munmaps E pages while k readers read their own memory;
             ns per munmap call and ns per reader access, against the readers alone.
               bwlab run --scenario tlbflush --entries 1..512
Huge pages: --pages hugetlb2m|hugetlb1g need pages reserved by root beforehand
(/sys/kernel/mm/hugepages/hugepages-*/nr_hugepages); bwlab says how many and never changes it.
Exit codes: 0 done, 1 run-time failure, 2 bad input, 130/143 interrupted (finished points kept).
)";

constexpr const char* kVerdictFooter = R"(
Examples:
  bwlab verdict results/latest.csv
  bwlab verdict fleet.csv --by cpu

For each pair of a write-allocate kernel (stosb, stosq, memset, ...) and a non-temporal one
(movnti, movntdq, avx2-nt, avx512-nt, clzero) and each thread count: the per-thread size where
NT overtakes by medians (interpolated in log size between the measured sizes, or "none in range"),
the speedup at the largest size with both spreads, and a recommendation: NT good, NT slow,
depends on load (ahead at some thread counts only), no difference, or cannot tell. A side is
called only when the min..max ranges over repetitions do not overlap; overlapping ranges with a
pstdev above --max-spread are "too noisy to tell"; fewer than 2 sizes or 2 repetitions cannot be
judged. Then glibc's x86_non_temporal_threshold on this machine (glibc 2.36's formula and the
live value from ld.so --list-tunables) beside the measured crossover, with a GLIBC_TUNABLES line.
--by cpu (a fleet CSV from 'bwlab merge', or a JSON file) judges each host and gathers the
verdicts per CPU family/model/stepping and microcode into a quirk table.
Exit codes: 0 printed, 2 unusable input (unreadable, nothing to compare).
)";

constexpr const char* kCompareFooter = R"(
Example (a CI job):
  bwlab compare base.csv new.csv --tolerance 5%

Points are matched by source, scenario, kernel, fill, threads, placement, membind, pages and size
(not by host). A point REGRESSED when its median GB/s dropped by more than the tolerance AND beyond
the noise of both runs: NEW's fastest repetition (max) is below BASE's slowest (min), so the two
min..max ranges do not overlap. With 1 repetition a range is one value and only the tolerance
applies. Improvements are judged the same way.
Exit codes: 0 no regression, 1 at least one point regressed, 2 unusable input (unreadable file,
not a bwlab CSV/JSON, a fleet CSV, no matching points, a bad --tolerance).
)";

constexpr const char* kMergeFooter = R"(
Example:
  bwlab merge results/*.json --out fleet.csv && bwlab verdict fleet.csv --by cpu

Takes bwlab JSON files (each carries its host and CPU identity) and writes one fleet CSV: the
columns cpu_vendor,cpu_family,cpu_model_number,cpu_stepping,microcode followed by the normal CSV
columns, every point of every host kept. Refuses (exit 2) a file that is not a bwlab JSON of
schema 1 and two files holding the same point for the same host. Collect the files with the
tools you already run (ssh loop, srun, Ansible): see README.md "Fleet".
)";

constexpr const char* kReportFooter = R"(
Example:
  bwlab report results/latest.json --out report.html

One self-contained HTML page for a bug report: run metadata and warnings, the verdict, plots (GB/s
vs size and vs threads per kernel, SVG embedded as data: URIs) and every point.
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
  run_cmd->add_option("--scenario", run.scenario,
                      "scaling (every thread runs each kernel), victim (one victim thread vs k aggressors), mix (threads "
                      "split between kernels), pagefault (the OS clears fresh pages on faults), tlbflush (munmap cost "
                      "and what readers pay)")
      ->capture_default_str();
  run_cmd->add_option("-k,--kernels", run.kernels,
                      "comma list of kernels, or 'all' (every kernel this CPU runs); see 'bwlab list'")
      ->default_str(bwlab::cli::default_kernels());
  run_cmd->add_option("-s,--sizes", run.sizes,
                      "bytes per thread: a comma list with K/M/G (2^10/2^20/2^30) and doubling ranges, e.g. 16M,1G or "
                      "2M..1G; pagefault: bytes each thread maps per cycle; tlbflush: each reader's memory")
      ->default_str("16M,1G; pagefault 64M; tlbflush 1M");
  run_cmd->add_option("-t,--threads", run.threads,
                      "thread counts: 1,2,4 or 1..max or max (max = PUs this process may use); victim: 1 victim + k "
                      "aggressors (1 is always measured); tlbflush: 1 unmapper + k readers")
      ->default_str("1..max");
  run_cmd->add_option("--victim", run.victim, "victim: the victim's kernels (a list makes a matrix with --aggressor)")
      ->default_str("--kernels");
  run_cmd->add_option("--aggressor", run.aggressor, "victim: the aggressors' kernels")->default_str("--kernels");
  run_cmd->add_option("--mix", run.mix, "mix: kernel:threads pairs, e.g. stosb:1,avx512-nt:1");
  run_cmd->add_option("--entries", run.entries, "tlbflush: 4 KiB pages per munmap, a list or doubling range")
      ->default_str("1..512");
  run_cmd->add_option("-p,--placement", run.placement,
                      "compact (one PU per core, siblings last), scatter (round-robin over NUMA nodes/packages), or a PU list such as 0,2,4")
      ->capture_default_str();
  run_cmd->add_option("--membind", run.membind,
                      "local (the thread's own NUMA node), remote (another node than the thread's), interleave, or node:N")
      ->capture_default_str();
  run_cmd->add_option("--pages", run.pages,
                      "4k (THP off for the buffers), thp (madvise MADV_HUGEPAGE; the share really huge is reported), "
                      "hugetlb2m or hugetlb1g (MAP_HUGETLB from the reserved pool; bwlab never reserves pages itself)")
      ->capture_default_str();
  run_cmd->add_option("-f,--fill", run.fill,
                      "what the kernels write: zero, 0xNN (a byte), perf (the pass number, as perf bench memset); a comma list compares them")
      ->default_str("zero");
  run_cmd->add_option("-r,--reps", run.reps,
                      "timed windows per point, or auto: at least 3, then more until every kernel's pstdev is under "
                      "--target-pstdev or --max-reps is reached (scaling scenario)")
      ->capture_default_str();  // checked with the other input, one clear message
  run_cmd->add_option("--target-pstdev", run.target_pstdev, "with --reps auto: the spread (%) to reach")->capture_default_str();
  run_cmd->add_option("--max-reps", run.max_reps, "with --reps auto: the most windows per point")->capture_default_str();
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

  bwlab::cli::SimulateOptions sim;
  sim.command_line = run.command_line;
  CLI::App* sim_cmd = app.add_subcommand("simulate", "predict a sweep with the analytical model (any machine, no measuring)");
  sim_cmd->add_option("-m,--machine", sim.machine, "a preset (skylake-x-8270cl, icelake-x-8358, broadwell-x-e5-2630v4, "
                      "tigerlake-i7-1165g7) or a JSON file from 'bwlab calibrate'");
  sim_cmd->add_option("--topology", sim.topology, "local, a file.xml, or a synthetic string such as 'package:2 numa:1 core:26 pu:2' (default: the machine's)");
  sim_cmd->add_option("-k,--kernels", sim.kernels, "as for run (default stosb, movnti and the machine's widest NT kernel)");
  sim_cmd->add_option("-s,--sizes", sim.sizes, "bytes per thread, as for run")->capture_default_str();
  sim_cmd->add_option("-t,--threads", sim.threads, "thread counts, as for run (max = PUs of the topology)")->capture_default_str();
  sim_cmd->add_option("-p,--placement", sim.placement, "compact, scatter or a PU list")->capture_default_str();
  sim_cmd->add_option("--membind", sim.membind, "local, interleave or node:N (remote memory goes through the inter-socket link)")->capture_default_str();
  sim_cmd->add_option("--pages", sim.pages, "4k or thp (recorded, not modelled)")->capture_default_str();
  sim_cmd->add_option("-f,--fill", sim.fill, "recorded, not modelled")->capture_default_str();
  sim_cmd->add_option("-d,--duration", sim.duration, "the window the predicted bytes refer to")->capture_default_str();
  sim_cmd->add_option("--csv", sim.csv, "write the predicted points (same schema as run, source=simulated)");
  sim_cmd->add_option("--json", sim.json, "write the predicted points as JSON");
  sim_cmd->add_option("--validate", sim.validate, "compare predictions with a measured CSV (bwlab's or the seed's) and "
                      "print per-point and log-RMS error instead of sweeping");
  sim_cmd->add_flag("-q,--quiet", sim.quiet, "nothing on stderr");
  sim_cmd->footer("\nExamples:\n  bwlab simulate --machine skylake-x-8270cl --kernels stosb,movnti --sizes 1G --threads 1..104\n"
                  "  bwlab simulate --machine icelake-x-8358 --topology 'package:2 numa:1 core:32 pu:2' --membind node:1\n"
                  "  bwlab simulate --validate ../shared/data/seed-memset.csv\n"
                  "  bwlab simulate --machine machine.json --validate measured.csv\n"
                  "The model and its sources: docs/model.md. Exit codes: 0 done, 2 bad input.\n");

  bwlab::cli::CalibrateOptions cal;
  cal.command_line = run.command_line;
  CLI::App* cal_cmd = app.add_subcommand("calibrate", "measure a few points here and fit the model's parameters (a machine file)");
  cal_cmd->add_option("-o,--out", cal.out, "the machine JSON file to write")->required();
  cal_cmd->add_option("--from", cal.from, "fit the points of this CSV (bwlab's or the seed's) instead of measuring");
  cal_cmd->add_option("--base", cal.base, "starting machine: local, or a preset (with --from)")->capture_default_str();
  cal_cmd->add_option("--fit", cal.fit, "parameters to fit, comma list; '+a,b' adds to the automatic choice");
  cal_cmd->add_option("-k,--kernels", cal.kernels, "kernels to measure (default stosb, movnti, widest NT)");
  cal_cmd->add_option("-s,--sizes", cal.sizes, "single-thread sizes (default LLC/8, LLC/2, 2xLLC, 8xLLC)");
  cal_cmd->add_option("-t,--threads", cal.threads, "thread counts, measured at the largest size (default 1..max)");
  cal_cmd->add_option("-r,--reps", cal.reps, "timed windows per point")->capture_default_str();
  cal_cmd->add_option("-d,--duration", cal.duration, "window length")->capture_default_str();
  cal_cmd->add_option("--csv", cal.csv, "also write the measured points");
  cal_cmd->add_flag("-q,--quiet", cal.quiet, "no progress on stderr");
  cal_cmd->footer("\nExamples:\n  bwlab calibrate --out machine.json            (about a minute)\n"
                  "  bwlab calibrate --out quick.json --reps 2 --duration 100ms\n"
                  "  bwlab calibrate --from ../shared/data/seed-memset.csv --base skylake-x-8270cl --out skx.json\n"
                  "Prints the fit error per point. Exit codes: 0 done, 1 run-time failure, 2 bad input.\n");

  bwlab::cli::VerdictArgs verdict;
  CLI::App* verdict_cmd =
      app.add_subcommand("verdict", "decide from a CSV/JSON where non-temporal stores overtake write-allocate ones");
  verdict_cmd->add_option("FILE", verdict.file, "a bwlab CSV or JSON, or a fleet CSV from 'bwlab merge'")->required();
  verdict_cmd->add_option("--by", verdict.by, "cpu: one quirk-table row per CPU model and microcode (fleet CSV or JSON)");
  verdict_cmd->add_option("--max-spread", verdict.max_spread,
                          "overlapping ranges with a pstdev above this are too noisy to tell")
      ->capture_default_str();
  verdict_cmd->footer(kVerdictFooter);

  bwlab::cli::CompareArgs compare;
  CLI::App* compare_cmd = app.add_subcommand("compare", "compare two runs point by point; exit 1 on a regression (for CI)");
  compare_cmd->add_option("BASE", compare.base, "the reference run (bwlab CSV or JSON)")->required();
  compare_cmd->add_option("NEW", compare.now, "the run to check (bwlab CSV or JSON)")->required();
  compare_cmd->add_option("--tolerance", compare.tolerance, "drop of the median allowed before a point may regress")
      ->capture_default_str();
  compare_cmd->footer(kCompareFooter);

  bwlab::cli::MergeArgs merge;
  CLI::App* merge_cmd = app.add_subcommand("merge", "merge JSON results from many hosts into one fleet CSV");
  merge_cmd->add_option("FILES", merge.files, "bwlab JSON files, one run per host")->required();
  merge_cmd->add_option("-o,--out", merge.out, "the fleet CSV to write")->required();
  merge_cmd->footer(kMergeFooter);

  bwlab::cli::ReportArgs report;
  CLI::App* report_cmd = app.add_subcommand("report", "write a self-contained HTML report of a JSON run");
  report_cmd->add_option("FILE", report.file, "a bwlab JSON file")->required();
  report_cmd->add_option("-o,--out", report.out, "the HTML file to write")->required();
  report_cmd->footer(kReportFooter);

  bwlab::cli::ImportOptions import_opts;
  import_opts.command_line = run.command_line;
  CLI::App* import_cmd = bwlab::cli::add_import_command(app, import_opts);

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
      what = std::string("unknown command '") + argv[1] + "'; commands are run, simulate, calibrate, list, topo, plot, verdict, compare, merge, report, import";
    std::fprintf(stderr, "bwlab: error: %s\nRun 'bwlab --help' or 'bwlab COMMAND --help'.\n", what.c_str());
    return 2;
  }

  try {
    if (*run_cmd) return bwlab::cli::run_command(run);
    if (app.got_subcommand("list")) return bwlab::cli::list_command();
    if (*topo_cmd) return bwlab::cli::topo_command(topo);
    if (*verdict_cmd) return bwlab::cli::verdict_command(verdict);
    if (*compare_cmd) return bwlab::cli::compare_command(compare);
    if (*merge_cmd) return bwlab::cli::merge_command(merge);
    if (*report_cmd) return bwlab::cli::report_command(report);
    if (*sim_cmd) return bwlab::cli::simulate_command(sim);
    if (*cal_cmd) return bwlab::cli::calibrate_command(cal);

    if (*plot_cmd) return bwlab::cli::plot_command(plot);
    if (*import_cmd) return bwlab::cli::import_command(import_opts);
  } catch (const bwlab::InputError& e) {
    std::fprintf(stderr, "bwlab: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bwlab: failed: %s\n", e.what());
    return 1;
  }
  return 2;
}
