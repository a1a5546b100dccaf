// SPDX-License-Identifier: MIT
// `bwlab calibrate` interrupted after a point has finished: exits 130/143, keeps that whole
// point in --csv, and writes no machine file (a fit of part of the plan would mislead).
// No timing is asserted; the waits have a 60 s hang guard.
#include <signal.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/report/csv.hpp"
#include "tests/cli/cli_driver.hpp"

namespace bwlab::clitest {
namespace {

using namespace std::chrono_literals;

class CalibrateSignal : public ::testing::TestWithParam<std::pair<int, int>> {};

// Lines of calibrate's stderr that report a finished point ("measured stosb 64KiB 1T: ...").
std::size_t finished_points(const std::string& err) {
  std::size_t n = 0;
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("measured ", 0) == 0) ++n;
  return n;
}

// calibrate --out `machine` with `extra` options over 8 sizes x 20 reps of 20 ms per kernel (a
// point takes >= 0.4 s, the plan several seconds), sent `sig` once its first point has finished
// (seen on stderr, "measured ...": calibrate writes --csv only at the end or when interrupted).
void stopped_after_a_point(const std::filesystem::path& machine, const std::vector<std::string>& extra, int sig,
                           CliResult& r) {
  std::vector<std::string> args = {"calibrate", "--out", machine.string(), "--sizes", "64K,128K,256K,512K,1M,2M,4M,8M",
                                   "--threads", "1", "--reps", "20", "--duration", "20ms"};
  args.insert(args.end(), extra.begin(), extra.end());
  CliProcess proc(args);
  while (finished_points(proc.err_so_far()) == 0 && proc.age() < 60s && !proc.poll())
    std::this_thread::sleep_for(10ms);
  ASSERT_FALSE(proc.poll()) << "calibrate ended before the signal: " << proc.wait(1s).describe();
  ASSERT_GE(finished_points(proc.err_so_far()), 1u) << "hang guard: no point finished within 60 s";
  ASSERT_TRUE(proc.send(sig)) << "calibrate ended before the signal";
  r = proc.wait(60s);  // hang guard
  ASSERT_FALSE(r.timed_out) << r.describe();
}

TEST_P(CalibrateSignal, KeepsPointsWritesNoMachine) {
  if (bwlab_bin().empty()) GTEST_SKIP() << "BWLAB_BIN not set";
  const auto [sig, code] = GetParam();
  TempDir dir;
  const auto machine = dir.path() / "m.json";
  const auto csv = dir.path() / "m.csv";
  CliResult r;
  stopped_after_a_point(machine, {"--csv", csv.string()}, sig, r);
  if (HasFatalFailure()) return;
  EXPECT_EQ(r.term_signal, 0) << "killed instead of stopping";
  EXPECT_EQ(r.exit_code, code) << r.describe();
  EXPECT_NE(r.err.find("no machine file written"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(machine));
  ASSERT_TRUE(std::filesystem::exists(csv));
  // The finished points are in the file, whole: read_csv checks the header, every row's field
  // count and that every number parses; each row has all its repetitions.
  std::istringstream in(read_text(csv));
  std::vector<Point> rows;
  ASSERT_NO_THROW(rows = read_csv(in)) << read_text(csv);
  ASSERT_GE(rows.size(), 1u) << "header only: the finished point was not kept\n" << read_text(csv);
  EXPECT_EQ(rows.size(), finished_points(r.err)) << r.describe();  // every finished point, no other
  for (const Point& p : rows) {
    EXPECT_FALSE(p.kernel.empty());
    EXPECT_GT(p.size_bytes, 0u);
    EXPECT_EQ(p.threads, 1);
    EXPECT_EQ(p.reps, 20) << "an unfinished point was kept";
    EXPECT_TRUE(std::isfinite(p.gbps_median) && p.gbps_median > 0) << p.gbps_median;
    EXPECT_GT(p.bytes_median, 0);
  }
  // The last row says the plan was cut short, as run's does (8 sizes x the default kernels planned).
  const std::string flag = fmt::format("run interrupted by {} after this point: {} of ",
                                       sig == SIGINT ? "SIGINT" : "SIGTERM", rows.size());
  ASSERT_FALSE(rows.back().flags.empty()) << read_text(csv);
  EXPECT_EQ(rows.back().flags.back().rfind(flag, 0), 0u) << rows.back().flags.back();
  EXPECT_NE(rows.back().flags.back().find(" points finished, the sweep is incomplete"), std::string::npos)
      << rows.back().flags.back();
  for (std::size_t i = 0; i + 1 < rows.size(); ++i)
    for (const std::string& f : rows[i].flags) EXPECT_EQ(f.find("interrupted"), std::string::npos) << f;
  EXPECT_NE(r.err.find("the points are in " + csv.string() + " (the last row marked partial)"), std::string::npos)
      << r.err;
  // A fit from that file says it is partial.
  const CliResult from = run_cli({"calibrate", "--from", csv.string(), "--out", (dir.path() / "m2.json").string()});
  EXPECT_NE(from.err.find("warning: " + csv.string() + " is a partial run (interrupted by"), std::string::npos)
      << from.describe();
}

// calibrate with --csv CSV, stopped by SIGINT before its first point (one 1 GiB point of 20 x 500
// ms windows per kernel: at least 10 s, so the signal comes first).
CliResult interrupted_before_the_first_point(const TempDir& dir, const std::filesystem::path& csv) {
  CliProcess proc({"calibrate", "--out", (dir.path() / "m.json").string(), "--csv", csv.string(), "--sizes", "1G",
                   "--threads", "1", "--reps", "20", "--duration", "500ms"});
  // "preparing ..." is printed once the signal handlers are in place and the buffers are mapped.
  while (proc.err_so_far().find("preparing") == std::string::npos && proc.age() < 60s && !proc.poll())
    std::this_thread::sleep_for(10ms);
  EXPECT_FALSE(proc.poll()) << "calibrate ended before the signal";
  EXPECT_TRUE(proc.send(SIGINT));
  const CliResult r = proc.wait(60s);  // hang guard
  EXPECT_FALSE(r.timed_out) << r.describe();
  EXPECT_EQ(r.exit_code, 130) << r.describe();
  return r;
}

// Stopped before any point finished: an earlier calibration's CSV is left as it was (it was
// replaced by a header alone).
TEST(CalibrateInterrupt, BeforeTheFirstPointLeavesTheCsvAlone) {
  if (bwlab_bin().empty()) GTEST_SKIP() << "BWLAB_BIN not set";
  TempDir dir;
  const auto csv = dir.path() / "keep.csv";
  const std::string old_csv = "an earlier calibration's csv\n";
  std::ofstream(csv) << old_csv;
  const CliResult r = interrupted_before_the_first_point(dir, csv);
  EXPECT_NE(r.err.find("after 0 measured points; " + csv.string() + " not touched; no machine file written"),
            std::string::npos)
      << r.describe();
  EXPECT_EQ(read_text(csv), old_csv);
}

// A CSV that was not there is neither made nor called "not touched".
TEST(CalibrateInterrupt, BeforeTheFirstPointMakesNoCsv) {
  if (bwlab_bin().empty()) GTEST_SKIP() << "BWLAB_BIN not set";
  TempDir dir;
  const auto csv = dir.path() / "new.csv";
  const CliResult r = interrupted_before_the_first_point(dir, csv);
  EXPECT_NE(r.err.find("after 0 measured points; no machine file written\n"), std::string::npos) << r.describe();
  EXPECT_EQ(r.err.find("not touched"), std::string::npos) << r.describe();
  EXPECT_FALSE(std::filesystem::exists(csv));
}

// Without --csv the finished points cannot be kept: the message says so and names the option that
// keeps them (it said only "no machine file written", the points gone without a word).
TEST(CalibrateInterrupt, WithoutCsvSaysThePointsAreNotKept) {
  if (bwlab_bin().empty()) GTEST_SKIP() << "BWLAB_BIN not set";
  TempDir dir;
  CliResult r;
  stopped_after_a_point(dir.path() / "m.json", {}, SIGINT, r);
  if (HasFatalFailure()) return;
  EXPECT_EQ(r.exit_code, 130) << r.describe();
  EXPECT_NE(r.err.find("no machine file written and the points are not kept (give --csv FILE to keep them: calibrate "
                       "--from FILE fits them later)"),
            std::string::npos)
      << r.describe();
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "m.json"));
}

