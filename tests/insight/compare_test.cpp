// SPDX-License-Identifier: MIT
#include <sstream>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/insight/compare.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab {
namespace {

using testing::make_point;
using testing::MiB;

TEST(Compare, ClassifiesEachPoint) {
  const std::vector<Point> base = {
      make_point("stosb", 1, 4 * MiB, 10, 2),    // -> drops 20%, ranges apart: regressed
      make_point("stosb", 1, 8 * MiB, 10, 15),   // -> drops 20%, ranges overlap: within noise
      make_point("stosb", 1, 16 * MiB, 10, 2),   // -> +20%, ranges apart: improved
      make_point("stosb", 1, 32 * MiB, 10, 2),   // -> -3%: within tolerance
      make_point("stosb", 1, 64 * MiB, 10, 2),   // only in BASE
  };
  const std::vector<Point> now = {
      make_point("stosb", 1, 4 * MiB, 8, 2),      make_point("stosb", 1, 8 * MiB, 8, 15),
      make_point("stosb", 1, 16 * MiB, 12, 2),    make_point("stosb", 1, 32 * MiB, 9.7, 2),
      make_point("stosb", 2, 4 * MiB, 10, 2),  // only in NEW (other thread count)
  };
  const Comparison c = compare_points(base, now, CompareOptions{5.0, 10.0, {}});
  ASSERT_EQ(c.matched.size(), 4u);
  EXPECT_EQ(c.matched[0].change, Change::regressed);
  EXPECT_NEAR(c.matched[0].change_pct, -20.0, 1e-9);
  EXPECT_EQ(c.matched[1].change, Change::within_noise);
  EXPECT_EQ(c.matched[2].change, Change::improved);
  EXPECT_EQ(c.matched[3].change, Change::within_tolerance);
  EXPECT_EQ(c.regressions, 1);
  EXPECT_EQ(c.improvements, 1);
  EXPECT_EQ(c.only_base.size(), 1u);
  EXPECT_EQ(c.only_new.size(), 1u);
  std::ostringstream out;
  print_comparison(out, c, CompareOptions{5.0, 10.0, {}});
  EXPECT_NE(out.str().find("REGRESSED"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("1 regressed, 1 improved"), std::string::npos) << out.str();
  // A wider NEW: its extra points were listed one per line (76 of them); 8, then a count.
  std::vector<Point> wider = now;
  for (int t = 3; t <= 22; ++t) wider.push_back(make_point("stosb", t, 4 * MiB, 10, 2));
  const Comparison w = compare_points(base, wider, CompareOptions{5.0, 10.0, {}});
  ASSERT_EQ(w.only_new.size(), 21u);
  std::ostringstream wide;
  print_comparison(wide, w, CompareOptions{5.0, 10.0, {}});
  std::size_t listed = 0;
  for (std::size_t at = 0; (at = wide.str().find("only in NEW:  stosb", at)) != std::string::npos; ++at) ++listed;
  EXPECT_EQ(listed, 8u) << wide.str();
  EXPECT_NE(wide.str().find("only in NEW:  ... and 13 more (points NEW adds are not compared)"), std::string::npos)
      << wide.str();
  EXPECT_NE(wide.str().find("21 only in NEW."), std::string::npos) << wide.str();
}

TEST(Compare, ToleranceDecidesFirst) {
  const std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10, 1)};
  const std::vector<Point> now = {make_point("stosb", 1, 4 * MiB, 8, 1)};
  EXPECT_EQ(compare_points(base, now, CompareOptions{25.0, 10.0, {}}).regressions, 0);
  EXPECT_EQ(compare_points(base, now, CompareOptions{5.0, 10.0, {}}).regressions, 1);
}

// A victim point beside stosb and one beside movnti, a mix with other partners, tlbflush at
// another E: different experiments, never matched (the bug: a false REGRESSED, or "two points").
Point victim(const std::string& aggressor, int k, double gbps) {
  Point p = make_point("stosb", 1 + k, 1 * MiB, gbps);
  p.scenario = "victim", p.role = "victim", p.peer_kernel = aggressor, p.peer_threads = k;
  return p;
}

