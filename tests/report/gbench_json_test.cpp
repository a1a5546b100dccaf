// SPDX-License-Identifier: MIT
// core/report/gbench_json: names, and what compare.py's parser reads (tools/gbench/report.py).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/errors.hpp"
#include "core/report/gbench_json.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab {
namespace {

Point scaling_point() {
  Point p = testing::make_point("stosb", 2, 1ull << 30, 10.0, 1.0, 3);
  p.host = "node7";
  p.gbps_reps = {10.0, 8.0, 12.5};
  p.bytes_median = 20.0 * (1ull << 30);  // 10 passes of 2 x 1 GiB
  return p;
}

nlohmann::json exported(const std::optional<RunInfo>& run, const std::vector<Point>& points, GbenchExport* e = nullptr) {
  std::ostringstream s;
  const GbenchExport r = write_gbench_json(s, run, points);
  if (e) *e = r;
  return nlohmann::json::parse(s.str());
}

TEST(GbenchJson, NameOfAPlainScalingPoint) {
  EXPECT_EQ(gbench_name(scaling_point()), "stosb/1GiB/threads:2/fill:zero");
}

TEST(GbenchJson, NameCarriesWhatDiffersFromAPlainScalingRun) {
  Point p = scaling_point();
  p.scenario = "victim";
  p.peer_kernel = "avx512-nt";
  p.peer_threads = 1;
  p.placement = "scatter";
  p.membind = "interleave";
  p.pages = "thp";
  p.size_bytes = 16u << 20;
  p.fill = "0xff";
  EXPECT_EQ(gbench_name(p),
            "stosb/16MiB/threads:2/fill:0xff/scenario:victim/aggressor:avx512-nt/k:1/placement:scatter/"
            "membind:interleave/pages:thp");
  p.scenario = "mix";
  p.peer_kernel = "movnti+clzero";
  p.placement = p.membind = p.pages = "";
  EXPECT_EQ(gbench_name(p), "stosb/16MiB/threads:2/fill:0xff/scenario:mix/others:movnti+clzero");
}

TEST(GbenchJson, OneIterationEntryPerRepetitionThenTheAggregates) {
  const nlohmann::json doc = exported(std::nullopt, {scaling_point()});
  const auto& b = doc.at("benchmarks");
  ASSERT_EQ(b.size(), 3u + 4u);
  const double pass_bytes = 2.0 * (1ull << 30);
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(b[i].at("name"), "stosb/1GiB/threads:2/fill:zero");
    EXPECT_EQ(b[i].at("run_name"), "stosb/1GiB/threads:2/fill:zero");
    EXPECT_EQ(b[i].at("run_type"), "iteration");
    EXPECT_EQ(b[i].at("repetitions"), 3);
    EXPECT_EQ(b[i].at("repetition_index"), i);
    EXPECT_EQ(b[i].at("threads"), 2);
    EXPECT_EQ(b[i].at("iterations"), 10);
    EXPECT_EQ(b[i].at("time_unit"), "ns");
    EXPECT_EQ(b[i].at("family_index"), 0);
    const double gbps = scaling_point().gbps_reps[static_cast<std::size_t>(i)];
    EXPECT_DOUBLE_EQ(b[i].at("bytes_per_second").get<double>(), gbps * 1e9);
    EXPECT_DOUBLE_EQ(b[i].at("real_time").get<double>(), pass_bytes / gbps);  // GB/s = bytes per ns
    EXPECT_DOUBLE_EQ(b[i].at("cpu_time").get<double>(), b[i].at("real_time").get<double>());
  }
  const char* aggregates[] = {"mean", "median", "stddev", "cv"};
  for (int i = 0; i < 4; ++i) {
    const auto& a = b[3 + i];
    EXPECT_EQ(a.at("name"), std::string("stosb/1GiB/threads:2/fill:zero_") + aggregates[i]);
    EXPECT_EQ(a.at("run_type"), "aggregate");
    EXPECT_EQ(a.at("aggregate_name"), aggregates[i]);
    EXPECT_EQ(a.at("repetitions"), 3);
    EXPECT_FALSE(a.contains("repetition_index"));
  }
  EXPECT_DOUBLE_EQ(b[4].at("bytes_per_second").get<double>(), 10.0e9);             // median of the rates
  EXPECT_DOUBLE_EQ(b[4].at("real_time").get<double>(), pass_bytes / 10.0);         // median of the times
  EXPECT_DOUBLE_EQ(b[3].at("bytes_per_second").get<double>(), (10.0 + 8.0 + 12.5) / 3 * 1e9);
  // Sample stddev (n - 1) of 10, 8, 12.5: mean 10.1667, squares 0.02778 + 4.69444 + 5.44444 = 10.16667.
  EXPECT_NEAR(b[5].at("bytes_per_second").get<double>(), std::sqrt(10.16667 / 2) * 1e9, 1e5);
  EXPECT_EQ(b[6].at("aggregate_unit"), "percentage");
}

