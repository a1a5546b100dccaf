// SPDX-License-Identifier: MIT
// `bwlab export --format gbench`: two measured runs exported and compared by Google Benchmark's
// own compare.py (Debian: libbenchmark-tools, with python3-scipy for its U test; setup.sh installs
// both), and the refusals.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/report/csv.hpp"
#include "tests/cli/cli_driver.hpp"

namespace bwlab::clitest {
namespace {

constexpr const char* kPython = "/usr/bin/python3";  // Debian's, which has scipy (not a pyenv shim)
constexpr const char* kCompare = "/usr/share/benchmark/compare.py";

// A tiny measured run: 2 kernels x 1 size x 1 thread x 3 reps of 10 ms.
void measure(const fs::path& json, const fs::path& csv) {
  const CliResult r = run_cli({"run", "--kernels", "stosb,movnti", "--sizes", "4M", "--threads", "1", "--reps", "3",
                               "--duration", "10ms", "--quiet", "--json", json.string(), "--csv", csv.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
}

TEST(ExportCli, CompareDotPyReadsTwoExportedRuns) {
  ASSERT_TRUE(fs::exists(kCompare)) << kCompare << " is missing: scripts/setup.sh installs libbenchmark-tools";
  TempDir dir;
  const fs::path d = dir.path();
  for (const char* name : {"a", "b"}) {
    measure(d / (std::string(name) + ".json"), d / (std::string(name) + ".csv"));
    // gbench is the only format and the default: b is exported without --format.
    std::vector<std::string> args = {"export", (d / (std::string(name) + ".json")).string(), "--out",
                                     (d / (std::string(name) + ".gbench.json")).string()};
    if (std::string(name) == "a") args.insert(args.begin() + 1, {"--format", "gbench"});
    const CliResult r = run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    EXPECT_NE(r.out.find("(2 benchmarks)"), std::string::npos) << r.describe();
  }
  const fs::path out = d / "compare.txt";
  const std::string cmd = std::string(kPython) + " " + kCompare + " --no-color benchmarks '" +
                          (d / "a.gbench.json").string() + "' '" + (d / "b.gbench.json").string() + "' > '" +
                          out.string() + "' 2>&1";
  const int status = std::system(cmd.c_str());
  const std::string text = read_text(out);
  ASSERT_TRUE(WIFEXITED(status)) << text;
  ASSERT_EQ(WEXITSTATUS(status), 0) << text;
  for (const char* name : {"stosb/4MiB/threads:1/fill:zero", "movnti/4MiB/threads:1/fill:zero",
                           "stosb/4MiB/threads:1/fill:zero_median", "movnti/4MiB/threads:1/fill:zero_pvalue"})
    EXPECT_NE(text.find(name), std::string::npos) << name << "\n" << text;
  // The U test ran on the 3 repetitions of each side.
  EXPECT_NE(text.find("U Test, Repetitions: 3 vs 3"), std::string::npos) << text;
}

// Exported (sample stddev, as Google Benchmark writes it) and imported back: the same pstdev, so
// a verdict of the round-tripped run is the run's (15.2% once came back as 18.7%: "too noisy").
TEST(ExportCli, PstdevSurvivesARoundTripThroughGoogleBenchmarkJson) {
  TempDir dir;
  const fs::path d = dir.path();
  measure(d / "a.json", d / "a.csv");
  ASSERT_EQ(run_cli({"export", "--format", "gbench", (d / "a.json").string(), "-o", (d / "a.gb.json").string()}).exit_code,
            0);
  const CliResult r = run_cli({"import", "gbench", (d / "a.gb.json").string(), "--csv", (d / "back.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::ifstream a_in(d / "a.csv"), back_in(d / "back.csv");
  const std::vector<Point> before = read_csv(a_in), after = read_csv(back_in);
  ASSERT_EQ(before.size(), after.size());
  for (const Point& b : before) {
    const auto a = std::find_if(after.begin(), after.end(), [&](const Point& p) { return p.kernel == b.kernel; });
    ASSERT_NE(a, after.end()) << b.kernel;
    EXPECT_NEAR(a->gbps_pstdev_pct, b.gbps_pstdev_pct, 1e-6 * (1 + b.gbps_pstdev_pct)) << b.kernel;
  }
}

// A run and its own export imported back are the same figures: compare said "+0.0% within
// tolerance" at every row without the "same run twice?" note, and called the import's date "run".
// Its header says the measured run's window too (it was only in a "windows differ" warning).
TEST(ExportCli, CompareKnowsARunImportedBackFromItsExport) {
  TempDir dir;
  const fs::path d = dir.path();
  measure(d / "a.json", d / "a.csv");
  ASSERT_EQ(run_cli({"export", (d / "a.json").string(), "-o", (d / "a.gb.json").string()}).exit_code, 0);
  ASSERT_EQ(run_cli({"import", "gbench", (d / "a.gb.json").string(), "--json", (d / "back.json").string()}).exit_code,
            0);
  const CliResult r = run_cli({"compare", (d / "a.json").string(), (d / "back.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("note: BASE and NEW hold the same figures at every point: the same run twice?"),
            std::string::npos)
      << r.describe();
  EXPECT_NE(r.out.find("2 points (measured), host "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", windows of 10 ms, run "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 points (imported), host "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", imported "), std::string::npos) << r.out;
}

TEST(ExportCli, CsvGivesMedianAggregatesOnly) {
  TempDir dir;
  const fs::path d = dir.path();
  measure(d / "a.json", d / "a.csv");
  const CliResult r =
      run_cli({"export", "--format", "gbench", (d / "a.csv").string(), "-o", (d / "a.gbench.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("median aggregates only"), std::string::npos) << r.describe();
  const std::string text = read_text(d / "a.gbench.json");
  EXPECT_NE(text.find("\"stosb/4MiB/threads:1/fill:zero_median\""), std::string::npos) << text;
  EXPECT_EQ(text.find("\"run_type\": \"iteration\""), std::string::npos) << text;
}

// Simulated points leave bwlab marked as predictions: the note says so first, every entry is labelled.
TEST(ExportCli, SimulatedPointsAreExportedAsPredictions) {
  TempDir dir;
  const fs::path d = dir.path();
  ASSERT_EQ(run_cli({"simulate", "--machine", "icelake-x-8358", "--kernels", "stosb,movnti", "--sizes", "16M,1G",
                     "--threads", "1", "--quiet", "--csv", (d / "s.csv").string()})
                .exit_code,
            0);
  const CliResult r =
      run_cli({"export", "--format", "gbench", (d / "s.csv").string(), "-o", (d / "s.gbench.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string text = read_text(d / "s.gbench.json");
  EXPECT_NE(text.find("\"bwlab_note\": \"PREDICTED, NOT MEASURED: every point was simulated by bwlab's analytical "
                      "model"),
            std::string::npos)
      << text;
  std::size_t labels = 0;
  for (std::size_t at = 0; (at = text.find("\"label\": \"simulated: a model prediction, not a measurement\"", at)) !=
                           std::string::npos;
       ++at)
    ++labels;
  EXPECT_EQ(labels, 4u) << text;  // 2 kernels x 2 sizes, one median entry each
  // Not imported back as figures: without its band and machine a prediction came back "imported",
  // and compare called the model's error against a real run REGRESSED.
  const CliResult back = run_cli({"import", "gbench", (d / "s.gbench.json").string(), "--csv", (d / "back.csv").string()});
  EXPECT_EQ(back.exit_code, 2) << back.describe();
  EXPECT_NE(back.err.find("is a bwlab prediction (label 'simulated: a model prediction, not a measurement')"),
            std::string::npos)
      << back.describe();
  EXPECT_NE(back.err.find("read the bwlab JSON or CSV `bwlab simulate` wrote instead"), std::string::npos)
      << back.describe();
  EXPECT_FALSE(fs::exists(d / "back.csv"));
}

TEST(ExportCli, BadInputIsRefused) {
  TempDir dir;
  const fs::path d = dir.path();
  measure(d / "a.json", d / "a.csv");
  const std::string out = (d / "x.json").string();
  expect_refused(run_cli({"export", "--format", "csv", (d / "a.json").string(), "--out", out}),
                 "unknown export format 'csv'; formats are: gbench");
  expect_refused(run_cli({"export", "--format", "gbnech", (d / "a.json").string(), "--out", out}),
                 "unknown export format 'gbnech'; did you mean gbench? formats are: gbench");
  expect_refused(run_cli({"export", "--format", "gbench", (d / "missing.json").string(), "--out", out}), "cannot read");
  ASSERT_EQ(run_cli({"merge", (d / "a.json").string(), "--out", (d / "fleet.csv").string()}).exit_code, 0);
  expect_refused(run_cli({"export", "--format", "gbench", (d / "fleet.csv").string(), "--out", out}),
                 "is a bwlab fleet CSV: export one host's run at a time");
  expect_refused(run_cli({"export", "--format", "gbench", (d / "a.json").string(), "--out", "/proc/x.json"}),
                 "cannot write /proc/x.json");
  EXPECT_FALSE(fs::exists(out));
  // Each file's format under the other's name: every reader goes by the suffix.
  const fs::path wrong_json = d / "e.csv", wrong_csv = d / "fleet.json";
  expect_refused(run_cli({"export", (d / "a.json").string(), "--out", wrong_json.string()}),
                 "--out " + wrong_json.string() +
                     ": Google Benchmark output is JSON, but every reader reads a .csv file as CSV; name it " +
                     (d / "e.json").string());
  expect_refused(run_cli({"merge", (d / "a.json").string(), "--out", wrong_csv.string()}),
                 "--out " + wrong_csv.string() + ": a fleet file is CSV, but every reader reads a .json file as JSON; "
                 "name it " + (d / "fleet.csv").string());
  EXPECT_FALSE(fs::exists(wrong_json));
  EXPECT_FALSE(fs::exists(wrong_csv));
}

TEST(ExportCli, RunWritesGoogleBenchmarkJsonDirectly) {
  TempDir dir;
  const std::string json = (dir.path() / "run.gbench.json").string();
  const CliResult r = run_cli({"run", "--kernels", "stosb", "--sizes", "4M", "--threads", "1", "--reps", "2",
                               "--duration", "10ms", "--quiet", "--json", json, "--json-format", "gbench"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string text = read_text(json);
  EXPECT_NE(text.find("\"benchmarks\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"name\": \"stosb/4MiB/threads:1/fill:zero\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"repetition_index\": 1"), std::string::npos) << text;
  EXPECT_EQ(text.find("\"schema_version\""), std::string::npos) << "not bwlab's JSON\n" << text;
  expect_refused(run_cli({"run", "--kernels", "stosb", "--sizes", "4M", "--json", json, "--json-format", "gbnch"}),
                 "bad --json-format 'gbnch': did you mean gbench? bwlab or gbench");
  expect_refused(run_cli({"run", "--kernels", "stosb", "--sizes", "4M", "--json-format", "gbench"}),
                 "--json-format gbench needs --json FILE");
}

}  // namespace
}  // namespace bwlab::clitest
