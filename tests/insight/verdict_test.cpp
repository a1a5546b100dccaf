// SPDX-License-Identifier: MIT
// Verdicts on synthetic points with known crossovers. No measured figure is involved.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/insight/load.hpp"
#include "core/insight/usable_median.hpp"
#include "core/insight/verdict.hpp"
#include "core/report/csv.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab {
namespace {

using testing::add_pair;
using testing::make_point;
using testing::MiB;

// By value: the argument is usually a temporary.
PairVerdict only(const std::vector<PairVerdict>& v) {
  EXPECT_EQ(v.size(), 1u);
  return v.at(0);
}

TEST(Verdict, AVictimRunWithTwoAggressorKernelsGetsAVerdictPerAggressor) {
  // Each aggressor kernel has its own k = 0 baseline: one file, no "two points", two verdicts.
  std::vector<Point> pts;
  for (const char* aggressor : {"stosb", "movnti"})
    for (const char* victim : {"stosb", "movnti"})
      for (std::uint64_t size : {1 * testing::MiB, 4 * testing::MiB})
        for (int k : {0, 1}) {
          Point p = testing::make_point(victim, 1 + k, size, std::string(victim) == "stosb" ? 20.0 : 10.0);
          p.scenario = "victim", p.role = "victim", p.peer_kernel = aggressor, p.peer_threads = k;
          pts.push_back(p);
        }
  const auto v = compute_verdicts(pts);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].aggressor, "movnti");
  EXPECT_EQ(v[1].aggressor, "stosb");
  std::ostringstream out;
  print_verdicts(out, v);
  EXPECT_NE(out.str().find("scenario victim beside stosb aggressors"), std::string::npos) << out.str();
}

// A point of one repetition has no spread: its figure read "46.61 [46.61..46.61] +-0.0%", as if
// perfectly steady. It says "(1 rep)"; a point of several repetitions beside it keeps its range.
TEST(Verdict, OneRepetitionFiguresSayOneRepNotZeroSpread) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10}, "movnti", {8, 12}, 1, 0.0, 1, 0.0);
  std::ostringstream out;
  print_verdicts(out, compute_verdicts(pts));
  EXPECT_NE(out.str().find("10.00 (1 rep)"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("12.00 (1 rep)"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("+-0.0%"), std::string::npos) << out.str();
  for (Point& p : pts)
    if (p.kernel == "movnti") p.reps = 5, p.gbps_min = p.gbps_median * 0.99, p.gbps_max = p.gbps_median * 1.01;
  std::ostringstream mixed;
  print_verdicts(mixed, compute_verdicts(pts));
  EXPECT_NE(mixed.str().find("10.00 (1 rep)"), std::string::npos) << mixed.str();
  EXPECT_NE(mixed.str().find("12.00 [11.88..12.12]"), std::string::npos) << mixed.str();
}

TEST(Verdict, InterpolatedCrossoverAndNtGood) {
  std::vector<Point> pts;
  // sizes 4M, 8M, 16M, 32M, 64M; NT/WA ratio 0.8, 0.8, 1.2, 1.2, 1.2 -> crossover between 8M and 16M.
  add_pair(pts, "stosb", {10, 10, 10, 10, 10}, "avx512-nt", {8, 8, 12, 12, 12}, 1);
  const PairVerdict v = only(compute_verdicts(pts));
  ASSERT_EQ(v.rows.size(), 1u);
  const ThreadsVerdict& t = v.rows[0];
  EXPECT_EQ(t.sizes.size(), 5u);
  EXPECT_EQ(t.crossover, CrossoverKind::interpolated);
  EXPECT_EQ(t.bracket_lo, 8 * MiB);
  EXPECT_EQ(t.bracket_hi, 16 * MiB);
  // log-log interpolation: log2 c = 23 + ln(1/0.8) / ln(1.2/0.8)
  const double expected = std::exp2(23 + std::log(1 / 0.8) / std::log(1.2 / 0.8));
  EXPECT_NEAR(t.crossover_bytes, expected, 1.0);
  EXPECT_EQ(t.largest, 64 * MiB);
  EXPECT_NEAR(t.speedup_pct, 20.0, 1e-9);
  EXPECT_EQ(t.standing, Standing::nt_ahead);
  EXPECT_EQ(t.sign_changes, 1);
  EXPECT_EQ(v.recommendation, Recommendation::nt_good);
  EXPECT_NE(v.reasoning.find("X86_FEATURE_NT_GOOD"), std::string::npos) << v.reasoning;
  // The flags are named by their source, not by the project's word for its reading list.
  EXPECT_NE(v.reasoning.find("Linux x86 clear_page patches"), std::string::npos) << v.reasoning;
  EXPECT_EQ(v.reasoning.find("seeds"), std::string::npos) << v.reasoning;
  EXPECT_EQ(v.wa_kernel, "stosb");
  EXPECT_EQ(v.nt_kernel, "avx512-nt");
}

// Points measured while a thread lost CPU time: their min..max cannot show that the figures may be
// low, and the call read as sure as a quiet run's ("NT ahead (ranges apart)", "NT good", from
// points whose 3 of 3 windows were disturbed). The row and a caution under the call say so.
TEST(Verdict, PointsInDisturbedWindowsAreSaid) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10, 10, 10}, "avx512-nt", {8, 8, 12, 12, 12}, 1);
  std::ostringstream quiet;
  print_verdicts(quiet, compute_verdicts(pts));
  EXPECT_EQ(quiet.str().find("disturbed"), std::string::npos) << quiet.str();
  // A window longer than asked because one pass of the buffer is longer is not a disturbance (the
  // demo's 256 MiB points at 50 ms were counted as disturbed, and ringed as such in the GUI).
  pts.front().flags.push_back("window 78 ms for --duration 50 ms: a pass of 256MiB took 68 ms on average");
  EXPECT_FALSE(windows_disturbed(pts.front()));
  EXPECT_FALSE(flagged_unsteady(pts.front()));
  EXPECT_EQ(only(compute_verdicts(pts)).rows.at(0).disturbed, 0);
  pts.front().flags.clear();
  pts.back().flags.push_back("noisy: 3 of 3 windows disturbed (worst: thread 1 got only 34% of the window's CPU time)");
  pts.front().flags.push_back("window 400 ms for --duration 200 ms: threads were held up");
  const PairVerdict v = only(compute_verdicts(pts));
  EXPECT_EQ(v.rows.at(0).disturbed, 2);
  EXPECT_TRUE(v.rows.at(0).largest_disturbed);
  std::ostringstream out;
  print_verdicts(out, compute_verdicts(pts));
  EXPECT_NE(out.str().find("NT ahead (ranges apart), windows disturbed"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Caution: 2 points of these rows (1T) were measured in windows the run flagged as "
                           "disturbed"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("rerun with --reject-noisy (and more --reps) before relying on it."), std::string::npos)
      << out.str();
  // Victim rows are not told to rerun with an option run refuses for their scenario.
  std::vector<Point> victim = pts;
  for (Point& p : victim) p.scenario = "victim", p.role = "victim", p.peer_kernel = "movnti";
  std::ostringstream victim_out;
  print_verdicts(victim_out, compute_verdicts(victim));
  EXPECT_NE(victim_out.str().find("Caution: 2 points"), std::string::npos) << victim_out.str();
  EXPECT_EQ(victim_out.str().find("rerun with --reject-noisy"), std::string::npos) << victim_out.str();
  EXPECT_NE(victim_out.str().find("measure again on a quieter machine or at a quieter hour, with more --reps "
                                  "(--reject-noisy is for --scenario scaling; a victim run keeps every window)"),
            std::string::npos)
      << victim_out.str();
  // A run that had --reject-noisy on is not told to rerun with it.
  for (Point* p : {&pts.front(), &pts.back()})
    p->flags = {"noisy: 3 of 3 windows disturbed (worst: thread 1 got only 34% of the window's CPU time; 9 involuntary "
                "context switches); --reject-noisy was on and its fresh windows were disturbed too: measure again on a "
                "quieter machine"};
  std::ostringstream rejecting;
  print_verdicts(rejecting, compute_verdicts(pts));
  EXPECT_EQ(rejecting.str().find("rerun with --reject-noisy"), std::string::npos) << rejecting.str();
  EXPECT_NE(rejecting.str().find("the run had --reject-noisy on and its fresh windows were disturbed too: measure "
                                 "again on a quieter machine or at a quieter hour before relying on it."),
            std::string::npos)
      << rejecting.str();
}