// An earlier calibration's CSV is left whole: the interrupted points go to NAME.partial.csv beside
// it, as an interrupted `run` leaves them (they replaced it).
TEST(CalibrateInterrupt, AnEarlierCsvIsLeftWholeThePointsGoBesideIt) {
  if (bwlab_bin().empty()) GTEST_SKIP() << "BWLAB_BIN not set";
  TempDir dir;
  const auto csv = dir.path() / "m.csv", partial = dir.path() / "m.partial.csv";
  const std::string earlier = "an earlier calibration's csv\n";
  std::ofstream(csv) << earlier;
  CliResult r;
  stopped_after_a_point(dir.path() / "m.json", {"--csv", csv.string()}, SIGINT, r);
  if (HasFatalFailure()) return;
  EXPECT_EQ(r.exit_code, 130) << r.describe();
  EXPECT_EQ(read_text(csv), earlier);
  ASSERT_TRUE(std::filesystem::exists(partial)) << r.describe();
  std::istringstream in(read_text(partial));
  EXPECT_EQ(read_csv(in).size(), finished_points(r.err)) << r.describe();
  EXPECT_NE(r.err.find("the points are in " + partial.string() + " (the last row marked partial; " + csv.string() +
                       ", an earlier one's, left as it was)"),
            std::string::npos)
      << r.describe();
}

