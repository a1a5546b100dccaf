// SPDX-License-Identifier: MIT
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/insight/html_report.hpp"
#include "core/insight/verdict.hpp"
#include "core/report/scenario_table.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab {
namespace {

using testing::add_pair;
using testing::base64_decode;
using testing::check_balanced;
using testing::make_run;
using testing::make_point;
using testing::MiB;

// The Points section of a report (everything after its heading).
std::string points_section(const std::string& html) {
  const std::size_t at = html.find("<h2>Points</h2>");
  return at == std::string::npos ? std::string() : html.substr(at);
}

// Whether `cells` appear as table cells of one row, in order, in `html`.
bool has_row(const std::string& html, const std::vector<std::string>& cells) {
  for (std::size_t row = html.find("<tr>"); row != std::string::npos; row = html.find("<tr>", row + 1)) {
    const std::size_t end = html.find("</tr>", row);
    std::size_t pos = row;
    bool all = true;
    for (const std::string& c : cells) {
      std::string needle(1, '>');  // built in steps: GCC 12 warns (-Wrestrict) on ">" + std::string
      needle.append(xml_escape(c)).append("</t");
      const std::size_t at = html.find(needle, pos);
      if (at == std::string::npos || at > end) {
        all = false;
        break;
      }
      pos = at + c.size();
    }
    if (all) return true;
  }
  return false;
}

// tlbflush points as the runner writes them: no GB/s (NaN), ns per munmap call and per read.
std::vector<Point> tlbflush_points() {
  std::vector<Point> pts;
  for (int k : {0, 1})
    for (int e : {1, 8}) {
      Point p = make_point("munmap", 1 + k, 64 * 1024, 1.0);
      p.scenario = "tlbflush";
      p.traffic_class = "os";
      p.fill.clear();
      p.gbps_median = p.gbps_min = p.gbps_max = p.gbps_pstdev_pct = Point::kNone;
      p.gbps_per_thread_median = p.thread_fairness = Point::kNone;
      p.peer_threads = k;
      p.entries = e;
      p.munmap_ns_median = 3000.0 + 1000.0 * e + 7.0 * k;
      p.munmap_ns_pstdev_pct = 4.5;
      p.munmap_calls_median = 400.0 + e;
      if (k > 0) {
        p.reader_ns_median = 30.25 + e;
        p.reader_ns_pstdev_pct = 2.5;
        p.reader_alone_ns = 22.5;
      }
      pts.push_back(p);
    }
  return pts;
}

TEST(Base64, KnownVectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(ReportChartSpecs, OneChartPerThreadCountAndTwoAgainstThreads) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "avx512-nt", {8, 12, 12}, 1);
  add_pair(pts, "stosb", {18, 18, 18}, "avx512-nt", {16, 22, 22}, 2);
  const auto specs = report_chart_specs(pts);
  // 2 thread counts -> 2 charts against size; 2 thread counts -> against threads at the smallest and largest size.
  ASSERT_EQ(specs.size(), 4u);
  int against_size = 0;
  for (const auto& s : specs) {
    against_size += s.against_size;
    EXPECT_EQ(s.scenario, "scaling");
    ASSERT_FALSE(s.points.empty());
    for (const Point& p : s.points) {
      if (s.against_size) EXPECT_EQ(p.threads, s.points.front().threads) << s.title;
      else EXPECT_EQ(p.size_bytes, s.points.front().size_bytes) << s.title;
    }
  }
  EXPECT_EQ(against_size, 2);
  // Against threads first: the scaling is what a report is read for.
  EXPECT_EQ(specs.front().title.rfind("GB/s against threads, ", 0), 0u) << specs.front().title;
  EXPECT_NE(specs[2].title.find("1 thread ("), std::string::npos) << specs[2].title;
  // Victim rows: the victim's GB/s against the aggressor count k (the title said "GB/s against
  // threads" over a k axis).
  std::vector<Point> victims = pts;
  for (Point& p : victims) p.scenario = "victim", p.peer_threads = p.threads - 1;
  const auto victim_specs = report_chart_specs(victims);
  ASSERT_EQ(victim_specs.size(), 4u);
  EXPECT_EQ(victim_specs.front().title.rfind("the victim's GB/s against aggressor threads k, ", 0), 0u)
      << victim_specs.front().title;
  EXPECT_NE(victim_specs[2].title.find("the victim's GB/s against size, k = 0 ("), std::string::npos)
      << victim_specs[2].title;
  // tlbflush rows hold ns, not GB/s: never charted.
  for (Point& p : pts) p.scenario = "tlbflush";
  EXPECT_TRUE(report_chart_specs(pts).empty());
}