TEST(Verdict, NoCrossoverInRangeIsNtSlow) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {7, 8, 9}, 1);
  add_pair(pts, "stosb", {20, 20, 20}, "movnti", {14, 15, 16}, 2);
  const PairVerdict v = only(compute_verdicts(pts));
  ASSERT_EQ(v.rows.size(), 2u);
  for (const ThreadsVerdict& t : v.rows) {
    EXPECT_EQ(t.crossover, CrossoverKind::none_in_range);
    EXPECT_EQ(t.standing, Standing::nt_behind);
    EXPECT_NE(crossover_text(t).find("none in range"), std::string::npos);
  }
  EXPECT_EQ(v.recommendation, Recommendation::nt_slow);
  EXPECT_NE(v.reasoning.find("MOVNT_SLOW"), std::string::npos) << v.reasoning;
}

// One run printed "NT slow (MOVNT_SLOW)" for movnti and "NT good (X86_FEATURE_NT_GOOD)" for
// avx512-nt, blocks apart and unreconciled: a note now says the two together.
TEST(Verdict, DisagreeingNtKernelsAreSaidTogether) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {7, 8, 9}, 1);
  add_pair(pts, "stosb", {10, 10, 10, 10, 10}, "avx512-nt", {8, 8, 12, 12, 12}, 1);
  // stosb's points are in twice (both pairs add them): keep one of each.
  std::vector<Point> unique;
  for (const Point& p : pts)
    if (std::none_of(unique.begin(), unique.end(), [&](const Point& q) { return q.kernel == p.kernel && q.size_bytes == p.size_bytes; }))
      unique.push_back(p);
  const std::vector<PairVerdict> v = compute_verdicts(unique);
  ASSERT_EQ(v.size(), 2u);
  std::ostringstream out;
  print_verdicts(out, v);
  EXPECT_NE(out.str().find("note: against stosb the non-temporal kernels disagree (movnti: NT slow; avx512-nt: NT good)"),
            std::string::npos)
      << out.str();
  // Agreeing kernels: no such note.
  std::vector<Point> agree;
  add_pair(agree, "stosb", {10, 10, 10}, "movnti", {7, 8, 9}, 1);
  for (Point p : agree)
    if (p.kernel == "movnti") p.kernel = "movntdq", unique.push_back(p);
  std::ostringstream out2;
  std::vector<Point> both;
  for (const Point& p : unique)
    if (p.kernel != "avx512-nt" && (p.kernel != "stosb" || p.size_bytes <= 16 * MiB)) both.push_back(p);
  const std::vector<PairVerdict> slow = compute_verdicts(both);
  ASSERT_EQ(slow.size(), 2u);
  EXPECT_EQ(slow[0].recommendation, slow[1].recommendation);
  print_verdicts(out2, slow);
  EXPECT_EQ(out2.str().find("disagree"), std::string::npos) << out2.str();
}

