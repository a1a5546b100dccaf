// SPDX-License-Identifier: MIT
// `bwlab plot`: renders CSV files to PNG/PDF/SVG without a display; bad input exits 2.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_driver.hpp"
#include "core/report/csv.hpp"

namespace bwlab::clitest {
namespace {

// A small CSV: 2 kernels x 2 sizes x 2 thread counts (figures are made up: they test drawing).
fs::path write_sample(const fs::path& dir, const std::string& name, const std::string& source = "measured",
                      const std::string& host = "") {
  std::vector<Point> points;
  for (const char* k : {"stosb", "movnti"})
    for (std::uint64_t size : {1u << 20, 1u << 24})
      for (int t : {1, 2}) {
        Point p;
        p.kernel = k;
        p.threads = t;
        p.size_bytes = size;
        p.fill = "zero";
        p.placement = "compact";
        p.membind = "local";
        p.pages = "4k";
        p.reps = 3;
        p.gbps_median = 10.0 * t;
        p.gbps_min = 9.0 * t;
        p.gbps_max = 11.0 * t;
        p.gbps_per_thread_median = 10.0;
        p.source = source;
        if (!host.empty()) p.host = host;
        points.push_back(p);
      }
  std::ostringstream s;
  write_csv(s, points);
  const fs::path path = dir / name;
  std::ofstream(path) << s.str();
  return path;
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

TEST(PlotCommand, WritesPngPdfAndSvg) {
  TempDir dir;
  const fs::path csv = write_sample(dir.path(), "a.csv");
  const fs::path png = dir.path() / "plot.png", pdf = dir.path() / "plot.pdf", svg = dir.path() / "plot.svg";
  CliResult r = run_cli({"plot", csv.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("8 points from 1 file"), std::string::npos) << r.describe();
  EXPECT_TRUE(starts_with(read_text(png), "\x89PNG"));
  r = run_cli({"plot", csv.string(), "--kind", "size", "--out", pdf.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(starts_with(read_text(pdf), "%PDF"));
  r = run_cli({"plot", csv.string(), write_sample(dir.path(), "b.csv").string(), "--out", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("16 points from 2 files"), std::string::npos) << r.describe();
  EXPECT_NE(read_text(svg).find("<svg"), std::string::npos);
}

TEST(PlotCommand, BadInputExits2WithOneClearLine) {
  TempDir dir;
  const fs::path bad = dir.path() / "bad.csv";
  std::ofstream(bad) << csv_header() << "\nmeasured,scaling,too,few\n";
  CliResult r = run_cli({"plot", bad.string(), "--out", (dir.path() / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.describe();
  EXPECT_FALSE(fs::exists(dir.path() / "x.png"));

  r = run_cli({"plot", write_sample(dir.path(), "a.csv").string(), "--out", (dir.path() / "x.gif").string()});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find(".png, .pdf or .svg"), std::string::npos) << r.describe();

  r = run_cli({"plot", (dir.path() / "missing.csv").string(), "--out", (dir.path() / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.describe();
}

// --llc takes the cache sizes of `machine spec --llc` (it used to refuse 24.75M as "bytes per thread").
TEST(PlotCommand, LlcTakesTheMachineSpecSyntax) {
  TempDir dir;
  const fs::path csv = write_sample(dir.path(), "a.csv");
  const fs::path svg = dir.path() / "plot.svg";
  CliResult r = run_cli({"plot", csv.string(), "--kind", "size", "--llc", "24.75M", "--out", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("LLC 24.75 MiB"), std::string::npos) << r.describe();
  r = run_cli({"plot", csv.string(), "--kind", "size", "--llc", "24.75MiB", "--out", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("LLC 24.75 MiB"), std::string::npos) << r.describe();
  r = run_cli({"plot", csv.string(), "--kind", "size", "--llc", "24.75", "--out", (dir.path() / "x.svg").string()});
  expect_refused(r, "--llc 24.75: no unit; did you mean 24.75M?");
  EXPECT_FALSE(fs::exists(dir.path() / "x.svg"));
}

TEST(PlotCommand, CeilingsOfTheSimulatedMachineOrOfMachine) {
  TempDir dir;
  const fs::path sim = write_sample(dir.path(), "sim.csv", "simulated", "model:skylake-x-8270cl");
  const fs::path png = dir.path() / "plot.png";
  // auto: the preset the simulated points name (its DRAM peak is far above these figures: named, not drawn)
  CliResult r = run_cli({"plot", sim.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("DRAM peak per node"), std::string::npos) << r.describe();
  r = run_cli({"plot", sim.string(), "--machine", "none", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("DRAM peak"), std::string::npos) << r.describe();
  // measured points name no model machine: none unless asked for
  const fs::path measured = write_sample(dir.path(), "m.csv");
  r = run_cli({"plot", measured.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("DRAM peak"), std::string::npos) << r.describe();
  r = run_cli({"plot", measured.string(), "--machine", "skylake-x-8270cl", "--kind", "size", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("LLC "), std::string::npos) << r.describe();
  const fs::path out = dir.path() / "x.png";
  r = run_cli({"plot", measured.string(), "--machine", "no-such-machine", "--out", out.string()});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("no-such-machine"), std::string::npos) << r.describe();
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace bwlab::clitest
