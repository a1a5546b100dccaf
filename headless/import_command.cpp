// SPDX-License-Identifier: MIT
#include "headless/import_command.hpp"
#include "headless/stderr_line.hpp"
#include "headless/commands.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "core/insight/load.hpp"
#include "core/import/import.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/csv.hpp"
#include "core/report/input_file.hpp"
#include "core/report/json.hpp"
#include "core/report/plural.hpp"
#include "core/report/table.hpp"
#include "core/sweep/suggest.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/version.hpp"

namespace bwlab::cli {

Command add_import_command(CLI::App& app, const std::string& command_line) {
  auto opts = std::make_shared<ImportOptions>();
  opts->command_line = command_line;
  ImportOptions& o = *opts;
  CLI::App* cmd = app.add_subcommand("import", "read other tools' results (perf bench, mailing-list tables, likwid-bench, pmbw, Google Benchmark) as bwlab points");
  cmd->add_option("FORMAT", o.format, fmt::format("{}", fmt::join(import::formats(), ", ")))->required();
  cmd->add_option("FILES", o.files,
                  "the files to read, each parsed on its own; their points are written in order; - reads standard "
                  "input (perf bench ... | bwlab import perf-bench - --csv p.csv)")
      ->required();
  cmd->add_option("--cpu", o.cpu, "the CPU model of every point (else what the text states, or empty)");
  cmd->add_option("--note", o.note, "a note kept with every point");
  cmd->add_option("--csv", o.csv, "write the points as a bwlab CSV (source=imported)");
  cmd->add_option("--json", o.json, "write the points as a bwlab JSON");
  cmd->footer(
      "\nFormats:\n"
      "  perf-bench  raw 'perf bench mem memset|memcpy' output (-f all too); GB/sec is perf's GiB/s (x1.073741824)\n"
      "  lkml-table  the side-by-side tables of the mailing lists ('x86-64-stosb (5 runs)  x86-64-movnt (5 runs)'),\n"
      "              with the machine lines above them; e-mail quoting and wrapped rows are handled\n"
      "  likwid-bench  result blocks (Test:, Using N threads, Size per thread:, MByte/s: = 1e6 bytes/s);\n"
      "              store_mem* tests are non-temporal stores\n"
      "  pmbw        pmbw's stats.txt RESULT lines (bandwidth in bytes/s, all threads)\n"
      "  gbench      Google Benchmark JSON (bytes_per_second; the median aggregate when present; size = first\n"
      "              numeric argument of the benchmark name, bytes or whole KiB/MiB/GiB as 'bwlab export' writes)\n"
      "Every point says where it came from and how its unit was converted (its first flag). What the text\n"
      "does not state (fill, turbo, threads of a table without a tool) is recorded as unknown.\n"
      "Examples:\n  bwlab import perf-bench perf.txt --cpu 'Intel Xeon Platinum 8270CL' --csv perf.csv\n"
      "  bwlab import lkml-table thread.txt --csv thread.csv && bwlab simulate --validate thread.csv\n"
      "Exit codes: 0 written, 2 bad input (unknown format, unreadable file, unknown or partial text: the line is named).\n");
  return {cmd, [opts] { return import_command(*opts); }};
}

int import_command(const ImportOptions& o) {
  if (std::find(import::formats().begin(), import::formats().end(), o.format) == import::formats().end())
  {
    const std::vector<std::string> names(import::formats().begin(), import::formats().end());
    const std::string near = nearest_name(o.format, names);
    throw InputError(fmt::format("unknown import format '{}'; {}formats are {}", o.format,
                                 near.empty() ? "" : fmt::format("did you mean {}? ", near),
                                 fmt::join(import::formats(), ", ")));
  }
  if (o.csv.empty() && o.json.empty()) throw InputError("import: give --csv OUT.csv or --json OUT.json (or both)");
  check_distinct_outputs({{"--csv", o.csv}, {"--json", o.json}});
  check_output_suffixes({{"--csv", o.csv}, {"--json", o.json}});
  check_not_an_input({"--csv", o.csv}, o.files);
  check_not_an_input({"--json", o.json}, o.files);
  if (!o.csv.empty()) check_writable(o.csv);
  if (!o.json.empty()) check_writable(o.json);
  for (const std::string& file : o.files)
    if (file != "-") check_input_file(file);
  // The same file twice gave every point twice (compare and verdict then refused "two points for ...").
  for (std::size_t i = 0; i < o.files.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (o.files[i] == o.files[j])
        throw InputError(o.files[i] == "-" ? std::string("- (standard input) is given twice: it can be read once")
                                           : fmt::format("{} is given twice: each file is read once", o.files[i]));
  std::vector<Point> points;
  std::vector<std::string> summary, notes;
  std::set<std::string> all_cpus;
  for (const std::string& file : o.files) {
    std::ifstream in;
    if (file != "-") {
      in.open(file, std::ios::binary);
      if (!in) throw InputError(fmt::format("cannot read {}: {}", file, std::strerror(errno)));
    }
    std::istream& from = file == "-" ? std::cin : in;
    const std::string text(
        without_bom(std::string{std::istreambuf_iterator<char>(from), std::istreambuf_iterator<char>()}));
    import::Options io;
    io.file = file == "-" ? "(standard input)" : file;
    io.cpu = o.cpu;
    io.note = o.note;
    io.notes = &notes;
    std::vector<Point> got = import::import_text(o.format, text, io);
    std::set<std::string> cpus, kernels;
    for (const Point& p : got) {
      cpus.insert(p.cpu_model.empty() ? "(CPU not stated)" : p.cpu_model);
      all_cpus.insert(p.cpu_model.empty() ? "(CPU not stated)" : p.cpu_model);
      kernels.insert(p.kernel);
    }
    summary.push_back(fmt::format("{}: {}, {}; kernels {}", io.file, count_of(got.size(), "point"), fmt::join(cpus, ", "),
                                  fmt::join(kernels, ",")));
    for (Point& p : got) points.push_back(std::move(p));
  }
  import::refuse_repeated_points(points);  // one point in two files: two figures, one curve's zig-zag
  if (!o.csv.empty()) {
    write_file_atomically(o.csv, csv_text(points));
  }
  if (!o.json.empty()) {
    RunInfo info;
    info.bwlab_version = kVersion;
    info.date = utc_now_iso8601();
    info.command_line = o.command_line;
    if (!o.cpu.empty()) info.cpu_model_name = o.cpu;
    // A partial run's export (gbench's bwlab_partial): the JSON says so as the run's own did, for any
    // of the files (only the last one's was seen).
    std::vector<std::string> reasons;
    for (const Point& p : points)
      for (const std::string& f : p.flags)
        if (is_interrupted_flag(f)) reasons.push_back(f.substr(4));
    if (!reasons.empty()) info.partial = true, info.partial_reason = fmt::format("{}", fmt::join(reasons, "; "));
    info.warnings.push_back(fmt::format("imported ({}), not measured by bwlab: {}", o.format, fmt::join(o.files, ", ")));
    std::ostringstream s;
    write_json(s, info, points);
    write_file_atomically(o.json, s.str());
  }
  for (const std::string& line : summary) fmt::print("{}\n", line);
  for (const std::string& n : notes) print_stderr_line("note: " + n);
  // Several machines in one output: plots set their curves side by side as if of one machine.
  if (all_cpus.size() > 1)
    fmt::print(stderr,
               "warning: the points come from {} CPUs ({}): verdict and compare judge each host apart, but a plot "
               "overlays them; import one machine's table per file to keep them apart\n",
               all_cpus.size(), fmt::join(all_cpus, ", "));
  fmt::print("wrote {} to {}{}{}\n", count_of(points.size(), "point"), o.csv, !o.csv.empty() && !o.json.empty() ? " and " : "",
             o.json);
  return 0;
}

}  // namespace bwlab::cli
