// SPDX-License-Identifier: MIT
// `bwlab verdict` on simulated runs, `--machine` and `--against-model`, as a separate process.
// Model output is deterministic; the calls (not the figures) are asserted.
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/report/csv.hpp"
#include "tests/cli/cli_driver.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab::clitest {
namespace {

using bwlab::testing::add_pair;

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

class VerdictPredictionCli : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(bwlab_bin().empty()) << "BWLAB_BIN is not set"; }
  std::string path(const std::string& name) const { return (dir_.path() / name).string(); }
  // `pts` as a bwlab CSV in the test's directory; its path.
  std::string write_run(const std::string& name, const std::vector<Point>& pts) const {
    const std::string file = path(name);
    std::ofstream out(file);
    write_csv(out, pts);
    return file;
  }
  // `bwlab machine spec ARGS --out NAME` in the test's directory; the file's path.
  std::string machine_spec(const std::string& name, std::vector<std::string> args) const {
    const std::string file = path(name);
    args.insert(args.begin(), {"machine", "spec"});
    args.insert(args.end(), {"--out", file});
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.describe();
    return file;
  }
  TempDir dir_;
};

// Every line between a pair's heading and its recommendation carries the prediction tag.
void expect_all_pair_lines_tagged(const std::string& out) {
  bool in_pair = false;
  int tagged = 0;
  for (const std::string& line : split_lines(out)) {
    if (has(line, "== stosb")) in_pair = true;
    if (!in_pair || line.empty()) continue;
    if (has(line, "== glibc") || line.rfind("glibc: ", 0) == 0) break;
    EXPECT_EQ(line.rfind("[prediction] ", 0), 0u) << line;
    EXPECT_FALSE(has(line, "Recommendation:")) << line;
    ++tagged;
  }
  EXPECT_GE(tagged, 5) << out;
}

TEST_F(VerdictPredictionCli, TheIssuesSimulatedRunGetsAPredictedCall) {
  const std::string s = path("s.csv");
  const CliResult sim = run_cli({"simulate", "--machine", "skylake-x-8270cl", "--kernels", "stosb,movnti", "--sizes",
                                 "2M..4G", "--threads", "1", "--csv", s, "--quiet"});
  ASSERT_EQ(sim.exit_code, 0) << sim.describe();
  const CliResult r = run_cli({"verdict", s});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_FALSE(has(r.out, "repetitions per point")) << r.out;
  EXPECT_TRUE(has(r.out, "[prediction] Predicted recommendation: NT slow.")) << r.out;
  EXPECT_TRUE(has(r.out, "model band")) << r.out;  // the simulator's own low..high band, not the default
  // Nothing measured: the legend and context speak of predictions, not repetitions and windows.
  EXPECT_TRUE(has(r.out, "Per point: predicted GB/s [the model's band]")) << r.out;
  EXPECT_FALSE(has(r.out, "min..max over repetitions")) << r.out;
  EXPECT_TRUE(has(r.out, "; steady state, no windows\n")) << r.out;
  EXPECT_FALSE(has(r.out, "windows of 200 ms")) << r.out;
  expect_all_pair_lines_tagged(r.out);
  // This machine's glibc is not set beside another machine's predictions.
  EXPECT_FALSE(has(r.out, "== glibc on this machine")) << r.out;
  EXPECT_TRUE(has(r.out, "glibc: this machine's threshold is not set beside predictions")) << r.out;
}

TEST_F(VerdictPredictionCli, MachinePredictsAndJudgesPerThreadCount) {
  const CliResult r = run_cli({"verdict", "--machine", "broadwell-x-e5-2630v4", "--kernels", "stosb,movnti",
                               "--threads", "1,max", "--sizes", "16M..1G"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "nothing was measured")) << r.out;
  // NT about 2x ahead at one thread; with all 40 threads the bands meet (the socket's DRAM binds):
  // never behind, so NT good.
  EXPECT_TRUE(has(r.out, "[prediction] Predicted recommendation: NT good.")) << r.out;
  EXPECT_TRUE(has(r.out, "[prediction] Thread-count crossover")) << r.out;
  EXPECT_TRUE(has(r.out, "[prediction]   1GiB: stosb is level with movnti at 40 threads")) << r.out;
  EXPECT_FALSE(has(r.out, "glibc.cpu.glibc.cpu")) << r.out;
  EXPECT_TRUE(has(r.out, "== glibc threshold advice for broadwell-x-e5-2630v4 (predicted, not measured) ==")) << r.out;
  expect_all_pair_lines_tagged(r.out);
}