TEST(Compare, ScenarioColumnsArePartOfThePoint) {
  const std::vector<Point> base = {victim("stosb", 0, 20), victim("stosb", 1, 12), victim("movnti", 0, 20),
                                   victim("movnti", 1, 6)};
  const Comparison same = compare_points(base, base, {});  // one file with two aggressors: no "two points"
  EXPECT_EQ(same.matched.size(), 4u);
  const std::vector<Point> beside_stosb = {victim("stosb", 1, 12)};
  const std::vector<Point> beside_movnti = {victim("movnti", 1, 6)};
  EXPECT_THROW(compare_points(beside_stosb, beside_movnti, {}), InputError);  // not the same experiment
  std::vector<Point> e = {make_point("stosb", 1, MiB, 5), make_point("stosb", 1, MiB, 5)};
  e[0].entries = 1, e[1].entries = 8;
  EXPECT_EQ(compare_points(e, e, {}).matched.size(), 2u);
}

// tlbflush rows hold ns per munmap call, not GB/s (their GB/s are NaN by design): compare said
// "munmap 1MiB 1T ? E=1 [...]: no usable median GB/s in BASE". Set aside beside GB/s rows, with a
// note; a file of nothing else is refused naming where its figures are.
TEST(Compare, TlbflushRowsAreSetAsideOrRefusedByName) {
  Point munmap = make_point("munmap", 1, MiB, 1);
  munmap.scenario = "tlbflush", munmap.entries = 1, munmap.gbps_median = Point::kNone, munmap.munmap_ns_median = 900;
  const std::vector<Point> only = {munmap};
  try {
    compare_points(only, only, {});
    ADD_FAILURE() << "a tlbflush-only file was compared";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "compare judges GB/s, and BASE holds only tlbflush rows, whose figures are ns per munmap "
                           "call and per read: see the CSV columns munmap_ns_median and reader_ns_median (or the "
                           "table `bwlab run --scenario tlbflush` prints)");
  }
  const std::vector<Point> both = {make_point("stosb", 1, 4 * MiB, 10), munmap};
  const Comparison c = compare_points(both, both, {});
  EXPECT_EQ(c.matched.size(), 1u);
  EXPECT_TRUE(c.only_base.empty() && c.only_new.empty());
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_EQ(c.notes[0], "2 tlbflush rows not compared: ns per munmap call and per read, not GB/s");
  const std::vector<Point> gbps = {make_point("stosb", 1, 4 * MiB, 10)};
  EXPECT_THROW(compare_points(gbps, only, {}), InputError);  // NEW holds nothing to judge
}

TEST(Compare, MatchesByParametersNotHost) {
  std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10)};
  std::vector<Point> now = base;
  now[0].host = "otherhost";
  const Comparison c = compare_points(base, now, {});
  EXPECT_EQ(c.matched.size(), 1u);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_NE(c.notes[0].find("different hosts"), std::string::npos);
  now[0].fill = "0xff";  // another parameter: no longer the same point
  EXPECT_THROW(compare_points(base, now, {}), InputError);
}

// Points measured with different windows still match (and are still judged), but a warning in
// the header names the difference: once, with both lengths, and how many points it concerns.
TEST(Compare, WarnsWhenTheWindowsDiffer) {
  std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10), make_point("stosb", 1, 8 * MiB, 10)};
  std::vector<Point> now = {make_point("stosb", 1, 4 * MiB, 8), make_point("stosb", 1, 8 * MiB, 10)};
  EXPECT_TRUE(compare_points(base, now, {}).warnings.empty());
  for (Point& p : base) p.duration_ms = 100;
  for (Point& p : now) p.duration_ms = 20;
  Comparison c = compare_points(base, now, {});
  EXPECT_EQ(c.regressions, 1);  // judged as before
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "windows differ: base 100 ms, new 20 ms; figures from different window lengths are not like for like");
  std::ostringstream out;
  print_comparison(out, c, {});
  EXPECT_NE(out.str().find("\nwarning: windows differ: base 100 ms, new 20 ms;"), std::string::npos) << out.str();
  now[1].duration_ms = 100;
  c = compare_points(base, now, {});
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0].rfind("windows differ on 1 of 2 matched points: base 100 ms, new 20 ms;", 0), 0u)
      << c.warnings[0];
  // A prediction is steady state: its --duration only scales the bytes it states, no window to differ.
  for (Point& p : now) p.source = "simulated", p.reps = 0, p.duration_ms = 200;
  EXPECT_TRUE(compare_points(base, now, {}).warnings.empty()) << compare_points(base, now, {}).warnings[0];
}

