// SPDX-License-Identifier: MIT
// `bwlab export --format gbench` read back by `bwlab import gbench`: the fields both formats share
// (kernel, size, threads, host, repetitions, median GB/s and spread) survive the round trip.
#include <algorithm>
#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/import/import.hpp"
#include "core/report/gbench_json.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab {
namespace {

// A measured point whose median is the middle of an odd number of repetitions.
Point measured(const std::string& kernel, std::uint64_t size, int threads, std::vector<double> reps) {
  std::vector<double> sorted = reps;
  std::sort(sorted.begin(), sorted.end());
  Point p = testing::make_point(kernel, threads, size, sorted[sorted.size() / 2], 1.0, static_cast<int>(reps.size()));
  p.host = "node3";
  p.gbps_reps = std::move(reps);
  return p;
}

TEST(GbenchExportImport, SharedFieldsSurviveTheRoundTrip) {
  const std::vector<Point> points{measured("stosb", 1ull << 30, 2, {10.0, 8.0, 12.5}),
                                  measured("movnti", 16ull << 20, 1, {20.0, 21.0, 19.0, 22.0, 18.0})};
  RunInfo run;
  run.host = "node3";
  std::ostringstream out;
  const GbenchExport e = write_gbench_json(out, run, points);
  ASSERT_EQ(e.written, 2u);
  import::Options o;
  o.file = "export.json";
  const std::vector<Point> back = import::import_text("gbench", out.str(), o);
  ASSERT_EQ(back.size(), points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    SCOPED_TRACE(points[i].kernel);
    EXPECT_EQ(back[i].kernel, points[i].kernel);
    EXPECT_EQ(back[i].size_bytes, points[i].size_bytes);
    EXPECT_EQ(back[i].threads, points[i].threads);
    EXPECT_EQ(back[i].host, "node3");
    EXPECT_EQ(back[i].reps, points[i].reps);
    EXPECT_NEAR(back[i].gbps_median, points[i].gbps_median, 1e-9);
    EXPECT_EQ(back[i].origin_function, points[i].kernel);
    // The importer's spread is the stddev aggregate (sample) over the mean: present, positive.
    EXPECT_GT(back[i].gbps_pstdev_pct, 0);
  }
}

// A CSV's points (no per-repetition figures: median aggregates only) keep their range and spread,
// and every point its window: they came back as "[no range] +-?" with no window, so compare could
// neither judge by ranges nor warn that windows differ.
TEST(GbenchExportImport, ACsvPointsRangeSpreadAndWindowSurviveTheRoundTrip) {
  Point p = testing::make_point("stosb", 2, 64ull << 20, 30.0, 2.5, 5, 2.5);
  p.host = "node3", p.gbps_min = 28.5, p.gbps_max = 31.25, p.duration_ms = 150;
  p.gbps_reps.clear();  // as read from a CSV
  std::ostringstream out;
  ASSERT_EQ(write_gbench_json(out, std::nullopt, std::vector<Point>{p}).written, 1u);
  import::Options o;
  o.file = "export.json";
  const std::vector<Point> back = import::import_text("gbench", out.str(), o);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_DOUBLE_EQ(back[0].gbps_min, 28.5);
  EXPECT_DOUBLE_EQ(back[0].gbps_max, 31.25);
  EXPECT_DOUBLE_EQ(back[0].gbps_pstdev_pct, 2.5);
  EXPECT_DOUBLE_EQ(back[0].duration_ms, 150);
  EXPECT_EQ(back[0].reps, 5);
  // Counters of another tool's JSON are not bwlab's: a file without bwlab's note keeps no range.
  std::string foreign = out.str();
  foreign.replace(foreign.find("\"bwlab_note\""), 12, "\"other_note\"");
  const std::vector<Point> other = import::import_text("gbench", foreign, o);
  EXPECT_FALSE(std::isfinite(other.at(0).gbps_min));
  EXPECT_EQ(other.at(0).duration_ms, 0);
}

// An imported run's JSON names its host in its points only, and knows no CPUID: the export's
// context says the host, and writes no made-up CPU family 0.
TEST(GbenchExportImport, AnImportedRunsContextNamesItsHostAndNoMadeUpCpu) {
  Point p = testing::make_point("stosb", 1, 1ull << 20, 30.0, 1.0, 1);
  p.source = "imported", p.host = "srv", p.cpu_model = "";
  RunInfo run;  // as bwlab import writes it: no host, no CPU identity
  std::ostringstream out;
  write_gbench_json(out, run, std::vector<Point>{p});
  const std::string text = out.str();
  EXPECT_NE(text.find("\"host_name\": \"srv\""), std::string::npos) << text;
  EXPECT_EQ(text.find("bwlab_cpu_family"), std::string::npos) << text;
}

TEST(GbenchExportImport, SizeArgumentInWholeBinaryUnits) {
  import::Options o;
  o.file = "f.json";
  auto size_of = [&](const std::string& name) {
    const std::string text = "{\"benchmarks\": [{\"name\": \"" + name + "\", \"bytes_per_second\": 1e9}]}";
    return import::import_text("gbench", text, o).at(0).size_bytes;
  };
  EXPECT_EQ(size_of("BM_memset/1GiB"), 1ull << 30);
  EXPECT_EQ(size_of("stosb/4KiB/threads:1"), 4096u);
  EXPECT_EQ(size_of("stosb/16MiB"), 16ull << 20);
  EXPECT_EQ(size_of("BM_memset/4096"), 4096u);
  for (const char* bad : {"BM_x/1.5GiB", "BM_x/GiB", "BM_x/-1GiB"})
    EXPECT_THROW(size_of(bad), InputError) << bad;
}

}  // namespace
}  // namespace bwlab
