// SPDX-License-Identifier: MIT
// Terminal manners: width and colour rules, wrapping, the compact table, and the wide table
// kept byte for byte for files and pipes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>

#include <sstream>
#include <string>
#include <vector>

#include "core/report/scenario_table.hpp"
#include "core/report/table.hpp"
#include "core/report/terminal.hpp"
#include "tests/report/table_points.hpp"

namespace bwlab {
namespace {

using testing::lines_of;

// 4 kernels x 2 sizes x 2 thread counts, two of them flagged: a table wider than 100 columns.
inline std::vector<bwlab::Point> golden_points() {
  using bwlab::Point;
  const auto pt = [](const char* kernel, std::uint64_t size, int threads, double gbps, double pstdev) {
    return testing::table_point(kernel, size, threads, "zero", gbps, pstdev);
  };
  std::vector<Point> v;
  const char* kernels[] = {"stosb", "movnti", "avx512-nt", "clzero"};
  int i = 0;
  for (std::uint64_t size : {16ull << 20, 1ull << 30})
    for (int t : {1, 2})
      for (const char* k : kernels) {
        v.push_back(pt(k, size, t, 10.0 + 3.1 * i, 1.0 + 2.3 * (i % 7)));
        ++i;
      }
  v[1].flags = {"unstable: 16.8% pstdev of GB/s over 5 reps, try --reps 11 or a longer --duration"};
  v[6].flags = {"window 370 ms for --duration 200 ms: threads were held up (preempted by the host or other tasks?)"};
  return v;
}

// print_table's output for golden_points() before terminal styles existed (commit 6c36e4c,
// printed by that commit's table.cpp): files and pipes must keep getting exactly this, with
// two later changes: the legend names the speedup columns' baseline, and a row holding a flagged
// point ends with "!" as the compact table's lines do (a steady disturbance has a small spread).
const char* const kGoldenWide = R"(bwlab: measured, 5 reps of 200 ms per point, GB = 1e9 bytes, aggregate over threads (sum of per-thread rates); placement compact, memory local, pages 4k; speedup: each kernel against stosb, the first
                         stosb (5 reps)    movnti (5 reps)  avx512-nt (5 reps)    clzero (5 reps)  speedup    speedup  speedup
 size  threads  fill   GB/s (+- pstdev)   GB/s (+- pstdev)    GB/s (+- pstdev)   GB/s (+- pstdev)   movnti  avx512-nt   clzero
16MiB        1  zero  10.00 (+-  1.00%)  13.10 (+-  3.30%)   16.20 (+-  5.60%)  19.30 (+-  7.90%)   +31.0%     +62.0%   +93.0%  !
16MiB        2  zero  22.40 (+- 10.20%)  25.50 (+- 12.50%)   28.60 (+- 14.80%)  31.70 (+-  1.00%)   +13.8%     +27.7%   +41.5%  !
 1GiB        1  zero  34.80 (+-  3.30%)  37.90 (+-  5.60%)   41.00 (+-  7.90%)  44.10 (+- 10.20%)    +8.9%     +17.8%   +26.7%
 1GiB        2  zero  47.20 (+- 12.50%)  50.30 (+- 14.80%)   53.40 (+-  1.00%)  56.50 (+-  3.30%)    +6.6%     +13.1%   +19.7%
! movnti 16MiB 1T zero: unstable: 16.8% pstdev of GB/s over 5 reps, try --reps 11 or a longer --duration
! avx512-nt 16MiB 2T zero: window 370 ms for --duration 200 ms: threads were held up (preempted by the host or other tasks?)
)";

std::string table(const std::vector<Point>& points, const TerminalStyle& style) {
  std::ostringstream out;
  print_table(out, points, style);
  return out.str();
}

TEST(TerminalStyle, PipesAndFilesGetNeitherWidthNorColourWhateverTheEnvironment) {
  const TerminalStyle s = terminal_style(false, 0, "40", nullptr, "xterm-256color");
  EXPECT_EQ(s.width, 0u);
  EXPECT_FALSE(s.color);
}

TEST(TerminalStyle, TtyWidthFromTheTerminalThenColumnsThen80) {
  EXPECT_EQ(terminal_style(true, 132, "40", nullptr, "xterm").width, 132u);
  EXPECT_EQ(terminal_style(true, 0, "72", nullptr, "xterm").width, 72u);
  EXPECT_EQ(terminal_style(true, 0, "abc", nullptr, "xterm").width, 80u);
  EXPECT_EQ(terminal_style(true, 0, nullptr, nullptr, "xterm").width, 80u);
}

TEST(TerminalStyle, ColourOnATtyUnlessNoColorIsSetAndNonEmptyOrTermIsDumb) {
  EXPECT_TRUE(terminal_style(true, 80, nullptr, nullptr, "xterm").color);
  EXPECT_TRUE(terminal_style(true, 80, nullptr, "", "xterm").color);  // no-color.org: empty means unset
  EXPECT_FALSE(terminal_style(true, 80, nullptr, "1", "xterm").color);
  EXPECT_FALSE(terminal_style(true, 80, nullptr, nullptr, "dumb").color);
  EXPECT_EQ(paint(TerminalStyle{80, false}, Tint::flag, "x"), "x");
  EXPECT_EQ(paint(TerminalStyle{80, true}, Tint::error, "x"), "\033[31mx\033[0m");
}

TEST(WrapText, LinesFitAndKeepEveryWordInOrder) {
  const std::string text = "! movnti 16MiB 1T zero: unstable: 16.8% pstdev of GB/s over 5 reps, try --reps 11 or a "
                           "longer --duration and a-very-long-word-that-is-longer-than-the-whole-line-itself-xx";
  const std::string wrapped = wrap_text(text, 30);
  std::string rejoined;
  const auto lines = lines_of(wrapped);
  ASSERT_GT(lines.size(), 3u);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_LE(lines[i].size(), 30u) << lines[i];
    if (i > 0) {
      EXPECT_EQ(lines[i].rfind("  ", 0), 0u) << lines[i];  // continuation indent
    }
  }
  for (const std::string& l : lines) rejoined += l.substr(l.find_first_not_of(' '));
  std::string squeezed;
  for (char c : text)
    if (c != ' ') squeezed += c;
  std::string rejoined_squeezed;
  for (char c : rejoined)
    if (c != ' ') rejoined_squeezed += c;
  EXPECT_EQ(rejoined_squeezed, squeezed);
  EXPECT_EQ(wrap_text("short", 30), "short\n");
  EXPECT_EQ(wrap_text(text, 0), text + "\n");
}

