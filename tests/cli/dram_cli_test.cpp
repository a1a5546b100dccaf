// SPDX-License-Identifier: MIT
// DRAM traffic columns through the real `bwlab run`: on a host without memory-controller
// counters (this VM) the columns are there and empty, and the reason is printed once; where the
// counters exist and open, every measured point has both figures.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/counters/dram_meter.hpp"
#include "core/counters/dram_pmu.hpp"
#include "core/report/csv.hpp"
#include "tests/cli/cli_driver.hpp"

namespace bwlab::clitest {
namespace {

using namespace std::chrono_literals;

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(DramCli, EveryPointHasTheColumnsFilledOrTheReasonOnce) {
  TempDir dir;
  const fs::path csv = dir.path() / "dram.csv";
  const CliResult r = run_cli({"run", "--kernels", "stosb", "--sizes", "1M", "--threads", "1", "--reps", "2",
                               "--duration", "10ms", "--fill", "zero", "--csv", csv.string()},
                              60s);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string header = split_lines(read_text(csv)).at(0);
  EXPECT_NE(header.find(",dram_read_per_byte,dram_write_per_byte"), std::string::npos) << header;
  std::ifstream in(csv);
  const std::vector<Point> points = read_csv(in);
  ASSERT_EQ(points.size(), 1u);

  // What this host offers, found the same way bwlab run finds it.
  std::string why;
  const auto meter = DramMeter::open(discover_dram_events(), why);
  if (!meter) {
    EXPECT_EQ(count_of(r.err, "DRAM traffic not counted"), 1u) << r.describe();
    EXPECT_EQ(count_of(r.err, why), 1u) << "the reason, as discovery gives it: " << why << "\n" << r.describe();
    for (const Point& p : points) {
      EXPECT_TRUE(std::isnan(p.dram_read_per_byte));
      EXPECT_TRUE(std::isnan(p.dram_write_per_byte));
    }
  } else {
    EXPECT_EQ(count_of(r.err, "DRAM traffic counted from"), 1u) << r.describe();
    for (const Point& p : points) {
      EXPECT_GE(p.dram_read_per_byte, 0);
      EXPECT_GE(p.dram_write_per_byte, 0);
    }
  }
}

}  // namespace
}  // namespace bwlab::clitest