// Ctrl-C during the fit (after the points are measured and written) says so and writes no machine
// file: it ended the process without a word. The signal is sent once --csv appears (calibrate writes
// it just before fitting); a fit that ended before the signal arrived is skipped, not failed.
TEST(CalibrateInterrupt, DuringTheFitWritesNoMachineAndSaysWhereThePointsAre) {
  if (bwlab_bin().empty()) GTEST_SKIP() << "BWLAB_BIN not set";
  TempDir dir;
  const auto csv = dir.path() / "c.csv", machine = dir.path() / "m.json";
  CliProcess proc({"calibrate", "--out", machine.string(), "--csv", csv.string(), "--sizes", "64K,256K,1M,4M",
                   "--reps", "2", "--duration", "5ms"});
  while (!std::filesystem::exists(csv) && proc.age() < 120s && !proc.poll()) std::this_thread::sleep_for(1ms);
  if (proc.poll()) GTEST_SKIP() << "the fit ended before the signal: " << proc.wait(1s).describe();
  ASSERT_TRUE(std::filesystem::exists(csv)) << "no point measured within 120 s (hang guard)";
  ASSERT_TRUE(proc.send(SIGINT));
  const CliResult r = proc.wait(120s);  // hang guard
  ASSERT_FALSE(r.timed_out) << r.describe();
  if ((r.exit_code == 0 || r.exit_code == 3) && std::filesystem::exists(machine))  // 3: written, a figure implausible
    GTEST_SKIP() << "the fit ended before the signal";
  EXPECT_EQ(r.term_signal, 0) << "killed instead of stopping: " << r.describe();
  EXPECT_EQ(r.exit_code, 130) << r.describe();
  EXPECT_NE(r.err.find("bwlab calibrate: interrupted by SIGINT during the fit; no machine file written; the measured "
                       "points are in " + csv.string() + " (calibrate --from " + csv.string() + " fits them)"),
            std::string::npos)
      << r.describe();
  EXPECT_FALSE(std::filesystem::exists(machine));
}

INSTANTIATE_TEST_SUITE_P(Signals, CalibrateSignal,
                         ::testing::Values(std::pair{SIGINT, 130}, std::pair{SIGTERM, 143}));

}  // namespace
}  // namespace bwlab::clitest