// A simulation at 1..104 threads gave 24 charts against size (1T .. 24T, cut silently at 24) and
// none against threads: now the threads charts come first, the size charts are thinned to six
// thread counts (the fewest, powers of two, the most) and what was left out is said.
TEST(ReportChartSpecs, ManyThreadCountsThinTheSizeChartsAndSaySo) {
  std::vector<Point> pts;
  for (int t = 1; t <= 104; ++t)
    for (std::uint64_t size : {16 * MiB, 1024 * MiB}) pts.push_back(make_point("stosb", t, size, 1.0 * t));
  std::vector<std::string> left_out;
  const auto specs = report_chart_specs(pts, &left_out);
  ASSERT_EQ(specs.size(), 8u);
  EXPECT_FALSE(specs[0].against_size);
  EXPECT_FALSE(specs[1].against_size);
  std::vector<int> size_chart_threads;
  for (std::size_t i = 2; i < specs.size(); ++i) {
    ASSERT_TRUE(specs[i].against_size) << specs[i].title;
    size_chart_threads.push_back(specs[i].points.front().threads);
  }
  EXPECT_EQ(size_chart_threads, (std::vector<int>{1, 2, 4, 16, 32, 104}));
  ASSERT_EQ(left_out.size(), 1u);
  EXPECT_NE(left_out[0].find("at 98 of the 104 thread counts (drawn: 1, 2, 4, 16, 32, 104;"), std::string::npos)
      << left_out[0];
  const std::string html = render_html_report(make_run("h"), pts, "s.json", "v", {}, left_out);
  EXPECT_NE(html.find("<li>GB/s against size at 98 of the 104 thread counts"), std::string::npos);
  EXPECT_EQ(check_balanced(html), "");
  // The same as victim rows: what was left out is named as aggressor counts k = threads - 1.
  std::vector<Point> victims = pts;
  for (Point& p : victims) p.scenario = "victim", p.peer_threads = p.threads - 1;
  report_chart_specs(victims, &left_out);
  ASSERT_EQ(left_out.size(), 1u);
  EXPECT_NE(left_out[0].find("the victim's GB/s against size at 98 of the 104 aggressor counts (drawn: k = 0, 1, 3, "
                             "15, 31, 103;"),
            std::string::npos)
      << left_out[0];
  // Six thread counts or fewer: every one charted, nothing said.
  std::vector<Point> few;
  for (int t : {1, 3, 5, 7, 9, 11})
    for (std::uint64_t size : {16 * MiB, 1024 * MiB}) few.push_back(make_point("stosb", t, size, 1.0 * t));
  EXPECT_EQ(report_chart_specs(few, &left_out).size(), 8u);
  EXPECT_TRUE(left_out.empty());
  // The threads charts left out are named when few: "at 256MiB", not "at the 1 sizes between".
  for (int t : {1, 3})
    for (std::uint64_t size : {64 * MiB, 256 * MiB}) few.push_back(make_point("stosb", t, size, 1.0 * t));
  (void)report_chart_specs(few, &left_out);
  ASSERT_FALSE(left_out.empty());
  EXPECT_EQ(left_out[0].rfind("GB/s against threads at 64MiB, 256MiB (", 0), 0u) << left_out[0];
  for (std::uint64_t size : {128 * MiB, 512 * MiB})
    for (int t : {1, 3}) few.push_back(make_point("stosb", t, size, 1.0 * t));
  (void)report_chart_specs(few, &left_out);
  EXPECT_EQ(left_out[0].rfind("GB/s against threads at the 4 sizes between 16MiB and 1GiB (", 0), 0u) << left_out[0];
}