TEST(Verdict, NtAheadEverywhereIsBelowRange) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10}, "movntdq", {12, 15}, 1);
  const ThreadsVerdict t = only(compute_verdicts(pts)).rows.at(0);
  EXPECT_EQ(t.crossover, CrossoverKind::below_range);
  EXPECT_EQ(t.bracket_hi, 4 * MiB);
}

TEST(Verdict, TooNoisyToTell) {
  std::vector<Point> pts;
  // NT ahead by medians, but +-30% ranges overlap and pstdev 25% > 15%.
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {9, 11, 12}, 1, 30.0, 5, 25.0);
  const PairVerdict v = only(compute_verdicts(pts));
  EXPECT_EQ(v.rows.at(0).standing, Standing::noisy);
  EXPECT_EQ(v.recommendation, Recommendation::cannot_tell);
  EXPECT_NE(v.reasoning.find("cannot support a verdict"), std::string::npos) << v.reasoning;
  EXPECT_NE(v.reasoning.find("more repetitions (--reps 11)"), std::string::npos) << v.reasoning;
  // A run whose repetitions --reps auto chose is told what auto runs by, not a --reps N.
  for (Point& p : pts) p.flags = {"reps auto: cap of 5 reps reached at 25.0% pstdev (target 2%)"};
  const PairVerdict automatic = only(compute_verdicts(pts));
  EXPECT_EQ(automatic.reasoning.find("--reps 11"), std::string::npos) << automatic.reasoning;
  EXPECT_NE(automatic.reasoning.find("more repetitions (a higher --max-reps or a lower --target-pstdev)"),
            std::string::npos)
      << automatic.reasoning;
}

// --reps auto: the 4 MiB points took 3 repetitions, the largest 9. The reps column read "3" beside
// figures at the largest size that rest on 9.
TEST(Verdict, RepsThatDifferByPointAreShownAsARangeAndPerFigure) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {8, 9, 12}, 1, 1.0, 3);
  for (Point& p : pts)
    if (p.size_bytes == 16 * MiB) p.reps = p.kernel == "stosb" ? 9 : 7;
  std::ostringstream out;
  print_verdicts(out, compute_verdicts(pts));
  const std::string text = out.str();
  EXPECT_NE(text.find("\n1        3      3..9  "), std::string::npos) << text;
  EXPECT_NE(text.find("+-0.5% (9 reps)"), std::string::npos) << text;
  EXPECT_NE(text.find("+-0.5% (7 reps)"), std::string::npos) << text;
  // Points of one count keep the plain column and figures.
  std::vector<Point> same;
  add_pair(same, "stosb", {10, 10, 10}, "movnti", {8, 9, 12}, 1, 1.0, 3);
  std::ostringstream plain;
  print_verdicts(plain, compute_verdicts(same));
  EXPECT_NE(plain.str().find("\n1        3      3     "), std::string::npos) << plain.str();
  EXPECT_EQ(plain.str().find(" reps)"), std::string::npos) << plain.str();
}

TEST(Verdict, OverlapWithTightSpreadIsNoDifference) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {9, 10, 10.1}, 1, 3.0, 5, 2.0);
  const PairVerdict v = only(compute_verdicts(pts));
  EXPECT_EQ(v.rows.at(0).standing, Standing::tie);
  EXPECT_EQ(v.recommendation, Recommendation::no_difference);
  EXPECT_EQ(recommendation_label(v, {}), "no difference beyond the noise");
}

TEST(Verdict, DependsOnLoad) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {8, 8, 8}, 1);     // behind alone
  add_pair(pts, "stosb", {12, 12, 12}, "movnti", {10, 14, 18}, 4);  // ahead under contention
  const PairVerdict v = only(compute_verdicts(pts));
  EXPECT_EQ(v.rows.at(0).standing, Standing::nt_behind);
  EXPECT_EQ(v.rows.at(1).standing, Standing::nt_ahead);
  EXPECT_EQ(v.recommendation, Recommendation::depends_on_load);
  EXPECT_NE(v.reasoning.find("depends on load"), std::string::npos) << v.reasoning;
}

TEST(Verdict, BehindAtSomeThreadCountsAndLevelAtOthersIsNtSlowNotDependsOnLoad) {
  // README: "depends on load" is NT ahead at some thread counts; here it is ahead at none.
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {8, 8, 8}, 1);        // behind alone
  add_pair(pts, "stosb", {12, 12, 12}, "movnti", {12, 12, 12.1}, 4);   // level under contention
  const PairVerdict v = only(compute_verdicts(pts));
  EXPECT_EQ(v.rows.at(0).standing, Standing::nt_behind);
  EXPECT_EQ(v.rows.at(1).standing, Standing::tie);
  EXPECT_EQ(v.recommendation, Recommendation::nt_slow) << v.reasoning;
  EXPECT_NE(v.reasoning.find("movnti is ahead of stosb at no judged thread count. At the largest size, behind at 1T "
                             "(-20.0% at 1T), level (within the noise) at 4T (+0.8% at 4T)"),
            std::string::npos)
      << v.reasoning;
  EXPECT_NE(v.reasoning.find("MOVNT_SLOW"), std::string::npos) << v.reasoning;
}

