// SPDX-License-Identifier: MIT
// The command under a cpuset smaller than the machine (what `taskset -c N bwlab ...` does):
// thread counts above the allowed PUs are refused naming them, and `max` means the allowed ones.
#include <sched.h>

#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/report/csv.hpp"
#include "tests/cli/cli_driver.hpp"

namespace bwlab::clitest {
namespace {

using namespace std::chrono_literals;

// Restricts this process (and so the children it starts) to one CPU for the test's lifetime.
class OneCpu {
 public:
  OneCpu() {
    sched_getaffinity(0, sizeof saved_, &saved_);
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &saved_)) {
        cpu_ = c;
        break;
      }
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu_, &one);
    sched_setaffinity(0, sizeof one, &one);
  }
  ~OneCpu() { sched_setaffinity(0, sizeof saved_, &saved_); }
  int cpu() const { return cpu_; }
  int had() const { return CPU_COUNT(&saved_); }

 private:
  cpu_set_t saved_;
  int cpu_ = 0;
};

TEST(CliConstrained, ThreadsAboveTheCpusetAreRefusedNamingTheAllowedPus) {
  if (bwlab_bin().empty()) GTEST_SKIP() << "BWLAB_BIN not set";
  OneCpu one;
  if (one.had() < 2) GTEST_SKIP() << "needs 2 allowed CPUs to take one away";
  const CliResult r = run_cli({"run", "--threads", "2", "--sizes", "64K"}, 60s);
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("may use only 1 PU (" + std::to_string(one.cpu()) + ":"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("GB/s"), std::string::npos) << "nothing may be measured";
}

TEST(CliConstrained, MaxMeansTheAllowedPus) {
  if (bwlab_bin().empty()) GTEST_SKIP() << "BWLAB_BIN not set";
  OneCpu one;
  TempDir dir;
  const std::string csv = (dir.path() / "one.csv").string();
  const CliResult r = run_cli({"run", "--kernels", "stosb", "--sizes", "64K", "--threads", "max", "--reps", "1",
                               "--duration", "2ms", "--quiet", "--csv", csv},
                              60s);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::istringstream in(read_text(csv));
  const auto points = read_csv(in);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].threads, 1);
  ASSERT_EQ(points[0].pus.size(), 1u);
  EXPECT_EQ(points[0].pus[0], one.cpu());
}

}  // namespace
}  // namespace bwlab::clitest
