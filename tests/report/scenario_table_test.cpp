// SPDX-License-Identifier: MIT
// The scenario tables (victim, mix, pagefault, tlbflush) on a terminal: compact within the width,
// one line per point; for files and pipes the wide layout, byte for byte.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/report/scenario_table.hpp"
#include "core/report/table.hpp"
#include "core/report/terminal.hpp"
#include "tests/report/table_points.hpp"

namespace bwlab {
namespace {

using testing::lines_of;

// Synthetic points of one scenario: 2 kernels x 3 counts, the second one flagged.
std::vector<Point> scenario_points(const std::string& scenario) {
  std::vector<Point> v;
  int i = 0;
  for (const char* kernel : {"stosb", "avx512-nt"})
    for (int k : {0, 1, 4}) {
      Point p = testing::table_point(kernel, std::uint64_t{1} << (24 + 3 * (i % 3)), 1 + k, "zero", 10.0 + 3.7 * i,
                                     1.0 + 2.3 * (i % 4));
      p.scenario = scenario;
      p.peer_kernel = scenario == "mix" ? (i < 3 ? "avx512-nt" : "stosb") : "avx512-nt";
      p.peer_threads = k;
      p.slowdown_pct = k == 0 ? 0.0 : 12.5 * k + i;
      p.peer_gbps_median = k == 0 ? NAN : 20.0 + i;
      p.gbps_per_thread_median = p.gbps_median / p.threads;
      p.thread_fairness = 0.9 - 0.01 * i;
      p.pages = i % 2 ? "thp" : "4k";
      p.faults_per_s = 250000.0 + 1000.0 * i;
      p.faults_median = 4096.0 * (i + 1);
      p.pages_touched_median = 4096.0 * (i + 1);
      p.huge_pct = i % 2 ? 98.0 : 0.0;
      p.entries = 1 << (i + 1);
      p.munmap_ns_median = 1500.0 + 700.0 * i;
      p.munmap_ns_pstdev_pct = 3.0 + i;
      p.munmap_calls_median = 10000.0 - 100.0 * i;
      p.reader_ns_median = 2.5 + 0.5 * i;
      p.reader_ns_pstdev_pct = 1.5 + i;
      p.reader_alone_ns = 2.4 + 0.1 * i;
      v.push_back(p);
      ++i;
    }
  v[1].flags = {"unstable: 16.8% pstdev of GB/s over 5 reps, try --reps 11 or a longer --duration"};
  return v;
}

std::string tables(const std::vector<Point>& points, const TerminalStyle& style) {
  std::ostringstream out;
  print_scenario_tables(out, points, style);
  return out.str();
}

std::vector<Point> all_scenarios() {
  std::vector<Point> all;
  for (const char* s : {"victim", "mix", "pagefault", "tlbflush"})
    for (const Point& p : scenario_points(s)) all.push_back(p);
  return all;
}

// print_scenario_tables' output for all_scenarios() before the scenario tables had a compact
// layout (printed by the scenario_table.cpp of commit f9e2bfa): files and pipes keep exactly this,
// but for the mark that now ends a flagged point's row ("  !", as a scaling table's row has it) and
// tlbflush's size column, which leads when the points hold several sizes (their rows of one k and
// E could not be told apart, the legend naming the first size only).
const char* const kGoldenWide = R"gold(bwlab victim: measured, 5 reps of 200 ms per point, GB = 1e9 bytes, placement compact, membind local, pages 4k. One victim thread runs the victim kernel while k aggressor threads run the aggressor kernel; the victim alone (k = 0) is measured in the same run, interleaved; slowdown = how much below alone the victim ran; aggressors GB/s = the k aggressors' sum, median over the same windows (their spread is not kept).
victim     aggressor    size  fill  k  victim GB/s (+- pstdev)  slowdown  aggressors GB/s
stosb      avx512-nt   16MiB  zero  0         10.00 (+-  1.0%)      0.0%                -
stosb      avx512-nt  128MiB  zero  1         13.70 (+-  3.3%)     13.5%            21.00  !
stosb      avx512-nt    1GiB  zero  4         17.40 (+-  5.6%)     52.0%            22.00
avx512-nt  avx512-nt   16MiB  zero  0         21.10 (+-  7.9%)      0.0%                -
avx512-nt  avx512-nt  128MiB  zero  1         24.80 (+-  1.0%)     16.5%            24.00
avx512-nt  avx512-nt    1GiB  zero  4         28.50 (+-  3.3%)     55.0%            25.00
(slowdown: % below the victim's GB/s alone, k = 0; negative = faster than alone)
! victim stosb 128MiB k=1 avx512-nt: unstable: 16.8% pstdev of GB/s over 5 reps, try --reps 11 or a longer --duration

bwlab mix: measured, 5 reps of 200 ms per point, GB = 1e9 bytes, placement compact, membind local, pages 4k. All kernels of the mix run at once in every window; per kernel: the sum of its threads' GB/s and the median thread; fairness = slowest / fastest thread (1 = fair); others GB/s = the other kernels' sum in the same windows (each has its own row, with its spread).
kernel       size  fill  threads  GB/s total (+- pstdev)  GB/s median thread  fairness     others  others GB/s
stosb       16MiB  zero        1        10.00 (+-  1.0%)               10.00      0.90  avx512-nt            -
stosb      128MiB  zero        2        13.70 (+-  3.3%)                6.85      0.89  avx512-nt        21.00  !
stosb        1GiB  zero        5        17.40 (+-  5.6%)                3.48      0.88  avx512-nt        22.00
avx512-nt   16MiB  zero        1        21.10 (+-  7.9%)               21.10      0.87      stosb            -
avx512-nt  128MiB  zero        2        24.80 (+-  1.0%)               12.40      0.86      stosb        24.00
avx512-nt    1GiB  zero        5        28.50 (+-  3.3%)                5.70      0.85      stosb        25.00
! mix stosb 128MiB: unstable: 16.8% pstdev of GB/s over 5 reps, try --reps 11 or a longer --duration

bwlab pagefault: measured, 5 reps of 200 ms per point, placement compact, membind local. Each thread maps fresh anonymous memory, writes one byte per page (4 KiB for 4k and thp, the huge page for hugetlb) so the kernel clears the page in its fault handler, and unmaps. GB/s = bytes made ready / time spent touching (mmap and munmap not timed), GB = 1e9 bytes, sum over threads; faults = the kernel's count (getrusage minflt); huge % = share of the first region found in huge pages (smaps).
pages  region  threads  GB/s made ready (+- pstdev)  faults/s  faults/rep  pages touched/rep  huge %
4k      16MiB        1             10.00 (+-  1.0%)    250000        4096               4096       0
thp    128MiB        2             13.70 (+-  3.3%)    251000        8192               8192      98  !
4k       1GiB        5             17.40 (+-  5.6%)    252000       12288              12288       0
thp     16MiB        1             21.10 (+-  7.9%)    253000       16384              16384      98
4k     128MiB        2             24.80 (+-  1.0%)    254000       20480              20480       0
thp      1GiB        5             28.50 (+-  3.3%)    255000       24576              24576      98
! pagefault thp 128MiB 2T: unstable: 16.8% pstdev of GB/s over 5 reps, try --reps 11 or a longer --duration

bwlab tlbflush: measured, 5 reps of 200 ms per point, placement compact, membind local. One thread maps E pages of 4 KiB, touches each and munmaps them (munmap timed alone, ns per call); k reader threads of the same process each read one 8-byte word per 4 KiB page of their own buffer (the row's size: 16MiB, 128MiB or 1GiB; ns per read). alone = the same readers with the unmapper idle, same run; cost = reader - alone.
  size  k readers   E  munmap ns/call (+- pstdev)  calls/rep  reader ns/read (+- pstdev)  alone ns  cost ns
 16MiB          0   2             1500 (+-  3.0%)      10000             2.50 (+-  1.5%)      2.40    +0.10
128MiB          1   4             2200 (+-  4.0%)       9900             3.00 (+-  2.5%)      2.50    +0.50  !
  1GiB          4   8             2900 (+-  5.0%)       9800             3.50 (+-  3.5%)      2.60    +0.90
 16MiB          0  16             3600 (+-  6.0%)       9700             4.00 (+-  4.5%)      2.70    +1.30
128MiB          1  32             4300 (+-  7.0%)       9600             4.50 (+-  5.5%)      2.80    +1.70
  1GiB          4  64             5000 (+-  8.0%)       9500             5.00 (+-  6.5%)      2.90    +2.10
! tlbflush 128MiB k=1 E=4: unstable: 16.8% pstdev of GB/s over 5 reps, try --reps 11 or a longer --duration
)gold";

TEST(ScenarioTable, FilesAndPipesGetTheWideLayoutByteForByte) {
  EXPECT_EQ(tables(all_scenarios(), TerminalStyle{}), kGoldenWide);
}

TEST(ScenarioTable, WideTerminalKeepsTheWideLayout) {
  // 200 columns fit every wide table: only the legends wrap, the table lines are the file's.
  const std::vector<std::string> wide = lines_of(tables(all_scenarios(), TerminalStyle{200, false}));
  for (const std::string& l : lines_of(kGoldenWide))
    if (l.size() <= 200) {
      EXPECT_NE(std::find(wide.begin(), wide.end(), l), wide.end()) << l;
    }
}

class ScenarioTableAt80 : public ::testing::TestWithParam<const char*> {};

TEST_P(ScenarioTableAt80, EveryLineFitsAndEveryPointHasItsLine) {
  const std::vector<Point> points = scenario_points(GetParam());
  const std::string text = tables(points, TerminalStyle{80, false});
  const std::vector<std::string> lines = lines_of(text);
  for (const std::string& l : lines) EXPECT_LE(l.size(), 80u) << l;
  EXPECT_NE(text, tables(points, TerminalStyle{})) << "no compact layout";
  // One line per point, found by its leading columns and main figure, `!` iff flagged.
  const std::string scenario = GetParam();
  for (const Point& p : points) {
    std::string head, figure;
    if (scenario == "tlbflush") {  // these points hold several sizes: the size column leads
      head = fmt::format("{}  {}", format_bytes(p.size_bytes), p.peer_threads);
      figure = fmt::format(" {}  ", p.entries);
    } else if (scenario == "pagefault") {
      head = p.pages;
      figure = fmt::format(" {:.2f} ", p.gbps_median);
    } else {
      head = p.kernel;
      figure = fmt::format(" {:.2f} ", p.gbps_median);
    }
    const std::string size = format_bytes(p.size_bytes);
    std::size_t found = 0;
    for (const std::string& l : lines) {
      const std::size_t lead = l.find_first_not_of(' ');
      const std::string trimmed = lead == std::string::npos ? l : l.substr(lead);
      if (trimmed.rfind(head + " ", 0) != 0 || l.find(figure) == std::string::npos) continue;
      if (scenario != "tlbflush" && l.find(" " + size + " ") == std::string::npos) continue;
      if (scenario == "tlbflush" && l.find(fmt::format(" {:.0f} ", p.munmap_ns_median)) == std::string::npos) continue;
      ++found;
      EXPECT_EQ(l.back() == '!', !p.flags.empty()) << l;
    }
    EXPECT_EQ(found, 1u) << scenario << " " << head << " " << size << "\n" << text;
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ScenarioTableAt80, ::testing::Values("victim", "mix", "pagefault", "tlbflush"));

// Victim and mix headers say how much of a thp run's buffers were huge, as the scaling legend.
TEST(ScenarioTable, VictimAndMixHeadersSayTheHugePageShareOfAThpRun) {
  for (const char* scenario : {"victim", "mix"}) {
    std::vector<Point> points = scenario_points(scenario);
    for (Point& p : points) p.pages = "thp", p.huge_pct = 96.0 + p.peer_threads;
    const std::string t = tables(points, TerminalStyle{});
    EXPECT_NE(t.find("pages thp (96..100% of buffer bytes in huge pages, by point)."), std::string::npos) << t;
  }
}

// The compact header names its columns as the legend above explains them: it read "aggr GB/s"
// under "aggressors GB/s = ...", and the mix table dropped "others GB/s" the legend explains.
TEST(ScenarioTable, CompactHeadersNameTheColumnsTheLegendExplains) {
  for (const auto& [scenario, header_word, column] :
       {std::tuple{"victim", "slowdown", "aggressors GB/s"}, std::tuple{"mix", "fairness", "others GB/s"}}) {
    const std::string text = tables(scenario_points(scenario), TerminalStyle{80, false});
    const std::vector<std::string> lines = lines_of(text);
    const auto header = std::find_if(lines.begin(), lines.end(), [&](const std::string& l) {
      return l.rfind("bwlab", 0) != 0 && l.find(header_word) != std::string::npos && l.find(" GB/s ") != std::string::npos;
    });
    ASSERT_NE(header, lines.end()) << text;
    EXPECT_NE(header->find(column), std::string::npos) << *header;
  }
}

// Three-digit k and GB/s and a fill column took the compact rows to 83-93 columns at 80: the
// least needed columns are left out, in order, and a line under the table names them.
TEST(ScenarioTable, CompactRowsTooWideLeaveOutColumnsAndSaySo) {
  for (const char* scenario : {"victim", "mix"}) {
    std::vector<Point> points = scenario_points(scenario);
    for (std::size_t i = 0; i < points.size(); ++i) {
      Point& p = points[i];
      p.kernel = i < 3 ? "avx512-store" : "avx512-nt";
      p.peer_kernel = "avx512-store";
      p.fill = i % 2 ? "0x5a" : "zero";
      p.peer_threads = 100 + static_cast<int>(i);
      p.threads = 100 + static_cast<int>(i);
      p.gbps_median = 197.55 + static_cast<double>(i), p.gbps_pstdev_pct = 12.25;
      p.peer_gbps_median = 312.5 + static_cast<double>(i);
      p.slowdown_pct = 95.5;
      p.flags = {"simulated: 95% of RFO reads evaded"};
    }
    const std::string text = tables(points, TerminalStyle{80, false});
    for (const std::string& l : lines_of(text)) EXPECT_LE(l.size(), 80u) << scenario << "\n" << text;
    EXPECT_NE(text.find("(left out for the terminal's width: "), std::string::npos) << text;
    // Each point still has its line: kernel, fill and figure.
    for (const Point& p : points)
      EXPECT_NE(text.find(fmt::format(" {:.2f} ", p.gbps_median)), std::string::npos) << text;
    // Its notes name the fill: two fills' notes had read as one note said twice.
    EXPECT_NE(text.find(std::string(scenario) + " avx512-store 16MiB zero"), std::string::npos) << text;
    // A file or a wide terminal keeps every column, and says nothing of the kind.
    EXPECT_EQ(tables(points, TerminalStyle{}).find("left out for the terminal"), std::string::npos);
  }
}

TEST(ScenarioTable, CompactKeepsTheFillColumnWhenFillsDiffer) {
  std::vector<Point> points = scenario_points("victim");
  points[2].fill = "0xff";
  const std::string text = tables(points, TerminalStyle{80, false});
  for (const std::string& l : lines_of(text)) EXPECT_LE(l.size(), 80u) << l;
  EXPECT_NE(text.find(" 0xff "), std::string::npos) << text;
}

// A point of one repetition has no spread: its cells say "1 rep", as the scaling table's do (they
// read "(+-  0.0%)", a spread of none measured), in the wide and the compact layout alike.
TEST(ScenarioTable, OneRepetitionShowsNoSpread) {
  for (const char* scenario : {"victim", "mix", "pagefault", "tlbflush"}) {
    std::vector<Point> points = scenario_points(scenario);
    for (Point& p : points) p.reps = 1, p.gbps_pstdev_pct = p.munmap_ns_pstdev_pct = p.reader_ns_pstdev_pct = 0.0;
    for (const TerminalStyle& st : {TerminalStyle{}, TerminalStyle{80, false}}) {
      const std::string text = tables(points, st);
      EXPECT_EQ(text.find("(+-  0.0%)"), std::string::npos) << scenario << "\n" << text;
      std::size_t said = 0;  // the legend's "1 rep of 200 ms" and at least one per point
      for (auto at = text.find("1 rep"); at != std::string::npos; at = text.find("1 rep", at + 1)) ++said;
      EXPECT_GT(said, points.size()) << scenario << "\n" << text;
      for (const std::string& l : lines_of(text))  // compact: the pstdev column, not "0.0%" beside the k = 0 slowdown
        if (l.find(" 0.0% ") != std::string::npos && l.find("1 rep") == std::string::npos) ADD_FAILURE() << l;
    }
  }
}

// A victim run of one thread measured only the baseline: the table says no aggressor ran (its rows,
// one per aggressor kernel, each read "k 0, slowdown 0.0%" with nothing said but a stderr warning).
TEST(ScenarioTable, VictimWithoutAggressorsSaysNoneRan) {
  std::vector<Point> alone;
  for (const Point& p : scenario_points("victim"))
    if (p.peer_threads == 0) alone.push_back(p);
  ASSERT_FALSE(alone.empty());
  const std::string none_ran = "no aggressor ran: every row is the victim alone";
  for (const TerminalStyle& st : {TerminalStyle{}, TerminalStyle{200, false}}) {
    EXPECT_NE(tables(alone, st).find(none_ran), std::string::npos) << tables(alone, st);
    EXPECT_EQ(tables(scenario_points("victim"), st).find(none_ran), std::string::npos);
  }
}

// The progress line of a mix point: with other kernels it names them; a mix of one kernel has none
// ("others  nan GB/s" was printed).
TEST(PointSummary, AMixOfOneKernelNamesNoOthers) {
  Point p = testing::table_point("stosb", std::uint64_t{4} << 20, 2, "zero", 20.0, 1.0);
  p.scenario = "mix";
  p.peer_kernel = "avx512-nt", p.peer_gbps_median = 12.5;
  EXPECT_NE(point_summary(p).find(", others avx512-nt 12.50 GB/s"), std::string::npos) << point_summary(p);
  p.peer_kernel.clear(), p.peer_gbps_median = NAN;
  const std::string alone = point_summary(p);
  EXPECT_EQ(alone.find("nan"), std::string::npos) << alone;
  EXPECT_NE(alone.find("GB/s total (median of 5 reps"), std::string::npos) << alone;
  EXPECT_NE(alone.find(", no other kernel"), std::string::npos) << alone;
}

// A progress line names a point's size as the table does: "4KiB" for a 4097-byte buffer was
// another size's label, "976.56KiB" not the table's "1000000B".
TEST(PointSummary, SizesAreTheTablesLabels) {
  for (const std::uint64_t bytes : {std::uint64_t{4097}, std::uint64_t{1000000}, std::uint64_t{3} << 19}) {
    const Point p = testing::table_point("stosb", bytes, 1, "zero", 20.0, 1.0);
    EXPECT_NE(point_summary(p).find("stosb " + size_label(bytes) + " 1T zero:"), std::string::npos)
        << point_summary(p);
  }
}

}  // namespace
}  // namespace bwlab
