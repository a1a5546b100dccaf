// SPDX-License-Identifier: MIT
// `bwlab calibrate` interrupted: exits 130/143 within a second or two, keeps the measured
// points in --csv, and writes no machine file (a fit of part of the plan would mislead).
#include <signal.h>

#include <filesystem>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "core/report/csv.hpp"
#include "tests/cli/cli_driver.hpp"

namespace bwlab::clitest {
namespace {

using namespace std::chrono_literals;

class CalibrateSignal : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(CalibrateSignal, KeepsPointsWritesNoMachine) {
  if (bwlab_bin().empty()) GTEST_SKIP() << "BWLAB_BIN not set";
  const auto [sig, code] = GetParam();
  TempDir dir;
  const auto machine = dir.path() / "m.json";
  const auto csv = dir.path() / "m.csv";
  CliProcess proc({"calibrate", "--out", machine.string(), "--csv", csv.string(), "--sizes", "64K,128K,256K,512K",
                   "--threads", "1", "--reps", "200", "--duration", "20ms", "--quiet"});
  std::this_thread::sleep_for(1500ms);
  ASSERT_TRUE(proc.send(sig)) << "calibrate ended before the signal";
  const auto sent = std::chrono::steady_clock::now();
  const CliResult r = proc.wait(10s);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count();
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.term_signal, 0) << "killed instead of stopping";
  EXPECT_EQ(r.exit_code, code) << r.describe();
  EXPECT_LT(ms, 2000.0);
  EXPECT_FALSE(std::filesystem::exists(machine));
  ASSERT_TRUE(std::filesystem::exists(csv));
  std::istringstream in(read_text(csv));
  EXPECT_NO_THROW(read_csv(in));
  EXPECT_NE(r.err.find("no machine file written"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Signals, CalibrateSignal,
                         ::testing::Values(std::pair{SIGINT, 130}, std::pair{SIGTERM, 143}));

}  // namespace
}  // namespace bwlab::clitest