// NT behind at sizes all below glibc's formula: the advice agrees with glibc instead of saying it
// "would switch to NT too early" at a size it never reaches.
TEST_F(VerdictPredictionCli, MachineAdviceAgreesWhenGlibcIsAboveEverySize) {
  const CliResult r = run_cli({"verdict", "--machine", "skylake-x-8270cl", "--kernels", "stosb,movnti", "--threads", "1,2",
                               "--sizes", "64K,128K"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "MOVNT_SLOW, keep rep stosb; glibc's formula (528KiB) is above every size simulated, as it "
                         "should be")) << r.out;
  EXPECT_FALSE(has(r.out, "too early")) << r.out;
}

// Huge-page-sized clears on a machine whose LLC holds every thread's buffer: the model predicts a
// cached buffer's passes, which a fresh page never is; the verdict says so (it did not, and
// called MOVNT_SLOW at -91% from stosb's 1.8 TB/s in cache). Sizes beyond the LLC: no note.
TEST_F(VerdictPredictionCli, MachineSaysWhenTheBuffersFitInTheCache) {
  const CliResult r = run_cli({"verdict", "--machine", "skylake-x-8270cl", "--kernels", "stosb,movnti", "--threads",
                               "1,2", "--sizes", "1M,2M"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "[prediction] note: at 1T and 2T the largest size judged (2MiB per thread) and its threads' "
                         "buffers together fit in machine skylake-x-8270cl's last-level caches"))
      << r.out;
  EXPECT_TRUE(has(r.out, "not of fresh pages")) << r.out;
  const CliResult big = run_cli({"verdict", "--machine", "skylake-x-8270cl", "--kernels", "stosb,movnti", "--threads",
                                 "1,2", "--sizes", "1G,2G"});
  ASSERT_EQ(big.exit_code, 0) << big.describe();
  EXPECT_FALSE(has(big.out, "last-level caches")) << big.out;
}

// The published runs' set-up: threads the OS places; memory on node 0. Judged as simulate would predict it.
TEST_F(VerdictPredictionCli, MachineTakesPlacementAndMembind) {
  const CliResult none = run_cli({"verdict", "--machine", "skylake-x-8270cl", "--kernels", "stosb,movnti", "--threads",
                                  "1,52", "--sizes", "256M", "--placement", "none", "--membind", "node:0"});
  ASSERT_EQ(none.exit_code, 0) << none.describe();
  EXPECT_TRUE(has(none.out, "placement none, membind node:0")) << none.out;
  // "max" beside a PU list is the list's length, as for simulate (it was the topology's 104 PUs,
  // and the default 1,max was refused).
  const CliResult list = run_cli({"verdict", "--machine", "skylake-x-8270cl", "--kernels", "stosb,movnti", "--sizes",
                                  "256M", "--placement", "0,1,2"});
  ASSERT_EQ(list.exit_code, 0) << list.describe();
  EXPECT_TRUE(has(list.out, " 3T")) << list.out;  // judged at 3 threads
  expect_refused(run_cli({"verdict", "--machine", "skylake-x-8270cl", "--placement", "0,1,2", "--threads", "4"}),
                 "placement list:0-2");
  const CliResult with_file = run_cli({"verdict", "x.csv", "--placement", "none"});
  EXPECT_EQ(with_file.exit_code, 2) << with_file.describe();
  EXPECT_TRUE(has(with_file.err, "--placement and --membind go with --machine")) << with_file.describe();
}

TEST_F(VerdictPredictionCli, MachineRefusesBadInput) {
  expect_refused(run_cli({"verdict", "--machine", "pentium-pro"}), "unknown machine 'pentium-pro'");
  expect_refused(run_cli({"verdict", "--machine", "skylake-x-8270cl", "--kernels", "stosb"}), "--kernels needs");
  expect_refused(run_cli({"verdict", "--machine", "skylake-x-8270cl", "--threads", "1000"}), "");
  expect_refused(run_cli({"verdict", "--machine", "skylake-x-8270cl", "--model-band", "0%"}), "--model-band");
  expect_refused(run_cli({"verdict", "--machine", "skylake-x-8270cl", "--model-band", "-5%"}),
                 "bad --model-band '-5%': a percentage here cannot be negative");
  expect_refused(run_cli({"verdict", "--machine", "skylake-x-8270cl", "--model-band", "200%"}),
                 "bad --model-band '200%': use a percentage above 0 and below 100");
  expect_refused(run_cli({"verdict"}), "give FILE");
  expect_refused(run_cli({"verdict", path("x.csv"), "--machine", "skylake-x-8270cl"}), "not both");
  expect_refused(run_cli({"verdict", path("x.csv"), "--threads", "1"}), "go with --machine");
}