TEST(Compare, RefusesAToleranceAbove100Percent) {
  const std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10)};
  EXPECT_NO_THROW(compare_points(base, base, CompareOptions{100.0, 10.0, {}}));
  EXPECT_THROW(compare_points(base, base, CompareOptions{150.0, 10.0, {}}), InputError);
}

TEST(Compare, RefusesAmbiguousInput) {
  const std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10), make_point("stosb", 1, 4 * MiB, 10)};
  EXPECT_THROW(compare_points(base, base, {}), InputError);
  EXPECT_THROW(compare_points({}, {}, {}), InputError);
}

// Nothing matches: the refusal names the parameters the two files share no value of.
TEST(Compare, NothingMatchingNamesTheParameterThatDiffers) {
  const std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10), make_point("stosb", 2, 4 * MiB, 10)};
  std::vector<Point> now = base;
  for (Point& p : now) p.placement = "none", p.source = "simulated";
  try {
    compare_points(base, now, {});
    FAIL() << "no point matches";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("(every one but the source: scenario"), std::string::npos) << what;
    EXPECT_NE(what.find("; they share no placement (BASE compact, NEW none)"), std::string::npos) << what;
    EXPECT_EQ(what.find("no threads"), std::string::npos) << what;
  }
  // An imported file's blank is named, not printed as nothing ("BASE , NEW compact").
  for (Point& p : now) p.placement = "", p.source = "measured";
  try {
    compare_points(base, now, {});
    FAIL() << "no point matches";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("; they share no placement (BASE compact, NEW unknown)"), std::string::npos)
        << e.what();
  }
}

// Thread counts and sizes are listed in number order ("NEW 1,104,16,2" was text order).
TEST(Compare, NothingMatchingListsCountsAndSizesInNumberOrder) {
  const std::vector<Point> base = {make_point("stosb", 3, 4 * MiB, 10)};
  std::vector<Point> now;
  for (int t : {1, 104, 16, 2}) now.push_back(make_point("stosb", t, 1024 * MiB, 10));
  now.push_back(make_point("stosb", 1, 64 * MiB, 10));
  try {
    compare_points(base, now, {});
    FAIL() << "no point matches";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no threads (BASE 3, NEW 1,2,16,104)"), std::string::npos) << what;
    EXPECT_NE(what.find("no size (BASE 4MiB, NEW 64MiB,1GiB)"), std::string::npos) << what;
  }
}

// Two runs of predictions: the rows start with the tag and the header is indented as far (the
// columns line up), and overlapping model bands read as such, not as noise.
TEST(Compare, PredictionRowsLineUpAndOverlappingBandsAreNotNoise) {
  std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10, 20), make_point("stosb", 2, 4 * MiB, 10, 20)};
  std::vector<Point> now = {make_point("stosb", 1, 4 * MiB, 9, 20), make_point("stosb", 2, 4 * MiB, 10.2, 20)};
  for (auto* run : {&base, &now})
    for (Point& p : *run) p.source = "simulated", p.reps = 0;
  const CompareOptions o{5.0, 10.0, {}};
  const Comparison c = compare_points(base, now, o);
  ASSERT_EQ(c.matched.size(), 2u);
  EXPECT_EQ(c.matched[0].change, Change::within_noise);
  std::ostringstream out;
  print_comparison(out, c, o);
  const std::string text = out.str();
  EXPECT_NE(text.find("within the model bands"), std::string::npos) << text;
  EXPECT_EQ(text.find("within noise"), std::string::npos) << text;
  EXPECT_EQ(text.find("marked [prediction] \n"), std::string::npos) << "no trailing space: " << text;
  std::istringstream lines(text);
  std::string line;
  std::size_t header = std::string::npos, row = std::string::npos;
  while (std::getline(lines, line)) {
    if (line.rfind(" ", 0) == 0 && line.find("verdict") != std::string::npos) header = line.find("BASE");
    if (line.rfind("[prediction] stosb", 0) == 0 && row == std::string::npos) row = line.find("10.00");
  }
  ASSERT_NE(header, std::string::npos) << text;
  ASSERT_NE(row, std::string::npos) << text;
  EXPECT_EQ(header, row) << "BASE's header stands over BASE's figures:\n" << text;
}