TEST(Verdict, AnUnknownFillIsItsOwnContext) {
  // Imported files that state no fill carry "unknown" (bwlab import --help).
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {8, 8, 8}, 1);
  for (Point& p : pts) p.fill = "unknown";
  std::vector<Point> zero;
  add_pair(zero, "stosb", {10, 10, 10}, "movnti", {20, 20, 20}, 1);
  pts.insert(pts.end(), zero.begin(), zero.end());
  const auto v = compute_verdicts(pts);
  ASSERT_EQ(v.size(), 2u);
  std::ostringstream out;
  print_verdicts(out, v);
  EXPECT_NE(out.str().find("fill unknown,"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("fill zero,"), std::string::npos) << out.str();
}

TEST(Verdict, OneSizeIsJudgedThereButTooFewRepsCannotBe) {
  // A thread sweep at one size (issue 12's `--sizes 256M`) says which store wins at that size at
  // each thread count; the size crossover is only bounded, and the text says two sizes find it.
  std::vector<Point> one_size;
  add_pair(one_size, "stosb", {10}, "movnti", {20}, 1);
  add_pair(one_size, "stosb", {30}, "movnti", {30.2}, 8);
  const PairVerdict a = only(compute_verdicts(one_size));
  EXPECT_EQ(a.rows.at(0).standing, Standing::nt_ahead);
  EXPECT_EQ(a.rows.at(0).crossover, CrossoverKind::below_range);
  EXPECT_EQ(crossover_text(a.rows.at(0)), "at or below 4MiB (NT's median ahead at the only size)");
  EXPECT_EQ(a.rows.at(1).standing, Standing::tie);
  // Its median ahead (30.2 against 30) is no call: the cell says so beside "level".
  EXPECT_EQ(crossover_text(a.rows.at(1)), "at or below 4MiB (NT's median ahead at the only size, ranges not apart)");
  // The same of an interpolated crossover: medians that cross within the ranges.
  std::vector<Point> close;
  add_pair(close, "stosb", {10, 10}, "movnti", {9.98, 10.02}, 1);
  const PairVerdict c = only(compute_verdicts(close));
  EXPECT_EQ(c.rows.at(0).crossover, CrossoverKind::interpolated);
  EXPECT_NE(crossover_text(c.rows.at(0)).find("; by medians only: NT ahead with the ranges apart at no size)"), std::string::npos)
      << crossover_text(c.rows.at(0));
  ThreadsVerdict predicted;  // a prediction's row: level at both sizes, NT's median ahead at both
  predicted.predicted = true, predicted.crossover = CrossoverKind::below_range;
  predicted.sizes = {16 * MiB, 1024 * MiB}, predicted.bracket_hi = 16 * MiB, predicted.largest = 1024 * MiB;
  EXPECT_EQ(crossover_text(predicted),
            "at or below 16MiB (NT's median ahead at every size, beyond the model's uncertainty at none)");
  predicted.sizes_nt_ahead = 1;  // apart at one: a call, nothing to add
  EXPECT_EQ(crossover_text(predicted), "at or below 16MiB (NT's median ahead at every size)");
  EXPECT_EQ(a.recommendation, Recommendation::nt_good);  // ahead, then level: never behind
  EXPECT_NE(a.reasoning.find("the only size measured: it says which store wins at that size; where in size the "
                             "winner changes needs two or more sizes"),
            std::string::npos)
      << a.reasoning;
  ASSERT_EQ(a.by_size.size(), 1u);
  EXPECT_EQ(a.by_size[0].kind, ThreadCrossoverKind::changes);

  std::vector<Point> one_rep;
  add_pair(one_rep, "stosb", {10, 10}, "movnti", {5, 20}, 1, 0.0, 1);
  const PairVerdict b = only(compute_verdicts(one_rep));
  EXPECT_EQ(b.rows.at(0).standing, Standing::unusable);
  EXPECT_EQ(b.rows.at(0).crossover, CrossoverKind::interpolated);  // still computed, not judged
  EXPECT_NE(b.rows.at(0).problem.find("repetition"), std::string::npos);
  EXPECT_EQ(b.recommendation, Recommendation::cannot_tell);
}

// Points as bwlab import makes them: one figure each, no window, the setup not stated.
std::vector<Point> imported_pair(int reps) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {20, 10}, "movnti", {6, 12}, 1, 1.0, reps);
  for (Point& p : pts) {
    p.source = "imported", p.host = "Oracle X8-2";
    p.placement.clear(), p.membind.clear(), p.pages.clear();
    p.duration_ms = Point::kNone;
    if (reps == 1) {
      p.gbps_min = p.gbps_max = p.gbps_median, p.gbps_pstdev_pct = Point::kNone;  // perf bench: its own range
    } else {
      p.gbps_min = p.gbps_max = Point::kNone;  // a mailing-list table: a median and a pstdev, no range
    }
  }
  return pts;
}

