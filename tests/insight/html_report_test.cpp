// SPDX-License-Identifier: MIT
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/insight/html_report.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab {
namespace {

using testing::add_pair;
using testing::base64_decode;
using testing::check_balanced;
using testing::make_run;

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
  EXPECT_NE(specs.front().title.find("1 thread ("), std::string::npos) << specs.front().title;
  // tlbflush rows hold ns, not GB/s: never charted.
  for (Point& p : pts) p.scenario = "tlbflush";
  EXPECT_TRUE(report_chart_specs(pts).empty());
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
}

TEST(HtmlReport, SaysSoWhenThereIsNothingToPlot) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10}, "avx512-nt", {8}, 1);  // one size, one thread count
  EXPECT_TRUE(report_chart_specs(pts).empty());
  const std::string html = render_html_report(make_run("h"), pts, "run.json", "v", {});
  EXPECT_NE(html.find("Nothing to plot"), std::string::npos);
  EXPECT_EQ(html.find("data:image/svg+xml"), std::string::npos);
}

}  // namespace
}  // namespace bwlab