TEST_F(VerdictPredictionCli, AgainstModelPrintsBothCallsAndTheirDisagreements) {
  // A measured run where NT never overtakes (MOVNT_SLOW) against Ice Lake-X, predicted NT good.
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {7, 8, 8.5}, 1);
  const std::string file = write_run("m.csv", pts);
  const CliResult r = run_cli({"verdict", file, "--against-model", "icelake-x-8358"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "== measured ==")) << r.out;
  EXPECT_TRUE(has(r.out, "\nRecommendation: NT slow.")) << r.out;
  // 16 MiB per thread, which the model keeps in Ice Lake-X's 48 MiB LLC: the call says it is one of cached clears.
  EXPECT_TRUE(has(r.out, "[prediction] Predicted recommendation: NT good, for clears that fit in the cache only: the "
                         "model keeps every judged row's buffers in the machine's last-level cache"))
      << r.out;
  EXPECT_TRUE(has(r.out, "disagree: movnti vs stosb (fill zero): measured says NT slow, simulated says NT good"))
      << r.out;
  // Per thread count, each side in its own words: ranges for the measurement, the model's
  // uncertainty for the prediction.
  EXPECT_TRUE(has(r.out, "disagree: movnti vs stosb (fill zero) at 1T: measured NT behind (ranges apart) at 16MiB, "
                         "simulated NT ahead (beyond the model's uncertainty) at 16MiB"))
      << r.out;
  expect_refused(run_cli({"verdict", file, "--against-model", "nowhere"}), "unknown machine");
}

// A simulated file's call from rows the model keeps in the LLC says so, as a measured file's does
// (1 MiB rows on a 35.75 MiB LLC read "keep the cacheable stosb for large clears"); rows of 256 MiB
// and 1 GiB, from DRAM, do not.
TEST_F(VerdictPredictionCli, APredictionFromCachedRowsSaysSo) {
  for (const std::string sizes : {"64K,1M", "256M,1G"}) {
    const std::string sim = path("s.csv");
    ASSERT_EQ(run_cli({"simulate", "--machine", "skylake-x-8270cl", "--kernels", "stosb,movnti", "--sizes", sizes,
                       "--threads", "1,2", "--csv", sim, "--quiet"})
                  .exit_code,
              0);
    const CliResult r = run_cli({"verdict", sim});
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    const bool cached = sizes == "64K,1M";
    EXPECT_EQ(has(r.out, "for clears that fit in the cache only: the model keeps every judged row's buffers"), cached)
        << r.out;
    EXPECT_EQ(has(r.out, "for large clears"), false) << r.out;  // cached: "clears that stay in the cache"
    EXPECT_EQ(has(r.out, "keep the cacheable stosb for clears that stay in the cache"), cached) << r.out;
    EXPECT_EQ(has(r.out, "fit in the cache only"), cached) << r.out;
  }
}

TEST_F(VerdictPredictionCli, AgainstModelTakesAnUnknownFill) {
  // Imported files that state no fill carry fill "unknown": judged as its own context, predicted as
  // the model's zero fill with a note, not refused as a bad fill.
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {7, 8, 8.5}, 1);
  for (Point& p : pts) p.fill = "unknown";
  const std::string file = write_run("u.csv", pts);
  const CliResult r = run_cli({"verdict", file, "--against-model", "icelake-x-8358"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "fill unknown,")) << r.out;
  EXPECT_TRUE(has(r.out, "does not state the fill (fill unknown): predicted as a zero fill")) << r.out;
  EXPECT_TRUE(has(r.out, "disagree: movnti vs stosb (fill unknown): measured says NT slow, simulated says NT good"))
      << r.out;
}

TEST_F(VerdictPredictionCli, BehindThenLevelIsNtSlowLikeTheGlibcAdvice) {
  // The QA case: a 1-socket Cascade Lake spec, NT behind at 1T and level at all threads, never
  // overtaking: the call and the glibc advice both say MOVNT_SLOW.
  const std::string m = machine_spec("clx1.json", {"--uarch", "cascadelake-sp", "--sockets", "1", "--cores", "18",
                                                   "--smt", "2", "--channels", "6", "--mts", "2666", "--llc", "24.75M"});
  const CliResult r = run_cli({"verdict", "--machine", m, "--kernels", "stosb,movnti"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "movnti never overtakes stosb")) << r.out;
  EXPECT_TRUE(has(r.out, "[prediction] Predicted recommendation: NT slow.")) << r.out;
  EXPECT_FALSE(has(r.out, "depends on load")) << r.out;
}