// A measured run against a prediction: the two disagree, which is the model's error or the
// machine's, never a regression (it made `bwlab compare measured.csv sim.csv` exit 3).
TEST(Compare, AMeasurementAgainstAPredictionIsApartNotRegressed) {
  const std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 40, 2), make_point("stosb", 1, 8 * MiB, 10, 2)};
  std::vector<Point> now = {make_point("stosb", 1, 4 * MiB, 10, 2), make_point("stosb", 1, 8 * MiB, 40, 2)};
  for (Point& p : now) p.source = "simulated", p.reps = 0, p.gbps_min = 9, p.gbps_max = 11;
  now[1].gbps_min = 36, now[1].gbps_max = 44;
  const Comparison c = compare_points(base, now, CompareOptions{5.0, 10.0, {}});
  ASSERT_EQ(c.matched.size(), 2u);
  EXPECT_TRUE(c.matched[0].against_model);
  EXPECT_EQ(c.regressions, 0);
  EXPECT_EQ(c.improvements, 0);
  EXPECT_EQ(c.model_below, 1);
  EXPECT_EQ(c.model_above, 1);
  std::ostringstream out;
  print_comparison(out, c, CompareOptions{5.0, 10.0, {}});
  EXPECT_EQ(out.str().find("REGRESSED"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("[measured vs simulated scaling"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("NEW lower, beyond the band (model vs measurement)"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("0 regressed, 0 improved, 2 apart from the model beyond its band (1 NEW lower, 1 higher"),
            std::string::npos)
      << out.str();
}

// A prediction for another CPU than the measurement's (a VM sample against a simulated Xeon): the
// gap is the machines', counted apart from the model's error and named with both CPUs (it read
// "NEW lower, beyond the band (model vs measurement)", as if the model had erred).
TEST(Compare, AMeasurementAgainstAPredictionForAnotherCpuIsCountedApart) {
  const std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 40, 2), make_point("stosb", 1, 8 * MiB, 10, 2)};
  std::vector<Point> now = {make_point("stosb", 1, 4 * MiB, 10, 2), make_point("stosb", 1, 8 * MiB, 40, 2)};
  for (Point& p : now)
    p.source = "simulated", p.reps = 0, p.gbps_min = 9, p.gbps_max = 11, p.host = "simulated",
    p.cpu_model = "Intel Xeon Platinum 8270CL";
  now[1].gbps_min = 36, now[1].gbps_max = 44;
  const Comparison c = compare_points(base, now, CompareOptions{5.0, 10.0, {}});
  ASSERT_EQ(c.matched.size(), 2u);
  EXPECT_TRUE(c.matched[0].against_model && c.matched[0].other_cpu);
  EXPECT_EQ(c.regressions + c.improvements + c.model_below + c.model_above, 0);
  EXPECT_EQ(c.other_below, 1);
  EXPECT_EQ(c.other_above, 1);
  std::ostringstream out;
  print_comparison(out, c, CompareOptions{5.0, 10.0, {}});
  const std::string text = out.str();
  EXPECT_NE(text.find("NEW lower, beyond the band (a prediction for another CPU)"), std::string::npos) << text;
  EXPECT_EQ(text.find("model vs measurement"), std::string::npos) << text;
  EXPECT_NE(text.find("predicted for Intel Xeon Platinum 8270CL, measured on Test CPU: their gap is the machines'"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("0 regressed, 0 improved, 2 beyond the band of a prediction for another CPU (1 NEW lower, 1 higher"),
            std::string::npos)
      << text;
  // Within such a prediction's band is no agreement of the model with this machine.
  std::vector<Point> close = now;
  close[0].gbps_median = 30, close[0].gbps_min = 20, close[0].gbps_max = 45;
  const Comparison within = compare_points(base, close, CompareOptions{5.0, 10.0, {}});
  EXPECT_EQ(change_words(within.matched[0]), "within the band of a prediction for another CPU");
  // The same CPU on both sides (a machine file of this host) is the model's error, as before; so
  // is the same CPU named as /proc/cpuinfo and as a preset, and a spec-sheet machine, whose points
  // carry its machine's name for want of a CPU's.
  const auto model_error = [&](const std::string& measured_cpu, const std::string& predicted_cpu,
                               const std::string& predicted_host) {
    std::vector<Point> b = base, n = now;
    for (Point& p : b) p.cpu_model = measured_cpu;
    for (Point& p : n) p.cpu_model = predicted_cpu, p.host = predicted_host;
    const Comparison same = compare_points(b, n, CompareOptions{5.0, 10.0, {}});
    // ... and no note that the hosts differ: the prediction's "model:..." host is no other machine.
    const bool hosts_note = std::any_of(same.notes.begin(), same.notes.end(), [](const std::string& note) {
      return note.find("different hosts") != std::string::npos;
    });
    return !same.matched[0].other_cpu && same.model_below + same.model_above == 2 &&
           same.other_below + same.other_above == 0 && !same.different_hosts && !hosts_note;
  };
  EXPECT_TRUE(model_error("Test CPU", "Test CPU", "simulated"));
  EXPECT_TRUE(model_error("Intel(R) Xeon(R) Platinum 8270CL CPU @ 2.70GHz", "Intel Xeon Platinum 8270CL",
                          "model:skylake-x-8270cl"));
  EXPECT_TRUE(model_error("AMD EPYC 7763 64-Core Processor", "AMD EPYC 7763", "model:m"));
  EXPECT_TRUE(model_error("Intel(R) Xeon(R) Gold 6240 CPU @ 2.60GHz", "cascadelake-sp-1s-18c-6x2666",
                          "model:cascadelake-sp-1s-18c-6x2666"));
  EXPECT_FALSE(model_error("AMD EPYC 7763 64-Core Processor", "Intel Xeon Platinum 8270CL", "model:skylake-x-8270cl"));
}

// Imported figures without a range or pstdev (a mailing-list table) and without a stated set-up:
// "[no range]" and "+-?", "?" for the unknown fields, never "nan" or blank words.
TEST(Compare, ImportedFiguresWithoutRangeOrSetupPrintNoNan) {
  std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10, 2)};
  std::vector<Point> now = base;
  for (Point* p : {&base[0], &now[0]}) p->source = "imported", p->placement.clear(), p->membind.clear(), p->pages.clear();
  base[0].gbps_min = base[0].gbps_max = Point::kNone;
  now[0].gbps_pstdev_pct = Point::kNone;
  std::ostringstream out;
  print_comparison(out, compare_points(base, now, {}), {});
  EXPECT_EQ(out.str().find("nan"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("[imported scaling ? ? ?]"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("10.00 [no range] +-"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("] +-? (5 reps)"), std::string::npos) << out.str();
}

// A point of one repetition has no spread: it read "63.06 [63.06..63.06] +-0.0% (1 rep)".
TEST(Compare, OneRepetitionHasNoSpreadToShow) {
  const std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10, 0.0, 1, 0.0)};
  const std::vector<Point> now = {make_point("stosb", 1, 4 * MiB, 11, 2.0, 5)};
  std::ostringstream out;
  print_comparison(out, compare_points(base, now, {}), {});
  EXPECT_NE(out.str().find("10.00 (1 rep)"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("+-0.0%"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("11.00 [10.78..11.22] +-1.0% (5 reps)"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace bwlab