TEST(TerminalTable, FilesAndPipesGetTheWideTableByteForByte) {
  const auto points = golden_points();
  const std::string plain = table(points, TerminalStyle{});
  EXPECT_EQ(plain, kGoldenWide);
  // What a pipe detects, even with COLUMNS exported by the shell.
  EXPECT_EQ(table(points, terminal_style(false, 0, "60", nullptr, "xterm")), plain);
  // A terminal wide enough for the wide table, without colour, gets it too.
  EXPECT_EQ(table(points, TerminalStyle{200, false}), plain);
}

TEST(TerminalTable, CompactUnder100ColumnsFitsEveryLineAndKeepsEveryPoint) {
  const auto points = golden_points();
  const std::string t = table(points, TerminalStyle{80, false});
  EXPECT_NE(t, kGoldenWide);
  const auto lines = lines_of(t);
  for (const std::string& l : lines) EXPECT_LE(l.size(), 80u) << l;
  // One line per point, with its kernel, size, threads, GB/s and spread.
  int point_lines = 0;
  for (const Point& p : points) {
    const std::string gbps = fmt::format("{:.2f}", p.gbps_median);
    for (const std::string& l : lines)
      if (l.rfind(p.kernel + " ", 0) == 0 && l.find(gbps) != std::string::npos) {
        ++point_lines;
        EXPECT_NE(l.find(size_label(p.size_bytes)), std::string::npos) << l;
        EXPECT_NE(l.find(fmt::format("{:.2f}%", p.gbps_pstdev_pct)), std::string::npos) << l;
        EXPECT_EQ(l.back() == '!', !p.flags.empty()) << l;
      }
  }
  EXPECT_EQ(point_lines, static_cast<int>(points.size())) << t;
  EXPECT_NE(t.find("vs stosb"), std::string::npos) << t;
  EXPECT_NE(t.find("+31.0%"), std::string::npos) << t;  // movnti against stosb, 16MiB 1T
  EXPECT_NE(t.find("! movnti 16MiB 1T zero: unstable:"), std::string::npos) << t;
  EXPECT_EQ(t.find('\033'), std::string::npos);
  // A wide terminal still narrower than the wide table (126 columns) gets the compact one.
  for (const std::string& l : lines_of(table(points, TerminalStyle{110, false}))) EXPECT_LE(l.size(), 110u) << l;
}

// The legend says the set-up every point shares and, for predictions, the machine: a table alone
// (a file, -q) said neither, though 256MiB stosb ran 104 GB/s with thp pages and 15-20 with 4k.
TEST(TerminalTable, LegendNamesTheSharedSetUpAndThePredictedMachine) {
  auto points = golden_points();
  for (Point& p : points) p.placement = "scatter", p.pages = "thp";
  const std::string first = lines_of(table(points, TerminalStyle{}))[0];
  EXPECT_NE(first.find("; placement scatter, memory local, pages thp"), std::string::npos) << first;
  EXPECT_EQ(first.find("machine"), std::string::npos) << first;
  points[1].pages = "4k";  // varies: the rows say it, the legend does not claim one
  EXPECT_EQ(lines_of(table(points, TerminalStyle{}))[0].find("pages"), std::string::npos);
  for (Point& p : points) p.source = "simulated", p.reps = 0, p.host = "model:icelake-x-8358";
  EXPECT_NE(lines_of(table(points, TerminalStyle{}))[0].find("; machine icelake-x-8358"), std::string::npos);
}