TEST_F(VerdictPredictionCli, GlibcAdviceSaysWhenACrossoverIsByMediansOnly) {
  // The QA case: a 2-socket Zen 3 spec. At 1T NT overtakes by medians (~28MiB) but is level within
  // the model's uncertainty at the largest size and behind at the small sizes: that thread count
  // counts as behind, so the advice must say MOVNT_SLOW with the crossover by medians beside it,
  // not a call for NT. At all threads NT is level at the largest size but ahead beyond the
  // uncertainty at 2..8MiB and behind nowhere: the mirror, counted as ahead (it was "no call" while
  // the rule was one-sided, and the run as a whole NT slow); together: depends on load. No tunable.
  const std::string m = machine_spec("zen3.json", {"--uarch", "zen3", "--sockets", "2", "--cores", "16", "--smt", "2",
                                                   "--channels", "8", "--mts", "3200", "--llc", "32M"});
  const CliResult r = run_cli({"verdict", "--machine", m, "--kernels", "stosb,movnti"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "[prediction] Predicted recommendation: depends on load.")) << r.out;
  EXPECT_TRUE(has(r.out, "at 64T the predictions are within the model's uncertainty of each other at the largest size "
                         "(+13.9% at 64T), but movnti is ahead at 3 smaller sizes and behind at none, so that thread "
                         "count counts as ahead"))
      << r.out;
  EXPECT_TRUE(has(r.out, "glibc 2.36 formula with the machine's LLC (32MiB per package")) << r.out;
  EXPECT_TRUE(has(r.out, "movnti vs stosb at 1T: movnti never overtakes stosb beyond the model's uncertainty (up to "
                         "4GiB; by medians it overtakes ~"))
      << r.out;
  EXPECT_TRUE(has(r.out, "movnti vs stosb at 64T: movnti overtakes stosb at or below 2MiB (NT's median ahead at every "
                         "size); glibc's formula switches at 768KiB: the crossover lies at or below 2MiB"))
      << r.out;
  EXPECT_FALSE(has(r.out, "GLIBC_TUNABLES")) << r.out;
}

// Where the verdict says level, the glibc advice makes no call: the QA case of a 1-socket Cascade
// Lake sheet, whose 16T median crossover (~7MiB) once printed a GLIBC_TUNABLES line and whose 32T
// and 36T (level, -0.1% and -0.7%) once read MOVNT_SLOW.
TEST_F(VerdictPredictionCli, GlibcAdviceFollowsTheVerdictsCalls) {
  const std::string m = machine_spec("clx.json", {"--uarch", "cascadelake-sp", "--sockets", "1", "--cores", "18",
                                                  "--smt", "2", "--channels", "6", "--mts", "2666", "--llc", "24.75M"});
  const CliResult r = run_cli({"verdict", "--machine", m, "--kernels", "stosb,avx2-nt", "--threads", "1,2,4,8,16,32,36"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "avx2-nt vs stosb at 1..8T (4 thread counts): avx2-nt never overtakes stosb beyond the "
                         "model's uncertainty"))
      << r.out;
  EXPECT_TRUE(has(r.out, "avx2-nt vs stosb at 16T: avx2-nt and stosb are level within the model's uncertainty")) << r.out;
  EXPECT_TRUE(has(r.out, "avx2-nt vs stosb at 32T and 36T: avx2-nt and stosb are level within the model's uncertainty"))
      << r.out;
  EXPECT_FALSE(has(r.out, "GLIBC_TUNABLES")) << r.out;
}

// Thread counts with the same advice share one line: eight thread counts that all keep rep stosb
// are one line per NT kernel, not eight.
TEST_F(VerdictPredictionCli, GlibcAdviceGroupsThreadCountsWithTheSameAdvice) {
  const CliResult r = run_cli({"verdict", "--machine", "skylake-x-8270cl", "--threads", "1..8", "--kernels",
                               "stosb,movnti"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "movnti vs stosb at 1..8T (8 thread counts): movnti never overtakes stosb")) << r.out;
  EXPECT_FALSE(has(r.out, "movnti vs stosb at 2T")) << r.out;
}

