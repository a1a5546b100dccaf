// SPDX-License-Identifier: MIT
// `bwlab export --format gbench IN.json|IN.csv -o OUT.json`: a bwlab run in another tool's format.
#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/insight/load.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/gbench_json.hpp"
#include "core/report/plural.hpp"
#include "core/sweep/suggest.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

namespace {

struct ExportArgs {
  std::string format = "gbench";
  std::string file;
  std::string out;
};

}  // namespace

std::span<const std::string_view> export_formats() {
  static constexpr std::string_view kFormats[] = {"gbench"};
  return kFormats;
}

namespace {

int export_command(const ExportArgs& o) {
  if (std::find(export_formats().begin(), export_formats().end(), o.format) == export_formats().end()) {
    const std::vector<std::string> names(export_formats().begin(), export_formats().end());
    const std::string near = nearest_name(o.format, names);
    throw InputError(fmt::format("unknown export format '{}'; {}formats are: {}", o.format,
                                 near.empty() ? "" : fmt::format("did you mean {}? ", near), fmt::join(names, ", ")));
  }
  if (o.out.empty()) throw InputError("export needs --out FILE.json");
  check_not_an_input({"--out", o.out}, {o.file});
  check_output_format({"--out", o.out}, FileFormat::json, "Google Benchmark output");
  check_writable(o.out);
  const LoadedPoints in = load_points(o.file);
  if (in.kind == PointFileKind::fleet_csv)
    throw InputError(fmt::format("{} is a {}: export one host's run at a time (its bwlab JSON or CSV)", o.file,
                                 to_string(in.kind)));
  std::ostringstream s;
  // A CSV's partial run (its last row's flag) stays partial, as a JSON's does (it left unmarked).
  const GbenchExport e = write_gbench_json(s, in.run, in.points, in.run ? std::string() : partial_reason(in));
  if (e.written == 0)
    throw InputError(fmt::format("{}: no point with a GB/s figure to export ({} tlbflush or empty points)", o.file,
                                 e.skipped));
  write_file_atomically(o.out, s.str());
  fmt::print("wrote {} ({}{}{})\n", o.out, count_of(e.written, "benchmark"),
             in.kind == PointFileKind::csv ? ", median aggregates only: a CSV keeps no per-repetition figures" : "",
             e.skipped ? fmt::format(", {} without GB/s left out", count_of(e.skipped, "point")) : "");
  return 0;
}

constexpr const char* kExportFooter = R"(
Examples:
  bwlab run --kernels stosb,movnti --sizes 16M,1G --threads 1,2 --reps 9 --json base.json
  bwlab export --format gbench base.json --out base.gbench.json
  bwlab export --format gbench new.json --out new.gbench.json
  python3 /usr/share/benchmark/compare.py benchmarks base.gbench.json new.gbench.json

gbench writes Google Benchmark's JSON (Debian: libbenchmark-tools' compare.py reads it, with its
Mann-Whitney U test over repetitions; it needs python3-scipy). One benchmark per point, named
kernel/size/threads:N/fill:F (e.g. stosb/1GiB/threads:2/fill:zero), then /scenario:..,
/placement:.., /membind:.., /pages:.. where they differ from a plain compact, local, 4k scaling run.
From a bwlab JSON: one "iteration" entry per repetition plus mean, median, stddev and cv
aggregates; from a CSV (no per-repetition figures): the median aggregate only, with the point's
min, max and pstdev as counters bwlab_gbps_min/_max/_pstdev_pct; every entry has the window as
bwlab_window_ms (bwlab import gbench reads them back). An iteration is one
pass over every counted thread's buffer (size x threads bytes): real_time is that pass at the
repetition's aggregate rate, so lower is faster; bytes_per_second is the aggregate GB/s x 1e9;
cpu_time is not measured and repeats real_time. tlbflush points (no GB/s) are left out.
'bwlab run --json FILE --json-format gbench' writes the same straight from a run.
Exit codes: 0 written, 2 bad input (unknown format, not a bwlab file, a fleet CSV, nothing to export).
)";

}  // namespace

Command add_export_command(CLI::App& app) {
  auto o = std::make_shared<ExportArgs>();
  CLI::App* sub = app.add_subcommand("export", "write a bwlab run in another tool's format (Google Benchmark JSON)");
  sub->add_option("-f,--format", o->format, "gbench: Google Benchmark JSON (the only format, the default)")
      ->capture_default_str();
  sub->add_option("FILE", o->file, "a bwlab JSON (per-repetition figures kept) or CSV")->required();
  sub->add_option("-o,--out", o->out, "the file to write")->required();
  sub->footer(kExportFooter);
  return {sub, [o] { return export_command(*o); }};
}

}  // namespace bwlab::cli