// --pages thp is a request (madvise): the legend says how much the kernel really backed with huge
// pages, which only the CSV/JSON said (a thp run left in 4 KiB pages measured 4 KiB pages).
TEST(TerminalTable, LegendSaysHowMuchOfAThpRunWasInHugePages) {
  auto points = golden_points();
  for (Point& p : points) p.pages = "thp", p.huge_pct = 100.0;
  EXPECT_NE(lines_of(table(points, TerminalStyle{}))[0].find("pages thp (100% of buffer bytes in huge pages)"),
            std::string::npos);
  points[1].huge_pct = 37.6;
  EXPECT_NE(lines_of(table(points, TerminalStyle{}))[0].find("pages thp (38..100% of buffer bytes in huge pages, by point)"),
            std::string::npos);
  points[1].pages = "4k", points[1].huge_pct = 0.0;  // pages vary: the rows name them, the legend the thp rows' share
  const std::string mixed = lines_of(table(points, TerminalStyle{}))[0];
  EXPECT_NE(mixed.find("; thp rows (100% of buffer bytes in huge pages)"), std::string::npos) << mixed;
  for (Point& p : points) p.pages = "4k";  // 4k rows: nothing to say
  EXPECT_EQ(lines_of(table(points, TerminalStyle{}))[0].find("huge"), std::string::npos);
}

TEST(TerminalTable, ColourOnlyWhenAllowed) {
  auto points = golden_points();
  points[0].source = "simulated";
  points[0].gbps_min = 9, points[0].gbps_max = 11;
  const std::string no_color = table(points, terminal_style(true, 80, nullptr, "1", "xterm"));
  EXPECT_EQ(no_color.find('\033'), std::string::npos) << no_color;
  const std::string coloured = table(points, terminal_style(true, 80, nullptr, nullptr, "xterm"));
  EXPECT_NE(coloured.find("\033[33m! movnti 16MiB 1T zero measured: unstable:"), std::string::npos) << coloured;
  EXPECT_NE(coloured.find("\033[36m"), std::string::npos) << coloured;  // the simulated figure
  EXPECT_NE(coloured.find("\033[0m"), std::string::npos);
  // Wide and coloured: the same table once the escapes are taken out.
  const std::string wide_coloured = table(points, TerminalStyle{300, true});  // the legend is one line
  std::string stripped;
  for (std::size_t i = 0; i < wide_coloured.size(); ++i) {
    if (wide_coloured[i] == '\033') {
      i = wide_coloured.find('m', i);
      continue;
    }
    stripped += wide_coloured[i];
  }
  EXPECT_EQ(stripped, table(points, TerminalStyle{}));
}

TEST(TerminalTable, ScenarioLegendsAndFootnotesWrapAtTheWidth) {
  std::vector<Point> points = golden_points();
  for (Point& p : points) p.scenario = "mix", p.peer_kernel = "stosb";
  std::ostringstream narrow, plain;
  print_scenario_tables(narrow, points, TerminalStyle{80, false});
  print_scenario_tables(plain, points);
  const auto lines = lines_of(narrow.str());
  ASSERT_FALSE(lines.empty());
  EXPECT_LE(lines.front().size(), 80u);
  for (const std::string& l : lines)
    if (l.rfind("! ", 0) == 0 || l.rfind("* ", 0) == 0 || l.rfind("bwlab mix", 0) == 0) {
      EXPECT_LE(l.size(), 80u) << l;
    }
  EXPECT_GT(lines_of(plain.str()).front().size(), 80u);  // files keep the one-line legend
}

}  // namespace
}  // namespace bwlab

namespace bwlab {
namespace {

// verdict's Recommendation ran 200+ columns on an 80-column terminal; its table rows stay whole.
TEST(WrapProse, WrapsProseLinesAndLeavesTableRowsWhole) {
  const std::string prose = "Recommendation: NT slow, for clears that fit in the cache only: every row judged fits.";
  const std::string row = "1        2      3     none in range (up to 1MiB)            1MiB     -51.6%";
  const std::string listed = "  64KiB: none: NT behind at every judged thread count (1T NT behind -61.3%)";
  const std::string out = wrap_prose(prose + "\n" + row + "\n" + listed + "\nlast", 40);
  EXPECT_EQ(out,
            "Recommendation: NT slow, for clears that\n"
            "  fit in the cache only: every row\n"
            "  judged fits.\n" +
                row +
                "\n"
                "  64KiB: none: NT behind at every judged\n"
                "    thread count (1T NT behind -61.3%)\n"
                "last");
  EXPECT_EQ(wrap_prose(prose + "\n", 0), prose + "\n");  // not a terminal: unchanged
  // A tagged line repeats its tag, so every line still greps as a prediction.
  EXPECT_EQ(wrap_prose("[prediction]   16MiB: movnti is level with stosb at 26 threads\n", 40),
            "[prediction]   16MiB: movnti is level\n"
            "[prediction]     with stosb at 26\n"
            "[prediction]     threads\n");
  const std::string row2 = "[prediction] threads  sizes  reps  crossover (NT overtakes, by medians)\n";
  EXPECT_EQ(wrap_prose(row2, 40), row2);
}

}  // namespace
}  // namespace bwlab