// A measured run against the simulated run of the same sweep: matched on every parameter but the
// source (as the GUI's Runs > Compare), not refused with "no point of NEW matches".
TEST_F(VerdictPredictionCli, CompareMatchesMeasuredAgainstSimulatedButTheSource) {
  const std::string sim = path("s.csv"), measured = path("m.csv");
  ASSERT_EQ(run_cli({"simulate", "--machine", "icelake-x-8358", "--kernels", "stosb,movnti", "--sizes", "16M,1G",
                     "--threads", "1,4", "--csv", sim, "--quiet"})
                .exit_code,
            0);
  {
    std::ifstream in(sim);
    std::vector<Point> pts = read_csv(in);
    for (Point& p : pts) p.source = "measured", p.reps = 3, p.host = "testhost", p.gbps_pstdev_pct = 1;  // the same sweep, "measured"
    std::ofstream out(measured);
    write_csv(out, pts);
  }
  const CliResult c = run_cli({"compare", measured, sim});
  EXPECT_NE(c.exit_code, 2) << c.describe();
  EXPECT_TRUE(has(c.out, "note: NEW is simulated, BASE measured: points matched on every parameter but the source"))
      << c.out;
  EXPECT_TRUE(has(c.out, "8 points matched")) << c.out;
  EXPECT_TRUE(has(c.out, "when measured, predicted GB/s [model band] when simulated")) << c.out;
  for (const std::string& line : split_lines(c.out))
    if (has(line, "stosb 1GiB")) {
      EXPECT_EQ(line.rfind("[prediction] ", 0), 0u) << line;
      EXPECT_TRUE(has(line, "(3 reps)") && has(line, "[model band ")) << line;  // BASE measured, NEW predicted
    }
}

TEST_F(VerdictPredictionCli, CompareAndReportMarkPredictions) {
  const std::string a = path("a.csv"), b = path("b.csv"), j = path("a.json"), html = path("a.html");
  for (const auto& [machine, csv] : {std::pair{"icelake-x-8358", a}, std::pair{"broadwell-x-e5-2630v4", b}}) {
    std::vector<std::string> args = {"simulate", "--machine", machine, "--kernels", "stosb,movnti", "--sizes",
                                     "16M,1G", "--threads", "1,4", "--csv", csv, "--quiet"};
    if (csv == a) args.insert(args.end(), {"--json", j});
    ASSERT_EQ(run_cli(args).exit_code, 0);
  }
  const CliResult same = run_cli({"compare", a, a});
  EXPECT_EQ(same.exit_code, 0) << same.describe();
  const CliResult c = run_cli({"compare", a, b});
  EXPECT_EQ(c.exit_code, 3) << c.describe();  // a regression (exit 3): Broadwell-X predicted below Ice Lake-X beyond the model band
  EXPECT_TRUE(has(c.out, "model predictions, not measurements")) << c.out;
  int rows = 0;
  for (const std::string& line : split_lines(c.out))
    if (has(line, "[simulated ")) {
      EXPECT_EQ(line.rfind("[prediction] ", 0), 0u) << line;
      ++rows;
    }
  EXPECT_EQ(rows, 8) << c.out;
  // Two simulated files: the header and rows say model band, not repetitions and a pstdev.
  EXPECT_TRUE(has(c.out, "bwlab compare: predicted GB/s [model band] (simulated: no repetitions)")) << c.out;
  EXPECT_FALSE(has(c.out, "min..max over repetitions")) << c.out;
  for (const std::string& line : split_lines(c.out))
    if (has(line, "[simulated ")) {
      EXPECT_FALSE(has(line, "reps)") || has(line, "+-")) << line;  // was "+-0.0% (0 reps)"
      EXPECT_TRUE(has(line, " [model band ")) << line;
    }
  const CliResult r = run_cli({"report", j, "--out", html});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string page = read_text(html);
  EXPECT_TRUE(has(page, "[prediction] Predicted recommendation: NT good.")) << page;
  EXPECT_TRUE(has(page, "[prediction] Thread-count crossover")) << page;
  // The page says what simulated figures are, not "over the repetitions" or "the run measured".
  EXPECT_TRUE(has(page, "Simulated points: the model's prediction, the vertical bars span its uncertainty band"))
      << page;
  EXPECT_FALSE(has(page, "over the repetitions")) << page;
  EXPECT_FALSE(has(page, "the run measured")) << page;
  EXPECT_TRUE(has(page, "the points are the model&#39;s predictions for model:icelake-x-8358")) << page;
}

}  // namespace
}  // namespace bwlab::clitest
