// SPDX-License-Identifier: MIT
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/insight/fleet.hpp"
#include "core/insight/load.hpp"
#include "core/insight/merge.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/input_file.hpp"
#include "core/report/plural.hpp"
#include "headless/commands.hpp"
#include "headless/stderr_line.hpp"

namespace bwlab::cli {

int merge_command(const MergeArgs& o) {
  if (o.out.empty()) throw InputError("merge needs --out FILE.csv");
  check_not_an_input({"--out", o.out}, o.files);
  check_output_format({"--out", o.out}, FileFormat::csv, "a fleet file");
  check_writable(o.out);
  check_listed_once(o.files);
  std::vector<NamedRun> runs;
  std::vector<std::string> left_out;
  for (const std::string& f : o.files) {
    try {
      LoadedPoints in = load_points(f);
      if (in.kind != PointFileKind::json)
        throw InputError(fmt::format("{} is a {}: merge takes bwlab JSON files (they carry the host and CPU identity)",
                                     f, to_string(in.kind)));
      NamedRun run{f, JsonDocument{std::move(*in.run), std::move(in.points)}};
      check_mergeable(run);
      runs.push_back(std::move(run));
    } catch (const InputError& e) {
      if (!o.keep_going) throw;
      fmt::print(stderr, "warning: left out: {}\n", e.what());
      left_out.push_back(f);
    }
  }
  if (runs.empty())
    throw InputError(o.files.size() == 1 ? std::string("the file could not be merged (said above)")
                                         : fmt::format("none of the {} could be merged (each is named above)",
                                                       count_of(o.files.size(), "file")));
  const MergeResult m = merge_runs(runs);
  for (const std::string& w : m.warnings) print_stderr_line("warning: " + w);
  std::ostringstream s;
  write_fleet_csv(s, m.rows);
  write_file_atomically(o.out, s.str());
  std::set<std::string> hosts, cpus;
  for (const FleetRow& r : m.rows) {
    hosts.insert(r.point.host);
    cpus.insert(cpu_label(r.cpu) + " " + r.cpu.microcode);
  }
  fmt::print("merged {} from {} ({}, {}) into {}{}\n", count_of(m.rows.size(), "point"), count_of(runs.size(), "file"),
             count_of(hosts.size(), "host"), count_of(cpus.size(), "CPU/microcode combination"), o.out,
             left_out.empty() ? std::string()
                              : fmt::format("; left out {} that could not be merged: {}", count_of(left_out.size(), "file"),
                                            fmt::join(left_out, ", ")));
  return 0;
}

namespace {

constexpr const char* kMergeFooter = R"(
Example:
  bwlab merge results/*.json --out fleet.csv && bwlab verdict fleet.csv --by cpu

Takes bwlab JSON files (each carries its host and CPU identity) and writes one fleet CSV: the
columns cpu_vendor,cpu_family,cpu_model_number,cpu_stepping,microcode,llc_bytes,llc_count (each
run's caches, so verdict --by cpu judges each host by its own) followed by the normal CSV columns,
every point of every host kept. Refuses (exit 2) a file that is not a bwlab JSON of
schema 1, a file of simulated or imported points (a fleet merges measured runs), a file listed
twice, two files holding the same point for the same host, and files that hold no points at all.
With --keep-going a file that cannot be merged by itself (unreadable, cut short, not a bwlab
JSON, simulated or imported) is named on stderr and left out, and the others are merged (exit 2
only when none is left): one broken host does not stop a fleet's merge. Runs of different bwlab
versions are merged with a warning that names them. Collect the files with the
tools you already run (ssh loop, srun, Ansible): see README.md "Fleet" (installed: share/doc/bwlab/README.md).
)";

}  // namespace

Command add_merge_command(CLI::App& app) {
  auto o = std::make_shared<MergeArgs>();
  CLI::App* sub = app.add_subcommand("merge", "merge JSON results from many hosts into one fleet CSV");
  sub->add_option("FILES", o->files, "bwlab JSON files, one run per host")->required();
  sub->add_option("-o,--out", o->out, "the fleet CSV to write")->required();
  sub->add_flag("-k,--keep-going", o->keep_going,
                "leave out a file that cannot be merged (unreadable, cut short, not a measured bwlab JSON), name it on "
                "stderr, and merge the others");
  sub->footer(kMergeFooter);

  return {sub, [o] { return merge_command(*o); }};
}

}  // namespace bwlab::cli
