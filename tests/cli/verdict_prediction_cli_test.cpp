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
  TempDir dir_;
};

// Every line between a pair's heading and its recommendation carries the prediction tag.
void expect_all_pair_lines_tagged(const std::string& out) {
  bool in_pair = false;
  int tagged = 0;
  for (const std::string& line : split_lines(out)) {
    if (has(line, "== stosb")) in_pair = true;
    if (!in_pair || line.empty()) continue;
    if (has(line, "== glibc")) break;
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
  expect_all_pair_lines_tagged(r.out);
}

TEST_F(VerdictPredictionCli, MachinePredictsAndJudgesPerThreadCount) {
  const CliResult r = run_cli({"verdict", "--machine", "broadwell-x-e5-2630v4", "--kernels", "stosb,movnti",
                               "--threads", "1,max", "--sizes", "16M..1G"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "nothing was measured")) << r.out;
  // NT about 2x ahead at one thread; with all 40 threads the bands meet (the socket's DRAM binds).
  EXPECT_TRUE(has(r.out, "[prediction] Predicted recommendation: depends on load.")) << r.out;
  EXPECT_TRUE(has(r.out, "[prediction] Thread-count crossover")) << r.out;
  EXPECT_TRUE(has(r.out, "[prediction]   1GiB: stosb catches up with movnti at 40 threads")) << r.out;
  EXPECT_FALSE(has(r.out, "glibc.cpu.glibc.cpu")) << r.out;
  EXPECT_TRUE(has(r.out, "== glibc threshold advice for broadwell-x-e5-2630v4 (predicted, not measured) ==")) << r.out;
  expect_all_pair_lines_tagged(r.out);
}

TEST_F(VerdictPredictionCli, MachineRefusesBadInput) {
  expect_refused(run_cli({"verdict", "--machine", "pentium-pro"}), "unknown machine 'pentium-pro'");
  expect_refused(run_cli({"verdict", "--machine", "skylake-x-8270cl", "--kernels", "stosb"}), "--kernels needs");
  expect_refused(run_cli({"verdict", "--machine", "skylake-x-8270cl", "--threads", "1000"}), "");
  expect_refused(run_cli({"verdict", "--machine", "skylake-x-8270cl", "--model-band", "0%"}), "--model-band");
  expect_refused(run_cli({"verdict"}), "give FILE");
  expect_refused(run_cli({"verdict", path("x.csv"), "--machine", "skylake-x-8270cl"}), "not both");
  expect_refused(run_cli({"verdict", path("x.csv"), "--threads", "1"}), "go with --machine");
}

TEST_F(VerdictPredictionCli, AgainstModelPrintsBothCallsAndTheirDisagreements) {
  // A measured run where NT never overtakes (MOVNT_SLOW) against Ice Lake-X, predicted NT good.
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {7, 8, 8.5}, 1);
  const std::string file = path("m.csv");
  {
    std::ofstream out(file);
    write_csv(out, pts);
  }
  const CliResult r = run_cli({"verdict", file, "--against-model", "icelake-x-8358"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "== measured ==")) << r.out;
  EXPECT_TRUE(has(r.out, "\nRecommendation: NT slow.")) << r.out;
  EXPECT_TRUE(has(r.out, "[prediction] Predicted recommendation: NT good.")) << r.out;
  EXPECT_TRUE(has(r.out, "disagree: movnti vs stosb (fill zero): measured says NT slow, simulated says NT good"))
      << r.out;
  expect_refused(run_cli({"verdict", file, "--against-model", "nowhere"}), "unknown machine");
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
  const CliResult r = run_cli({"report", j, "--out", html});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string page = read_text(html);
  EXPECT_TRUE(has(page, "[prediction] Predicted recommendation: NT good.")) << page;
  EXPECT_TRUE(has(page, "[prediction] Thread-count crossover")) << page;
}

}  // namespace
}  // namespace bwlab::clitest