TEST(GbenchJson, WithoutPerRepetitionFiguresOnlyTheMedian) {
  Point p = scaling_point();
  p.gbps_reps.clear();  // what a CSV gives
  const nlohmann::json doc = exported(std::nullopt, {p});
  const auto& b = doc.at("benchmarks");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].at("name"), "stosb/1GiB/threads:2/fill:zero_median");
  EXPECT_EQ(b[0].at("run_type"), "aggregate");
  EXPECT_EQ(b[0].at("aggregate_name"), "median");
  EXPECT_EQ(b[0].at("repetitions"), 3);
  EXPECT_DOUBLE_EQ(b[0].at("bytes_per_second").get<double>(), 10.0e9);
}

TEST(GbenchJson, ContextFromTheRunAndPointsWithoutARateLeftOut) {
  RunInfo run;
  run.host = "node7";
  run.cpu_model_name = "AMD EPYC 9R14";
  run.date = "2026-12-01T03:00:00Z";
  run.bwlab_version = "0.1.0";
  run.topology = "1 package, 1 NUMA node, 2 cores, 4 PUs, LLC 32MiB x1 (this machine)";
  Point tlb = scaling_point();
  tlb.scenario = "tlbflush";
  tlb.kernel = "munmap";
  tlb.gbps_median = Point::kNone;
  tlb.gbps_reps = {Point::kNone};
  GbenchExport e;
  const nlohmann::json doc = exported(run, {scaling_point(), tlb}, &e);
  EXPECT_EQ(e.written, 1u);
  EXPECT_EQ(e.skipped, 1u);
  const auto& c = doc.at("context");
  EXPECT_EQ(c.at("host_name"), "node7");
  EXPECT_EQ(c.at("bwlab_cpu"), "AMD EPYC 9R14");
  EXPECT_EQ(c.at("date"), "2026-12-01T03:00:00Z");
  EXPECT_EQ(c.at("library_version"), "bwlab 0.1.0");
  EXPECT_EQ(c.at("num_cpus"), 4);
  EXPECT_NE(c.at("bwlab_note").get<std::string>().find("cpu_time is not measured"), std::string::npos);
  // Every repetition's entry carries the median repetition's passes: the note says so (the
  // iteration entries looked like per-repetition counts).
  EXPECT_NE(c.at("bwlab_note").get<std::string>().find("iterations = the passes of the median repetition, the same in "
                                                      "each entry of a point"),
            std::string::npos);
  for (const auto& b : doc.at("benchmarks")) EXPECT_EQ(b.at("name").get<std::string>().find("munmap"), std::string::npos);
}

TEST(GbenchJson, TwoPointsWithOneNameAreRefused) {
  Point a = scaling_point(), b = scaling_point();
  b.host = "other";  // a fleet: same point on two hosts
  std::ostringstream s;
  try {
    write_gbench_json(s, std::nullopt, std::vector<Point>{a, b});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("same Google Benchmark name 'stosb/1GiB/threads:2/fill:zero'"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("export a fleet's hosts one file each"), std::string::npos) << e.what();
  }
  // One host's runs appended in one file: not a fleet ("export a fleet's hosts one file each" was said).
  b.host = a.host;
  try {
    write_gbench_json(s, std::nullopt, std::vector<Point>{a, b});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("(host '{}' twice: the file holds more than one run of it; export "
                                                     "one run per file)",
                                                     a.host)),
              std::string::npos)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find("fleet"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bwlab
