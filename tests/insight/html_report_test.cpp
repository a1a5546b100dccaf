// SPDX-License-Identifier: MIT
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/insight/html_report.hpp"
#include "core/insight/svg_chart.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab {
namespace {

using testing::add_pair;
using testing::make_run;

// Checks that every tag is closed in order (the report is written as well-formed markup:
// void elements self-closed). Returns "" when well formed, else what is wrong.
std::string check_balanced(const std::string& s) {
  std::vector<std::string> open;
  std::size_t pos = 0;
  while ((pos = s.find('<', pos)) != std::string::npos) {
    const std::size_t end = s.find('>', pos);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(pos);
    const std::string tag = s.substr(pos + 1, end - pos - 1);
    pos = end + 1;
    if (tag.empty()) return "empty tag";
    if (tag[0] == '!' || tag[0] == '?') continue;  // doctype, comments
    if (tag.back() == '/') continue;                // self-closed
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes " + (open.empty() ? std::string("nothing") : "<" + open.back() + ">");
      open.pop_back();
      continue;
    }
    open.push_back(tag.substr(0, tag.find_first_of(" \t\n")));
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

std::string base64_decode(const std::string& in) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned buf = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=') break;
    const std::size_t v = alphabet.find(c);
    if (v == std::string::npos) return "<invalid base64>";
    buf = buf << 6 | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buf >> bits) & 0xff));
    }
  }
  return out;
}

TEST(Base64, KnownVectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(Svg, EscapesTextAndLabelsAxes) {
  Chart c;
  c.title = "a <b> & \"c\"";
  c.x_label = "buffer size per thread (bytes, log2 axis)";
  c.y_label = "GB/s";
  c.log2_x = c.x_is_bytes = true;
  c.series = {{"stosb<1>", {{4 << 20, 10, 9, 11}, {8 << 20, 12, 11, 13}}}};
  const std::string svg = render_svg(c);
  EXPECT_EQ(check_balanced(svg), "");
  EXPECT_NE(svg.find("a &lt;b&gt; &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_NE(svg.find("stosb&lt;1&gt;"), std::string::npos);
  EXPECT_NE(svg.find(">4MiB<"), std::string::npos);
  EXPECT_NE(svg.find(">8MiB<"), std::string::npos);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
}

TEST(HtmlReport, SelfContainedWellFormedWithEmbeddedImages) {
  RunInfo run = make_run("evil<script>alert(1)</script>&host");
  run.warnings = {"running in a VM: <expect> noise"};
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "avx512-nt", {8, 12, 12}, 1);
  add_pair(pts, "stosb", {18, 18, 18}, "avx512-nt", {16, 22, 22}, 2);
  const std::string html = render_html_report(run, pts, "run.json", "Recommendation: NT good. <pre> & more");

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

  // Images: 2 thread counts -> 2 charts vs size; 2 thread counts -> vs threads at smallest and largest size.
  const std::string prefix = "src=\"data:image/svg+xml;base64,";
  int images = 0;
  for (std::size_t pos = 0; (pos = html.find(prefix, pos)) != std::string::npos; ++images) {
    pos += prefix.size();
    const std::size_t end = html.find('"', pos);
    const std::string svg = base64_decode(html.substr(pos, end - pos));
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u) << svg.substr(0, 80);
    EXPECT_EQ(check_balanced(svg), "") << svg;
    EXPECT_NE(svg.find("GB/s"), std::string::npos);
    EXPECT_NE(svg.find("stosb"), std::string::npos);
    EXPECT_NE(svg.find("avx512-nt"), std::string::npos);
  }
  EXPECT_EQ(images, 4);
  EXPECT_EQ(report_charts(pts).size(), 4u);
}

}  // namespace
}  // namespace bwlab