// A partial (interrupted) run says so in the heading and above the fold, not only in a table row.
TEST(HtmlReport, PartialRunSaysSoInTheHeading) {
  RunInfo run = make_run("h");
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "avx512-nt", {8, 12, 12}, 1);
  const std::string whole = render_html_report(run, pts, "r.json", "v", {});
  EXPECT_EQ(whole.find("partial run"), std::string::npos);
  EXPECT_EQ(whole.find("Partial run"), std::string::npos);
  run.partial = true, run.partial_reason = "interrupted by SIGINT after 6 finished points";
  const std::string part = render_html_report(run, pts, "r.json", "v", {});
  EXPECT_NE(part.find("<h1>bwlab report: h (partial run)</h1>"), std::string::npos);
  EXPECT_NE(part.find("Partial run: interrupted by SIGINT after 6 finished points."), std::string::npos);
  EXPECT_EQ(check_balanced(part), "");
}

TEST(HtmlReport, SelfContainedWellFormedWithEmbeddedImages) {
  RunInfo run = make_run("evil<script>alert(1)</script>&host");
  run.warnings = {"running in a VM: <expect> noise"};
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "avx512-nt", {8, 12, 12}, 1);
  add_pair(pts, "stosb", {18, 18, 18}, "avx512-nt", {16, 22, 22}, 2);
  // The charts arrive drawn (headless renders them with the GUI's plot); the page embeds them as they are.
  std::vector<RenderedChart> charts;
  for (const auto& spec : report_chart_specs(pts))
    charts.push_back({spec.title, "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>" + xml_escape(spec.title) +
                                      " & " + std::to_string(charts.size()) + "</text></svg>"});
  const std::string html = render_html_report(run, pts, "run.json", "Recommendation: NT good. <pre> & more", charts);

  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(check_balanced(html), "");
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("evil&lt;script&gt;alert(1)&lt;/script&gt;&amp;host"), std::string::npos);
  EXPECT_NE(html.find("&lt;expect&gt;"), std::string::npos);
  EXPECT_NE(html.find("Recommendation: NT good. &lt;pre&gt; &amp; more"), std::string::npos);
  // No external resources: no links, scripts or remote sources.
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);

  // Every chart, in order, byte for byte, behind its escaped title.
  const std::string prefix = "src=\"data:image/svg+xml;base64,";
  std::size_t images = 0;
  for (std::size_t pos = 0; (pos = html.find(prefix, pos)) != std::string::npos; ++images) {
    pos += prefix.size();
    const std::size_t end = html.find('"', pos);
    ASSERT_LT(images, charts.size());
    EXPECT_EQ(base64_decode(html.substr(pos, end - pos)), charts[images].svg);
    EXPECT_NE(html.find("<h3>" + xml_escape(charts[images].title) + "</h3>"), std::string::npos);
  }
  EXPECT_EQ(images, 4u);
  EXPECT_EQ(html.find("<polyline"), std::string::npos);  // no chart drawn by hand in core
  EXPECT_NE(html.find("measured: median of the repetitions with min..max and population stdev"), std::string::npos);
  EXPECT_EQ(html.find("uncertainty band"), std::string::npos);

  // Simulated points: the band is the model's, and there were no repetitions.
  for (Point& p : pts) p.source = "simulated";
  const std::string sim = render_html_report(run, pts, "sim.json", "v", charts);
  EXPECT_NE(sim.find("simulated: the model's prediction with its uncertainty band as min..max (no repetitions)"),
            std::string::npos);
  EXPECT_EQ(sim.find("median of the repetitions"), std::string::npos);
  // The plots' bars too: a model band, not min..max over repetitions.
  EXPECT_NE(sim.find("Simulated points: the model"), std::string::npos) << sim;
  EXPECT_NE(sim.find("the vertical bars span its uncertainty band"), std::string::npos) << sim;
  EXPECT_EQ(sim.find("over the repetitions"), std::string::npos) << sim;
  EXPECT_NE(html.find("Measured points: the median GB/s, the vertical bars span min..max over the repetitions"),
            std::string::npos);
  // The points table: no repetitions and no pstdev for a prediction, its band named in the header.
  EXPECT_NE(sim.find("<th>min (simulated: model band)</th>"), std::string::npos) << sim;
  EXPECT_NE(sim.find(">model</td>"), std::string::npos) << sim;
  EXPECT_NE(html.find("<td class=\"n\">5</td>"), std::string::npos) << html;  // a measurement's reps are shown
  EXPECT_EQ(html.find("(simulated: model band)"), std::string::npos) << html;
}