// Figures without a spread still say where their medians cross (a table's 16 vs 128 MiB crossing
// read "-"), with no call; and a table's spread without '%' is named as one whose unit is unknown
// (it was "imported figures carry no spread" for "( +- 0.26)" beside every figure).
TEST(Verdict, ImportedMediansStillSayWhereTheyCross) {
  const PairVerdict v = only(compute_verdicts(imported_pair(1)));
  const ThreadsVerdict& t = v.rows.at(0);
  EXPECT_EQ(t.standing, Standing::unusable);
  EXPECT_TRUE(t.bare_medians);
  EXPECT_EQ(t.crossover, CrossoverKind::interpolated);
  EXPECT_EQ(v.recommendation, Recommendation::cannot_tell);
  std::ostringstream text;
  print_verdicts(text, std::vector<PairVerdict>{v});
  EXPECT_NE(text.str().find("by medians only"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("10.00 (1 rep)"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("nan"), std::string::npos) << text.str();

  std::vector<Point> unitless = imported_pair(5);
  for (Point& p : unitless) p.origin_spread = 0.26, p.origin_spread_unit = "as-reported", p.gbps_pstdev_pct = Point::kNone;
  const PairVerdict u = only(compute_verdicts(unitless));
  EXPECT_EQ(u.rows.at(0).problem.rfind("the imported spreads have no unit ('+- 0.26' without '%'", 0), 0u)
      << u.rows.at(0).problem;
  EXPECT_EQ(u.rows.at(0).crossover, CrossoverKind::interpolated);
}

TEST(Verdict, ImportedFiguresWithoutSpreadSaySoPlainly) {
  {
    const std::vector<Point> pts = imported_pair(1);
    const PairVerdict v = only(compute_verdicts(pts));
    ASSERT_EQ(v.rows.size(), 1u);
    EXPECT_EQ(v.rows[0].standing, Standing::unusable);
    EXPECT_EQ(v.rows[0].problem,
              "imported figures carry no spread (one number per point, no min..max over repetitions), so "
              "no verdict can be judged");
    EXPECT_EQ(v.recommendation, Recommendation::cannot_tell);
    // The advice fits figures from elsewhere: measure that machine, not "--reps 11 on a quieter machine".
    EXPECT_NE(v.reasoning.find("measure that machine with bwlab run"), std::string::npos) << v.reasoning;
    EXPECT_EQ(v.reasoning.find("--reps 11"), std::string::npos) << v.reasoning;

    std::ostringstream text;
    print_verdicts(text, std::vector<PairVerdict>{v});
    const std::string s = text.str();
    // The context line says what is unknown instead of "windows of nan ms" and empty fields.
    EXPECT_NE(s.find("imported, host Oracle X8-2, cpu Test CPU; scenario scaling, fill zero, placement unknown, "
                     "membind unknown, pages unknown; window unknown\n"),
              std::string::npos)
        << s;
    EXPECT_EQ(s.find("nan"), std::string::npos) << s;
    EXPECT_EQ(s.find("missing or zero"), std::string::npos) << s;
    // The figures are shown without a call (they read "-"): the largest size, the medians' gap and
    // each median with its one repetition.
    EXPECT_NE(s.find("+20.0%   10.00 (1 rep)"), std::string::npos) << s;
    EXPECT_NE(s.find("12.00 (1 rep)"), std::string::npos) << s;
  }
  // A table's mean +-0.5% over 5 runs (no min..max): every run lies within mean +- 2% (Samuelson,
  // with room for a standard error of the mean), so 10 vs 12 GB/s are apart. It said "cannot tell".
  {
    const PairVerdict v = only(compute_verdicts(imported_pair(5)));
    const ThreadsVerdict& t = v.rows.at(0);
    EXPECT_TRUE(t.pstdev_bound);
    EXPECT_EQ(t.standing, Standing::nt_ahead);
    EXPECT_NEAR(t.wa_min, 10 * 0.98, 1e-9);
    EXPECT_NEAR(t.wa_max, 10 * 1.02, 1e-9);
    EXPECT_NEAR(t.nt_min, 12 * 0.98, 1e-9);
    EXPECT_EQ(v.recommendation, Recommendation::nt_good) << v.reasoning;
    std::ostringstream text;
    print_verdicts(text, std::vector<PairVerdict>{v});
    EXPECT_NE(text.str().find("10.00 [9.80..10.20] +-0.5% bound"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("Samuelson's inequality"), std::string::npos) << text.str();
    EXPECT_EQ(text.str().find("nan"), std::string::npos) << text.str();
  }
  // Bounds that meet decide nothing: +-3% over 5 runs is +-12%, 10 vs 12 GB/s overlap.
  {
    std::vector<Point> wide = imported_pair(5);
    for (Point& p : wide) p.gbps_pstdev_pct = 3;
    EXPECT_EQ(only(compute_verdicts(wide)).rows.at(0).standing, Standing::tie);
  }
  // One run per point with a "+-0.000" beside it (goldsteinn's imports) is one number per point,
  // not "a +-% but not how many repetitions"; a window of 0 ms is no window.
  {
    std::vector<Point> single = imported_pair(1);
    for (Point& p : single) p.gbps_pstdev_pct = 0, p.duration_ms = 0;
    const PairVerdict v = only(compute_verdicts(single));
    EXPECT_EQ(v.rows.at(0).problem,
              "imported figures carry no spread (one number per point, no min..max over repetitions), so "
              "no verdict can be judged");
    std::ostringstream text;
    print_verdicts(text, std::vector<PairVerdict>{v});
    EXPECT_NE(text.str().find("; window unknown\n"), std::string::npos) << text.str();
    EXPECT_EQ(text.str().find("windows of 0 ms"), std::string::npos) << text.str();
  }
  // A +-% without its repetitions' count bounds nothing.
  {
    std::vector<Point> no_count = imported_pair(5);
    for (Point& p : no_count) p.reps = 0;
    const PairVerdict v = only(compute_verdicts(no_count));
    EXPECT_EQ(v.rows.at(0).standing, Standing::unusable);
    EXPECT_EQ(v.rows.at(0).problem, "imported figures carry a +-% but not how many repetitions it is over, so "
                                    "neither a min..max nor a bound of one can be judged");
  }
  // An import that kept its repetitions' range (gbench) is judged like a measurement.
  std::vector<Point> ranged = imported_pair(5);
  for (Point& p : ranged) p.gbps_min = p.gbps_median * 0.99, p.gbps_max = p.gbps_median * 1.01;
  EXPECT_EQ(only(compute_verdicts(ranged)).recommendation, Recommendation::nt_good);
}

TEST(Verdict, EveryPairAndContextSeparately) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10}, "movnti", {8, 12}, 1);
  for (int i = 0; i < 2; ++i) pts.push_back(make_point("avx512-nt", 1, (4 * MiB) << i, 11 + i));
  for (int i = 0; i < 2; ++i) pts.push_back(make_point("stosq", 1, (4 * MiB) << i, 9));
  auto other_fill = pts;
  for (Point& p : other_fill) p.fill = "0xff";
  pts.insert(pts.begin(), other_fill.begin(), other_fill.end());  // 0xff first: zero must still be chosen
  const auto v = compute_verdicts(pts);
  EXPECT_EQ(v.size(), 2u * 2u * 2u);  // {stosb, stosq} x {movnti, avx512-nt} x {zero, 0xff}
  const PairVerdict* ref = glibc_reference_pair(v);
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ(ref->wa_kernel, "stosb");
  EXPECT_EQ(ref->nt_kernel, "avx512-nt");
  EXPECT_EQ(ref->fill, "zero");
}

