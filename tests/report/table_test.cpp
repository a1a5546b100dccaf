// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/report/table.hpp"
#include "core/report/terminal.hpp"
#include "tests/report/table_points.hpp"

namespace bwlab {
namespace {

Point pt(std::string kernel, std::uint64_t size, int threads, std::string fill, double gbps,
         double pstdev_pct = 0.5) {
  return testing::table_point(std::move(kernel), size, threads, std::move(fill), gbps, pstdev_pct);
}

std::string table(const std::vector<Point>& points) {
  std::ostringstream out;
  print_table(out, points);
  return out.str();
}

// The table's rows of `threads` threads at 16MiB (footnotes, which hold ": ", left out).
std::string row_at(const std::string& table_text, int threads) {
  std::istringstream in(table_text);
  for (std::string l; std::getline(in, l);)
    if (l.find(fmt::format(" {} ", threads)) != std::string::npos && l.find("16MiB") != std::string::npos &&
        l.find(": ") == std::string::npos)
      return l;
  return {};
}

TEST(Table, TwoKernelsWithSpeedupAndMissingCell) {
  const std::vector<Point> points = {
      pt("stosb", 16ull << 20, 1, "zero", 17.35, 9.27),
      pt("movnti", 16ull << 20, 1, "zero", 11.83, 0.19),
      pt("stosb", 1ull << 30, 2, "zero", 20.0),
  };
  const std::string t = table(points);
  EXPECT_NE(t.find("bwlab: measured, 5 reps of 200 ms per point, GB = 1e9 bytes, aggregate over "
                   "threads (sum of per-thread rates)"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("stosb (5 reps)"), std::string::npos) << t;
  EXPECT_NE(t.find("movnti (5 reps)"), std::string::npos) << t;
  EXPECT_NE(t.find("speedup"), std::string::npos) << t;
  EXPECT_NE(t.find("-31.8%"), std::string::npos) << t;
  EXPECT_NE(t.find("17.35 (+-  9.27%)"), std::string::npos) << t;
  EXPECT_NE(t.find("16MiB"), std::string::npos) << t;
  EXPECT_NE(t.find("1GiB"), std::string::npos) << t;
  EXPECT_NE(t.find(" - "), std::string::npos) << t;  // movnti missing at 1GiB
  EXPECT_NE(t.find("n/a"), std::string::npos) << t;   // no speedup there

  // Aligned: every row of the table body has the same length up to the last column.
  std::istringstream lines(t);
  std::string line;
  std::vector<std::string> body;
  while (std::getline(lines, line))
    if (line.find("MiB") != std::string::npos || line.find("GiB") != std::string::npos)
      body.push_back(line);
  ASSERT_EQ(body.size(), 2u);
  EXPECT_EQ(body[0].size(), body[1].size()) << t;
}

TEST(Table, SingleKernelHasNoSpeedup) {
  const std::string t = table({pt("stosb", 4096, 1, "zero", 5.0)});
  EXPECT_EQ(t.find("speedup"), std::string::npos) << t;
  EXPECT_NE(t.find("4KiB"), std::string::npos) << t;
}

TEST(Table, LegendForMixedSourcesAndWindows) {
  std::vector<Point> points = {pt("stosb", 4096, 1, "zero", 5.0), pt("stosb", 8192, 1, "zero", 5.0)};
  points[1].source = "simulated";
  points[1].reps = 3;
  const std::string t = table(points);
  // The ranges are the measured points' (a prediction has no repetitions); "see CSV" sent the user
  // to a file a run without --csv never wrote.
  EXPECT_NE(t.find("bwlab: measured+simulated, 5 reps of 200 ms per measured point (simulated ones: the model's, no "
                   "repetitions),"),
            std::string::npos)
      << t;
  points[1].source = "measured";
  EXPECT_NE(table(points).find("bwlab: measured, 3..5 reps of 200 ms per point, by point: the reps and duration_ms of "
                               "--csv or --json,"),
            std::string::npos)
      << table(points);
  for (Point& p : points) p.flags = {"reps auto: 1.1% pstdev after 3 reps (target 2%)"};
  points[0].duration_ms = 5;
  EXPECT_NE(table(points).find("3..5 reps of 5..200 ms per point, by point: each point's count in its note below,"),
            std::string::npos)
      << table(points);
}

TEST(Table, TheSameFootnoteAtSeveralThreadCountsIsOneLine) {
  std::vector<Point> points = {pt("stosb", 256ull << 20, 1, "zero", 5.0), pt("stosb", 256ull << 20, 4, "zero", 9.0),
                               pt("stosb", 256ull << 20, 8, "zero", 12.0), pt("movnti", 256ull << 20, 4, "zero", 9.0),
                               pt("movnti", 256ull << 20, 8, "zero", 9.5)};
  for (Point& p : points) p.flags = {"simulated: SMT siblings share a core"};
  points[0].flags.push_back("simulated: 95% of RFO reads evaded");
  const std::string t = table(points);
  // Up to four counts are listed: "1..8T (3 thread counts)" read as every count from 1 to 8.
  EXPECT_NE(t.find("* stosb 256MiB 1, 4 and 8T zero: simulated: SMT siblings share a core\n"), std::string::npos)
      << t;
  EXPECT_NE(t.find("* movnti 256MiB 4T and 8T zero: simulated: SMT siblings share a core\n"), std::string::npos) << t;
  EXPECT_NE(t.find("* stosb 256MiB 1T zero: simulated: 95% of RFO reads evaded\n"), std::string::npos) << t;
  std::size_t lines = 0;
  for (std::size_t at = t.find("\n* "); at != std::string::npos; at = t.find("\n* ", at + 1)) ++lines;
  EXPECT_EQ(lines, 3u) << t;
  // More than four: the range and how many.
  std::vector<Point> many;
  for (int n : {1, 2, 4, 8, 16}) many.push_back(pt("stosb", 256ull << 20, n, "zero", 5.0 * n));
  for (Point& p : many) p.flags = {"simulated: SMT siblings share a core"};
  EXPECT_NE(table(many).find("* stosb 256MiB 1..16T (5 thread counts) zero:"), std::string::npos) << table(many);
}

TEST(Table, FlagsBecomeFootnotes) {
  std::vector<Point> points = {pt("stosb", 16ull << 20, 2, "zero", 5.0)};
  points[0].flags = {"unstable: 7.3% pstdev over 5 reps; try --reps 11"};
  const std::string t = table(points);
  EXPECT_NE(t.find("! stosb 16MiB 2T zero: unstable: 7.3% pstdev over 5 reps; try --reps 11"),
            std::string::npos)
      << t;
}

// "!" marks what the plots ring in red (a point flagged unsteady), "*" a point with notes only
// (how its figure was made): every simulated row and every single-repetition row read "!", so the
// mark that should stop a reader's eye was on every line.
TEST(Table, UnsteadyPointsAreMarkedBangNotesStar) {
  std::vector<Point> points = {pt("stosb", 16ull << 20, 1, "zero", 5.0), pt("stosb", 16ull << 20, 2, "zero", 9.0),
                               pt("stosb", 16ull << 20, 4, "zero", 12.0)};
  points[0].flags = {"single repetition: no spread"};
  points[1].flags = {"unstable: 7.3% pstdev over 5 reps; try --reps 11", "reps auto: 5 reps (target not met)"};
  for (const TerminalStyle& st : {TerminalStyle{}, TerminalStyle{60, false}}) {  // wide and compact
    std::ostringstream out;
    print_table(out, points, st);
    const std::string t = out.str();
    const auto row = [&](int threads) { return row_at(t, threads); };
    EXPECT_TRUE(row(1).ends_with("*")) << t;
    EXPECT_TRUE(row(2).ends_with("!")) << t;
    EXPECT_FALSE(row(4).ends_with("!") || row(4).ends_with("*")) << t;
    EXPECT_NE(t.find("* stosb 16MiB 1T zero: single repetition"), std::string::npos) << t;
    EXPECT_NE(t.find("! stosb 16MiB 2T zero: unstable: 7.3%"), std::string::npos) << t;
    EXPECT_NE(t.find("* stosb 16MiB 2T zero: reps auto: 5 reps"), std::string::npos) << t;
  }
  // A row of two kernels takes the stronger mark; simulated points are notes.
  std::vector<Point> two = {pt("stosb", 16ull << 20, 1, "zero", 5.0), pt("movnti", 16ull << 20, 1, "zero", 6.0)};
  two[0].flags = {"single repetition: no spread"};
  two[1].flags = {"noisy: 2 of 5 windows disturbed"};
  EXPECT_TRUE(row_at(table(two), 1).ends_with("!")) << table(two);
  // Pinned threads seen off their PUs (a taskset during the run) are a caution too.
  two[1].flags = {"not pinned: thread 1 was seen on PU 0, planned 1 (ran off its PU in 3 of 3 windows)"};
  EXPECT_TRUE(row_at(table(two), 1).ends_with("!")) << table(two);
  EXPECT_NE(table(two).find("! movnti 16MiB 1T zero: not pinned"), std::string::npos) << table(two);
  two[1].flags.clear();
  EXPECT_TRUE(row_at(table(two), 1).ends_with("*")) << table(two);
  for (Point& p : two) p.source = "simulated", p.flags = {"unstable: a model never says this"};
  EXPECT_NE(table(two).find("* movnti"), std::string::npos) << table(two);
}

TEST(Table, SimulatedPointsShowTheirBandNotAPstdev) {
  Point a = pt("stosb", 1u << 30, 1, "zero", 6.96, 0);
  Point b = pt("movnti", 1u << 30, 1, "zero", 6.76, 0);
  for (Point* p : {&a, &b}) {
    p->source = "simulated";
    p->reps = 0;
    p->gbps_min = p->gbps_median / 1.15;
    p->gbps_max = p->gbps_median * 1.15;
  }
  const std::string t = table({a, b});
  EXPECT_NE(t.find("uncertainty band"), std::string::npos) << t;
  EXPECT_NE(t.find("6.96 [6.1..8.0]"), std::string::npos) << t;
  EXPECT_NE(t.find("6.76 [5.9..7.8]"), std::string::npos) << t;
  EXPECT_EQ(t.find("(+-"), std::string::npos) << t;
}

// One kernel's rows end with their marks in one column: the cell's padding was trimmed before the
// mark, so "6.96 [6.1..8.0]  *" stood left of "164.22 [142.8..188.9]  *".
TEST(Table, OneKernelsMarksLineUp) {
  Point a = pt("stosb", 1u << 30, 1, "zero", 6.96, 0);
  Point b = pt("stosb", 1u << 30, 40, "zero", 164.22, 0);
  for (Point* p : {&a, &b}) {
    p->source = "simulated", p->reps = 0, p->flags = {"simulated: 95% of RFO reads evaded"};
    p->gbps_min = p->gbps_median / 1.15, p->gbps_max = p->gbps_median * 1.15;
  }
  const std::string t = table({a, b});
  std::vector<std::size_t> marks;
  std::istringstream in(t);
  for (std::string l; std::getline(in, l);)
    if (l.starts_with("1GiB")) marks.push_back(l.rfind('*'));
  ASSERT_EQ(marks.size(), 2u) << t;
  EXPECT_EQ(marks[0], marks[1]) << t;
  EXPECT_NE(marks[0], std::string::npos) << t;
}

TEST(Table, EmptyInput) { EXPECT_NE(table({}).find("no points"), std::string::npos); }

TEST(FillComparison, RatioLine) {
  const std::vector<Point> points = {
      pt("stosb", 16ull << 20, 1, "zero", 20.1),
      pt("stosb", 16ull << 20, 1, "0xff", 10.6),
      pt("movnti", 16ull << 20, 1, "zero", 11.0),
  };
  std::ostringstream out;
  print_fill_comparison(out, points);
  EXPECT_EQ(out.str(), "fill: stosb 16MiB 1T: zero 20.1 GB/s vs 0xff 10.6 GB/s -> zero is 1.90x\n");
}

// With min..max ranges the ratio says whether it is beyond the noise (it was the one ratio printed
// without a noise judgement: 0.96x between points of 26% and 18% pstdev).
TEST(FillComparison, RatioSaysWhetherTheRangesMeet) {
  std::vector<Point> points = {pt("stosb", 16ull << 20, 1, "zero", 79.1, 26), pt("stosb", 16ull << 20, 1, "0xff", 82.1, 18)};
  points[0].gbps_min = 50, points[0].gbps_max = 90, points[1].gbps_min = 70, points[1].gbps_max = 95;
  std::ostringstream noisy;
  print_fill_comparison(noisy, points);
  EXPECT_EQ(noisy.str(), "fill: stosb 16MiB 1T: zero 79.1 GB/s vs 0xff 82.1 GB/s -> zero is 0.96x (within noise: "
                         "min..max ranges overlap, pstdev 26.0% / 18.0%)\n");
  points[0].gbps_median = 150, points[0].gbps_min = 140, points[0].gbps_max = 160;
  std::ostringstream apart;
  print_fill_comparison(apart, points);
  EXPECT_NE(apart.str().find("-> zero is 1.83x (min..max ranges apart)"), std::string::npos) << apart.str();
}

TEST(FillComparison, NothingWithoutSeveralFills) {
  std::ostringstream out;
  print_fill_comparison(out, std::vector<Point>{pt("stosb", 4096, 1, "zero", 1.0),
                                                pt("movnti", 4096, 1, "0xff", 1.0)});
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace bwlab