TEST(HtmlReport, SaysSoWhenThereIsNothingToPlot) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10}, "avx512-nt", {8}, 1);  // one size, one thread count
  EXPECT_TRUE(report_chart_specs(pts).empty());
  const std::string html = render_html_report(make_run("h"), pts, "run.json", "v", {});
  EXPECT_NE(html.find("Nothing to plot"), std::string::npos);
  EXPECT_EQ(html.find("data:image/svg+xml"), std::string::npos);
}

TEST(HtmlReport, TlbflushShowsItsNsFiguresAndNoNan) {
  const std::vector<Point> pts = tlbflush_points();
  const std::string html = render_html_report(make_run("h"), pts, "tlb.json", "No verdict.", {});
  EXPECT_EQ(check_balanced(html), "");
  const std::string points = points_section(html);
  // Its own columns, not GB/s: k readers, E, munmap ns per call, reader ns per read, alone, cost.
  for (const char* head : {"k readers", "E", "munmap ns/call (+- pstdev)", "calls/rep", "reader ns/read (+- pstdev)",
                           "alone ns", "cost ns"})
    EXPECT_NE(points.find(fmt::format("<th>{}</th>", head)), std::string::npos) << head;
  EXPECT_EQ(points.find("GB/s"), std::string::npos) << points;
  // Every point's figures, as the terminal table prints them (scenario_table.cpp computes them).
  const ScenarioRows own = scenario_rows(pts);
  ASSERT_EQ(own.rows.size(), pts.size() + 1);
  for (std::size_t i = 1; i < own.rows.size(); ++i) EXPECT_TRUE(has_row(points, own.rows[i])) << own.rows[i][2];
  EXPECT_TRUE(has_row(points, {"1", "8", "11007 (+-  4.5%)", "408", "38.25 (+-  2.5%)", "22.50", "+15.75"}));
  // The window's bytes are the unmapper's pages, mapped and unmapped: nothing was cleared.
  EXPECT_NE(points.find("<th>reps</th><th>window</th><th>unmapped per window</th>"), std::string::npos) << points;
  EXPECT_EQ(points.find("cleared"), std::string::npos) << points;
  // Nor GB/s anywhere before the table: the preamble and the Plots section spoke of GB/s and bars.
  EXPECT_EQ(html.find("GB = 1e9 bytes"), std::string::npos) << html.substr(0, 2000);
  EXPECT_EQ(html.find("median GB/s"), std::string::npos);
  // No NaN anywhere (GB/s of a tlbflush point is NaN), and the plots say why there are none.
  for (const char* nan : {"nan", "NaN"}) EXPECT_EQ(html.find(nan), std::string::npos) << nan;
  EXPECT_NE(html.find("tlbflush points hold ns per call and per read, not GB/s"), std::string::npos);
  // `bwlab report` prints the same reason (it said "no context has two sizes or two thread counts"
  // over a run of 2 thread counts and 3 entry counts).
  EXPECT_EQ(no_chart_reason(pts), "tlbflush points hold ns per call and per read, not GB/s");
  // The verdict section says why there is nothing to decide, without advice tlbflush refuses
  // ("measure e.g. --kernels stosb,movnti": --kernels does not apply to it).
  const std::string why = no_verdict_reason(pts);
  EXPECT_NE(why.find("tlbflush rows measure the kernel's own work"), std::string::npos) << why;
  EXPECT_EQ(why.find("measure e.g."), std::string::npos) << why;
  std::vector<Point> one;
  add_pair(one, "stosb", {10}, "avx512-nt", {8}, 1);
  EXPECT_EQ(no_chart_reason(one), "no context has two sizes or two thread counts");
}