TEST(Verdict, DuplicatePointsAreRefused) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10}, "movnti", {8, 12}, 1);
  pts.push_back(pts.front());
  EXPECT_THROW(compute_verdicts(pts), InputError);
}

TEST(Verdict, Applicability) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10}, "movnti", {8, 12}, 1);
  EXPECT_TRUE(verdict_applicable(pts));
  std::vector<Point> wa_only(pts.begin(), pts.begin() + 2);
  EXPECT_FALSE(verdict_applicable(wa_only));
  std::vector<Point> one_point = {pts[0], pts[2]};  // one size, one thread count
  EXPECT_FALSE(verdict_applicable(one_point));
  std::vector<Point> thread_sweep = one_point;  // one size, two thread counts: which store wins at each
  add_pair(thread_sweep, "stosb", {10}, "movnti", {8}, 2);
  EXPECT_TRUE(verdict_applicable(thread_sweep));
}

TEST(Verdict, ThroughACsvFileAndPrinted) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {8, 8, 12}, 2);
  const auto path = std::filesystem::temp_directory_path() / "bwlab-verdict-test.csv";
  {
    std::ofstream out(path);
    write_csv(out, pts);
  }
  const LoadedPoints in = load_points(path);
  std::filesystem::remove(path);
  EXPECT_EQ(in.kind, PointFileKind::csv);
  const auto v = compute_verdicts(in.points);
  std::ostringstream text;
  print_verdicts(text, v);
  const std::string s = text.str();
  EXPECT_NE(s.find("stosb (write-allocate) vs movnti (non-temporal)"), std::string::npos) << s;
  EXPECT_NE(s.find("between 8MiB and 16MiB"), std::string::npos) << s;
  EXPECT_NE(s.find("Recommendation: NT good."), std::string::npos) << s;
  EXPECT_NE(s.find("+20.0%"), std::string::npos) << s;
}

TEST(Verdict, AThreadCountThatCannotBeJudgedGetsNoPercentage) {
  // A point with no usable median is judged "cannot judge"; its speedup is not a figure, and
  // "+0.0%" beside it read as a tie.
  ThreadCrossover c;
  c.size = 16u << 20;
  c.threads = {1, 2, 4, 8, 16};
  c.standing = {Standing::unusable, Standing::nt_behind, Standing::unusable, Standing::unusable, Standing::unusable};
  c.speedup_pct = {0, -69.3, 0, 0, 0};
  c.kind = ThreadCrossoverKind::cannot_tell;
  c.from = Standing::unusable;
  const std::string t = thread_crossover_text(c, "stosb", "movnti");
  EXPECT_NE(t.find("1T cannot judge, 2T NT behind -69.3%, 4..16T (3 thread counts) cannot judge"), std::string::npos) << t;
  EXPECT_EQ(t.find("+0.0%"), std::string::npos) << t;
}

