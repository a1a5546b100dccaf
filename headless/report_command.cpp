// SPDX-License-Identifier: MIT
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/insight/glibc_threshold.hpp"
#include "core/insight/html_report.hpp"
#include "core/insight/load.hpp"
#include "core/insight/verdict.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/plural.hpp"
#include "core/sweep/suggest.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/topology/topology.hpp"
#include "gui/plots/offscreen_app.hpp"
#include "gui/plots/svg_chart.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

int report_command(const ReportArgs& o) {
  if (o.out.empty()) throw InputError("report needs --out FILE.html");
  check_not_an_input({"--out", o.out}, {o.file});
  check_writable(o.out);  // first: "--out .html" is a name without its name, not a wrong extension
  // The page is HTML whatever the name: r.png was written as HTML and opened by no image viewer.
  if (const std::string ext = lower_case(std::filesystem::path(o.out).extension().string()); ext != ".html" && ext != ".htm")
    throw InputError(fmt::format("--out {}: the report is an HTML page; use a .html file name", o.out));
  const LoadedPoints in = load_points(o.file);
  if (in.kind != PointFileKind::json)
    throw InputError(fmt::format("{} is a {}: report takes a bwlab JSON file (it carries the run's metadata)", o.file,
                                 to_string(in.kind)));
  if (in.points.empty()) throw InputError(fmt::format("{}: no points (nothing to report)", o.file));
  std::ostringstream verdict;
  const auto verdicts = compute_verdicts(in.points);
  if (verdicts.empty()) {
    verdict << "No verdict: " << no_verdict_reason(in.points) << ".\n";
  } else {
    const std::string here = host_name();
    VerdictOptions vo;
    vo.this_cpu = detect_cpu_features().model_name;  // this host name on another CPU is another machine
    if (same_machine(in.run->host, in.run->cpu_model_name, here, vo.this_cpu)) {
      // As `bwlab verdict` prints it: a call from rows that all fit in this machine's LLC says so
      // (the report said "keep the cacheable stosb for large clears" from 2-8 MiB rows).
      const Topology topo = Topology::local();
      print_verdicts_and_glibc(verdict, verdicts, vo, read_glibc_info(), here, topo.llc_bytes(), topo.llc_count());
    } else if (in.run->llc_bytes > 0) {  // measured on another host (or `run --host`): its own LLC
      print_verdicts_of_another_host(verdict, verdicts, {}, in.run->host, in.run->llc_bytes, in.run->llc_count);
    } else {
      print_verdicts(verdict, verdicts);
      if (in.run->host.empty())  // bwlab import: nothing was measured on any host of the run
        verdict << "\n(glibc's threshold is not shown: the points were imported, not measured by bwlab on this "
                   "machine.)\n";
      else if (std::all_of(in.points.begin(), in.points.end(), [](const Point& p) { return p.source == "simulated"; }))
        verdict << fmt::format("\n(glibc's threshold is not shown: the points are the model's predictions for {}, "
                               "not measured on a machine with a glibc; 'bwlab verdict --machine' with that machine "
                               "(preset or file) sets glibc 2.36's formula on its LLC.)\n",
                               in.run->host);
      else
        verdict << fmt::format("\n(glibc's threshold is not shown: the report is built on {}, the run measured {}; "
                               "run 'bwlab verdict' there.)\n",
                               here, in.run->host);
    }
  }
  // The charts are drawn by the GUI's plot (the same style as `bwlab plot`), offscreen.
  std::vector<RenderedChart> charts;
  std::vector<std::string> left_out;
  {
    const gui::OffscreenApp app;
    for (const ReportChartSpec& spec : report_chart_specs(in.points, &left_out))
      charts.push_back({spec.title, gui::render_svg_chart(spec.points, spec.against_size, spec.scenario)});
  }
  write_file_atomically(o.out, render_html_report(*in.run, in.points, o.file, verdict.str(), charts, left_out));
  // "0 charts, verdict and plots embedded" contradicted itself: without two sizes or two thread
  // counts in a context there is no curve to chart.
  // Nor was a "verdict embedded" where the page says "No verdict: ... nothing to decide".
  const std::string verdict_words = verdicts.empty() ? "no verdict (the page says why)" : "the verdict embedded";
  fmt::print("wrote {} ({}, {}; no external resources)\n", o.out, count_of(in.points.size(), "point"),
             charts.empty() ? fmt::format("no chart ({}), {}", no_chart_reason(in.points), verdict_words)
                            : count_of(charts.size(), "chart") + (verdicts.empty() ? ", " : " and ") + verdict_words);
  for (const std::string& l : left_out) fmt::print("  not charted: {}\n", l);
  return 0;
}

namespace {

constexpr const char* kReportFooter = R"(
Example:
  bwlab report results/latest.json --out report.html

One self-contained HTML page for a bug report: run metadata and warnings, the verdict, plots (GB/s
vs size and vs threads per kernel, drawn like `bwlab plot` and the GUI, SVG embedded as data:
URIs) and every point, one table per scenario with its own columns (victim: aggressor, k,
slowdown; mix: the other kernels; pagefault: faults/s; tlbflush: ns per munmap call and per read,
no GB/s). A file from `bwlab import` shows the host its points state and where they were imported
from. Draws offscreen: no display needed. Exit codes: 0 written, 2 bad input (not a bwlab JSON, a
file with no points, an output that is not .html or cannot be written).
)";

}  // namespace

Command add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportArgs>();
  CLI::App* sub = app.add_subcommand("report", "write a self-contained HTML report of a JSON run");
  sub->add_option("FILE", o->file, "a bwlab JSON file")->required();
  sub->add_option("-o,--out", o->out, "the HTML file to write (.html or .htm)")->required();
  sub->footer(kReportFooter);

  return {sub, [o] { return report_command(*o); }};
}

}  // namespace bwlab::cli