TEST(HtmlReport, ScenarioPointsShowTheirOwnColumns) {
  std::vector<Point> pts;
  for (int k : {0, 2}) {  // victim stosb beside k movnti aggressors
    Point p = make_point("stosb", 1 + k, 64 * MiB, 10.0 - k);
    p.scenario = "victim", p.role = "victim", p.peer_kernel = "movnti", p.peer_threads = k;
    p.slowdown_pct = k == 0 ? 0.0 : 20.0;
    p.peer_gbps_median = k == 0 ? Point::kNone : 7.25;
    pts.push_back(p);
  }
  for (const char* kernel : {"stosb", "movnti"}) {  // mix stosb:1,movnti:1
    Point p = make_point(kernel, 1, 64 * MiB, kernel[0] == 's' ? 6.5 : 3.25);
    p.scenario = "mix", p.role = "mix", p.peer_kernel = kernel[0] == 's' ? "movnti" : "stosb", p.peer_threads = 1;
    p.peer_gbps_median = kernel[0] == 's' ? 3.25 : 6.5;
    pts.push_back(p);
  }
  Point pf = make_point("pagefault", 2, 64 * MiB, 2.5);
  pf.scenario = "pagefault", pf.traffic_class = "os", pf.pages = "thp";
  pf.faults_per_s = 123456, pf.faults_median = 64, pf.pages_touched_median = 32768, pf.huge_pct = 97;
  pts.push_back(pf);

  const std::string html = render_html_report(make_run("h"), pts, "run.json", "v", {});
  EXPECT_EQ(check_balanced(html), "");
  const std::string points = points_section(html);
  for (const char* scenario : {"victim", "mix", "pagefault"}) {
    EXPECT_NE(points.find(fmt::format("<h3>{}</h3>", scenario)), std::string::npos) << scenario;
    std::vector<Point> group;
    for (const Point& p : pts)
      if (p.scenario == scenario) group.push_back(p);
    const ScenarioRows own = scenario_rows(group);
    ASSERT_EQ(own.rows.size(), group.size() + 1) << scenario;
    for (const std::string& head : own.rows.front())
      EXPECT_NE(points.find("<th>" + xml_escape(head) + "</th>"), std::string::npos) << head;
    for (std::size_t i = 1; i < own.rows.size(); ++i)
      EXPECT_TRUE(has_row(points, own.rows[i])) << scenario << " row " << i;
  }
  // The figures a reader looks for: the aggressor kernel and k, the slowdown, the mix partner, faults/s.
  EXPECT_TRUE(has_row(points, {"stosb", "movnti", "64MiB", "zero", "2", "8.00 (+-  0.5%)", "20.0%", "7.25"}));
  EXPECT_TRUE(has_row(points, {"movnti", "64MiB", "zero", "1", "3.25 (+-  0.5%)", "3.25", "1.00", "stosb", "6.50"}));
  EXPECT_TRUE(has_row(points, {"thp", "64MiB", "2", "2.50 (+-  0.5%)", "123456", "64", "32768", "97"}));
  // A pagefault window's bytes were made ready by faults, not cleared by a kernel; victim and mix
  // windows were cleared.
  const std::size_t pf_at = points.find("<h3>pagefault</h3>");
  ASSERT_NE(pf_at, std::string::npos);
  EXPECT_NE(points.find("<th>made ready per window</th>", pf_at), std::string::npos) << points;
  EXPECT_EQ(points.find("<th>cleared per window</th>", pf_at), std::string::npos) << points;
  EXPECT_LT(points.find("<th>cleared per window</th>"), pf_at) << points;
  EXPECT_EQ(html.find("nan"), std::string::npos);
  EXPECT_EQ(points.find("(simulated: model band)"), std::string::npos);

  // Predicted victim and mix points: no repetitions ("reps 0" was shown) and a model band, said as
  // such (it was headed "GB/s min").
  for (Point& p : pts) p.source = "simulated", p.reps = 0;
  const std::string sim = points_section(render_html_report(make_run("h"), pts, "sim.json", "v", {}));
  EXPECT_NE(sim.find("<th>GB/s min (simulated: model band)</th><th>GB/s max (simulated: model band)</th>"),
            std::string::npos)
      << sim;
  EXPECT_TRUE(has_row(sim, {"simulated", "stosb", "movnti", "64MiB", "zero", "2", "model", "-", "-"})) << sim;
}