// Rows whose largest buffers all fit in this machine's LLC judge cache-resident clears: said, with
// the size that would reach DRAM; not for another host's or a prediction's rows, nor an unknown LLC.
TEST(Verdict, RowsThatFitInThisMachinesLlcAreNamed) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10}, "movnti", {5, 5}, 1);  // 4 MiB and 8 MiB per thread
  add_pair(pts, "stosb", {20, 20}, "movnti", {9, 9}, 4);
  for (Point& p : pts) p.host = "here";
  const auto v = compute_verdicts(pts);
  const std::string note = llc_resident_note(v, 32 * MiB, "here");
  EXPECT_NE(note.find("note: at 1T and 4T the largest size judged (8MiB per thread) and its threads' buffers together "
                      "fit in this machine's last-level cache (32MiB"),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("measure sizes above 32MiB per thread"), std::string::npos) << note;
  EXPECT_EQ(llc_resident_note(v, 16 * MiB, "here").find("at 1T the largest"), 6u);  // 4 x 8 MiB does not fit
  EXPECT_EQ(llc_resident_note(v, 4 * MiB, "here"), "");
  EXPECT_EQ(llc_resident_note(v, 32 * MiB, "elsewhere"), "");
  // This host name on another CPU is another machine (a guest moved, a default name on two
  // machines); an unknown CPU on either side leaves the host name to decide.
  {
    auto other = v;
    for (PairVerdict& p : other) p.cpu_model = "AMD EPYC";
    EXPECT_EQ(llc_resident_note(other, 32 * MiB, "here", 1, "this machine's", "Intel Xeon"), "");
    EXPECT_NE(llc_resident_note(other, 32 * MiB, "here", 1, "this machine's", "AMD EPYC"), "");
    EXPECT_NE(llc_resident_note(other, 32 * MiB, "here", 1, "this machine's", ""), "");
    VerdictOptions o;
    o.llc_bytes = 32 * MiB, o.this_host = "here", o.this_cpu = "Intel Xeon";
    EXPECT_FALSE(call_from_cache_only(other.front(), o));
    o.this_cpu = "AMD EPYC";
    EXPECT_TRUE(call_from_cache_only(other.front(), o));
    EXPECT_TRUE(same_machine("here", "", "here", "AMD EPYC"));
    EXPECT_FALSE(same_machine("there", "AMD EPYC", "here", "AMD EPYC"));
  }
  EXPECT_EQ(llc_resident_note(v, 0, "here"), "");
  // Four 8MiB caches, one per thread (a VM's per-core L3s, AMD's CCDs): 4 x 8MiB fits there, not
  // in one; one thread reaches one cache only.
  const std::string per_core = llc_resident_note(v, 8 * MiB, "here", 4);
  EXPECT_NE(per_core.find("at 1T and 4T the largest size judged (8MiB per thread) and its threads' buffers together fit "
                          "in this machine's last-level caches (4 x 8MiB, one per thread at most"),
            std::string::npos)
      << per_core;
  EXPECT_NE(per_core.find("measure sizes above 8MiB per thread"), std::string::npos) << per_core;
  EXPECT_EQ(llc_resident_note(v, 4 * MiB, "here", 4), "");
  EXPECT_EQ(llc_reach(8 * MiB, 4, 2), 16 * MiB);
  EXPECT_EQ(llc_reach(8 * MiB, 4, 16), 32 * MiB);
  // The Recommendation line itself says the call is in-cache only (a newcomer stopped reading at
  // "NT slow ... keep the cacheable stosb for large clears"); not when a judged row reaches DRAM,
  // nor for another host's rows.
  ASSERT_EQ(v.front().recommendation, Recommendation::nt_slow);
  const auto printed = [&](std::uint64_t llc, const std::string& host) {
    VerdictOptions o;
    o.llc_bytes = llc, o.this_host = host;
    std::ostringstream out;
    print_verdicts(out, v, o);
    return out.str();
  };
  const std::string in_cache = "Recommendation: NT slow, for clears that fit in the cache only: every row judged fits in "
                               "this machine's last-level cache (see the note below), so this is not the large-clear "
                               "call its flag names. ";
  EXPECT_NE(printed(32 * MiB, "here").find(in_cache), std::string::npos) << printed(32 * MiB, "here");
  // ... and its reasoning keeps to those clears (it ended "keep the cacheable stosb for large clears").
  EXPECT_EQ(printed(32 * MiB, "here").find("for large clears"), std::string::npos) << printed(32 * MiB, "here");
  EXPECT_NE(printed(32 * MiB, "here").find("keep the cacheable stosb for clears that stay in the cache"),
            std::string::npos);
  EXPECT_NE(printed(16 * MiB, "here").find("keep the cacheable stosb for large clears"), std::string::npos);
  EXPECT_EQ(printed(16 * MiB, "here").find("fit in the cache only"), std::string::npos);  // 4T reaches DRAM
  EXPECT_EQ(printed(32 * MiB, "elsewhere").find("fit in the cache only"), std::string::npos);
  EXPECT_NE(printed(0, "here").find("Recommendation: NT slow. "), std::string::npos);
}

// A call made at fewer threads than measured, the most contended row not judged (too noisy):
// said to be tentative, since contention can change the winner.
TEST(Verdict, ACallWithoutItsMostContendedRowIsTentative) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10}, "movnti", {5, 5}, 1);                 // NT behind at 1T
  add_pair(pts, "stosb", {20, 20}, "movnti", {22, 22}, 2, 30.0, 5, 25);  // 2T: ranges overlap, 25% pstdev
  const PairVerdict v = only(compute_verdicts(pts));
  ASSERT_EQ(v.rows.at(1).standing, Standing::noisy);
  EXPECT_EQ(v.recommendation, Recommendation::nt_slow);
  EXPECT_NE(v.reasoning.find("Tentative: at 2T, the most threads measured, the standing could not be judged (too "
                             "noisy)"),
            std::string::npos)
      << v.reasoning;
  std::vector<Point> judged;  // both rows judged: no such sentence
  add_pair(judged, "stosb", {10, 10}, "movnti", {5, 5}, 1);
  add_pair(judged, "stosb", {20, 20}, "movnti", {10, 10}, 2);
  EXPECT_EQ(only(compute_verdicts(judged)).reasoning.find("Tentative"), std::string::npos);
}

}  // namespace
// Every change of standing has one name, in the long verdict line and in the plot's short mark:
// only from one side ahead to the other is it an overtaking (a change of winner).
TEST(Verdict, CrossoverChangesAreNamedAlikeLongAndShort) {
  struct Case {
    Standing from, to;
    const char* lng;
    const char* shrt;
  } cases[] = {
      {Standing::nt_ahead, Standing::tie, "stosb is level with movnti at 8 threads", "stosb is level"},
      {Standing::nt_ahead, Standing::nt_behind, "stosb overtakes movnti at 8 threads", "stosb overtakes"},
      {Standing::nt_behind, Standing::tie, "movnti is level with stosb at 8 threads", "NT is level"},
      {Standing::nt_behind, Standing::nt_ahead, "movnti overtakes stosb at 8 threads", "NT overtakes"},
      {Standing::tie, Standing::nt_ahead, "movnti pulls ahead of stosb at 8 threads", "NT pulls ahead"},
      {Standing::tie, Standing::nt_behind, "stosb pulls ahead of movnti at 8 threads", "stosb pulls ahead"},
  };
  for (const Case& k : cases) {
    ThreadCrossover c;
    c.size = 1u << 30;
    c.threads = {1, 8};
    c.standing = {k.from, k.to};
    c.speedup_pct = {10, -10};
    c.kind = ThreadCrossoverKind::changes;
    c.at_threads = 8;
    c.from = k.from, c.to = k.to;
    EXPECT_EQ(thread_crossover_text(c, "stosb", "movnti").rfind(k.lng, 0), 0u) << thread_crossover_text(c, "stosb", "movnti");
    EXPECT_EQ(crossover_change_short(c, "stosb"), k.shrt);
  }
}

}  // namespace bwlab

namespace bwlab {
namespace {

// A point no point of the other side shares fill, size and thread count with is named, not dropped
// without a word (a movnti row hand-edited to fill 0xff left its stosb partner and itself unjudged).
TEST(Verdict, PointsWithoutAPartnerAreNamed) {
  std::vector<Point> pts;
  testing::add_pair(pts, "stosb", {10, 10, 10}, "movnti", {8, 12, 12}, 1);
  EXPECT_EQ(unpaired_points_note(pts), "");
  pts[3].fill = "0xff";  // movnti 4MiB 1T
  EXPECT_EQ(unpaired_points_note(pts),
            "note: 2 points not judged: no point of the other side (write-allocate against non-temporal) has their "
            "fill, size, thread count and set-up: movnti 4MiB 1T 0xff [measured scaling compact local 4k]; stosb "
            "4MiB 1T zero [measured scaling compact local 4k]\n");
  // Another size only one side has: named too; two kernels of one side do not pair.
  pts[3].fill = "zero";
  pts.push_back(testing::make_point("stosq", 1, 64 * testing::MiB, 9));
  pts.push_back(testing::make_point("stosb", 1, 64 * testing::MiB, 9));
  const std::string note = unpaired_points_note(pts);
  EXPECT_NE(note.find("note: 2 points not judged"), std::string::npos) << note;
  EXPECT_NE(note.find("stosq 64MiB 1T zero"), std::string::npos) << note;
  // Mix and pagefault points are not judged by design: not named.
  for (Point& p : pts) p.scenario = "mix";
  EXPECT_EQ(unpaired_points_note(pts), "");
}

// Points the run flagged as measuring the placement (--placement none, the OS kept two threads on one
// PU) are left out of the verdict and named: a 2-thread point had the verdict say "NT behind" there.
TEST(Verdict, PointsWhoseThreadsSharedAPuAreLeftOutAndNamed) {
  std::vector<Point> pts;
  testing::add_pair(pts, "stosb", {10, 10}, "movnti", {8, 12}, 1);
  testing::add_pair(pts, "stosb", {20, 20}, "movnti", {5, 5}, 2);  // NT far behind at 2T: the shared PU
  EXPECT_EQ(shared_pu_note(pts), "");
  for (Point& p : pts)
    if (p.threads == 2)
      p.placement = "none",
      p.flags.push_back("placement none: threads 0 and 1 shared PU 0 in 3 of 3 windows (the OS kept them on one PU: "
                        "this point measures the placement, not memory contention)");
  for (const PairVerdict& v : compute_verdicts(pts))
    for (const ThreadsVerdict& t : v.rows) EXPECT_NE(t.threads, 2) << "a 2-thread point was judged";
  const std::string note = shared_pu_note(pts);
  EXPECT_NE(note.find("note: 4 points not judged: their threads shared a PU (placement none: the OS placed them), "
                      "so they measure the placement, not memory contention; measure with --placement compact or "
                      "scatter: "),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("stosb 4MiB 2T zero [measured scaling none local 4k]"), std::string::npos) << note;
  EXPECT_EQ(unpaired_points_note(pts), "");  // not also called unpaired
}

}  // namespace
}  // namespace bwlab