TEST(HtmlReport, ScalingPointsKeepTheGbpsTable) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 12}, "movnti", {8, 14}, 1);
  for (Point& p : pts) p.duration_ms = 30, p.bytes_median = 3.0 * (1u << 30);
  const std::string points = points_section(render_html_report(make_run("h"), pts, "run.json", "v", {}));
  EXPECT_NE(points.find("<th>GB/s median</th>"), std::string::npos);
  EXPECT_EQ(points.find("<h3>"), std::string::npos);  // one scenario: no sub-heading
  // The timed window and the bytes cleared in it: they were in the command line only.
  EXPECT_NE(points.find("<th>reps</th><th>window</th><th>cleared per window</th>"), std::string::npos) << points;
  EXPECT_TRUE(has_row(points, {"measured", "scaling", "movnti", "non-temporal", "zero", "1", "8MiB", "5", "30 ms",
                               "3GiB", "14.00", "13.86", "14.14", "0.5"}));
}

TEST(HtmlReport, ImportedRunSaysWhereItCameFromInsteadOfAnEmptyHost) {
  // What bwlab import writes: a run with no host, CPU or system of its own (nothing was measured),
  // points stating the machine they came from, one figure each (no min..max, no window).
  RunInfo run;
  run.bwlab_version = "test";
  run.date = "2026-01-01T00:00:00Z";
  run.command_line = "bwlab import lkml-table seed.txt --json seed.json";
  run.warnings = {"imported (lkml-table), not measured by bwlab: seed.txt"};
  std::vector<Point> pts;
  add_pair(pts, "stosb", {20, 10}, "movnti", {6, 6}, 1);
  for (Point& p : pts) {
    p.source = "imported", p.host = "Oracle X8-2", p.cpu_model = "Intel Xeon Platinum 8270CL";
    p.placement.clear(), p.membind.clear(), p.pages.clear();
    p.gbps_min = p.gbps_max = p.duration_ms = Point::kNone;
    p.origin_file = "seed.txt", p.origin_format = "lkml-table", p.origin_microcode = "0x5002f01";
  }
  // The chart titles say what is unknown instead of leaving blanks ("fill zero,   ").
  const auto specs = report_chart_specs(pts);
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].title, "GB/s against size, 1 thread (imported, scaling, fill zero, placement, memory and pages not stated)");
  const std::string html = render_html_report(run, pts, "seed.json", "v", {});
  EXPECT_EQ(check_balanced(html), "");
  EXPECT_NE(html.find("<title>bwlab report: Oracle X8-2 (imported from seed.txt)</title>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>host</th><td>Oracle X8-2 (imported from seed.txt)</td></tr>"), std::string::npos)
      << html;
  EXPECT_NE(html.find("<tr><th>CPU</th><td>Intel Xeon Platinum 8270CL (as stated; family, model and stepping "
                      "unknown)</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>0x5002f01 (as stated above the imported table)</td>"), std::string::npos);
  // What nobody stated reads "unknown", never an empty cell; a missing figure reads "-", never nan.
  const std::size_t run_at = html.find("<h2>Run</h2>");
  const std::string run_table = html.substr(run_at, html.find("</table>", run_at) - run_at);
  EXPECT_EQ(run_table.find("<td></td>"), std::string::npos) << run_table;
  EXPECT_NE(html.find("<tr><th>kernel</th><td>unknown</td></tr>"), std::string::npos);
  EXPECT_EQ(html.find("nan"), std::string::npos);
  // The opening sentence says what an imported figure is, not "median of the repetitions".
  EXPECT_NE(html.find("imported: the figures as the source printed them"), std::string::npos);
  EXPECT_EQ(html.find("median of the repetitions"), std::string::npos);

  // Imported points without a host of their own: where they were imported from is still said (the
  // row read "host host not stated").
  for (Point& p : pts) p.host.clear();
  EXPECT_NE(render_html_report(run, pts, "seed.json", "v", {})
                .find("<tr><th>host</th><td>unnamed host (imported from seed.txt)</td></tr>"),
            std::string::npos);
}

}  // namespace
}  // namespace bwlab
