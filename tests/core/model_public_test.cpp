// SPDX-License-Identifier: MIT
// Out-of-sample check against public multi-thread data the model was never fitted to
// (tests/data/public/README.md): kerncraft's likwid-bench `update` runs, halved, as a
// write-allocate clearing proxy, and goldsteinn/memset-benchmarks' rep stosb / cacheable / NT
// memset timings at 1..all threads. The bounds are the model's computed errors today plus a small
// margin: a deterministic computation that fails when a model change makes these predictions worse.
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/model/uarch.hpp"
#include "core/model/validate.hpp"
#include "core/report/csv.hpp"
#include "core/topology/topology.hpp"

namespace bwlab {
namespace {

const std::string kDir = std::string(BWLAB_PUBLIC_DATA) + "/";

// "# spec: --uarch skylake-sp --sockets 1 --cores 20 ..." -> SpecSheet (the `bwlab machine spec` options).
model::SpecSheet read_spec(const std::string& name) {
  std::ifstream in(kDir + name + ".spec");
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error("cannot read " + kDir + name + ".spec");
  std::istringstream words(line.substr(line.find("--")));
  model::SpecSheet s;
  std::string key, value;
  while (words >> key >> value) {
    if (key == "--uarch") s.uarch = value;
    else if (key == "--sockets") s.sockets = std::stoi(value);
    else if (key == "--cores") s.cores = std::stoi(value);
    else if (key == "--smt") s.smt = std::stoi(value);
    else if (key == "--channels") s.channels = std::stoi(value);
    else if (key == "--mts") s.mts = std::stod(value);
    else if (key == "--llc") s.llc_bytes = static_cast<std::uint64_t>(std::stod(value) * 1024 * 1024);  // "27.5M"
    else if (key == "--base-ghz") s.base_ghz = std::stod(value);
    else if (key == "--turbo-ghz") s.turbo_ghz = std::stod(value);
    else throw std::runtime_error("unknown spec option " + key);
  }
  return s;
}

// A public set validated against the machine its .spec describes, as `bwlab simulate --validate` does.
model::ValidationReport validate_public(const std::string& name) {
  const MachineParams m = model::machine_from_spec(read_spec(name));
  std::ifstream in(kDir + name + ".csv");
  const model::ObservationSet set = model::read_observations(in, name);
  return model::validate(set.rows, Topology::from_spec(machine_topology(m)), m);
}

struct PublicCase {
  const char* name;
  std::size_t rows;
  double log_rms_bound;
  std::set<std::string> kernels;  // what the rows measured
  int winner_pairs = 0;           // write-allocate vs NT pairs > 10% apart (0: the set has no NT rows)
  int winner_right = 0;           // of those, the model picks the faster (a lower bound)
  bool relative = false;          // the rows are relative figures (goldsteinn_relative.py), not GB/s
  double ratio_log_rms_bound = 0;  // the error of ratios between kernels (0: no point has two kernels)
};

class PublicValidation : public ::testing::TestWithParam<PublicCase> {};

TEST_P(PublicValidation, LogRmsWithinThePinnedBound) {
  const PublicCase& c = GetParam();
  const MachineParams m = model::machine_from_spec(read_spec(c.name));
  std::ifstream in(kDir + c.name + ".csv");
  ASSERT_TRUE(in) << kDir << c.name << ".csv";
  const model::ObservationSet set = model::read_observations(in, c.name);
  ASSERT_EQ(set.format, "imported");
  ASSERT_EQ(set.rows.size(), c.rows);
  for (const auto& o : set.rows) ASSERT_TRUE(c.kernels.count(o.kernel)) << o.label;
  const Topology topo = Topology::from_spec(machine_topology(m));
  const auto rep = model::validate(set.rows, topo, m);
  ASSERT_EQ(rep.points.size(), c.rows) << "every public row is predicted, none skipped";
  EXPECT_EQ(rep.relative_points, c.relative ? static_cast<int>(c.rows) : 0) << c.name;
  EXPECT_LE(rep.log_rms, c.log_rms_bound) << c.name;
  EXPECT_GT(rep.log_rms, 0.0) << "an exact match would mean the rows were fitted";
  const model::WinnerScore w = model::winner_accuracy(rep.points);
  EXPECT_EQ(w.pairs, c.winner_pairs) << c.name;
  EXPECT_GE(w.right, c.winner_right) << c.name;
  // Levels taken out: every absolute row of a memset set shares its point with the other kernels.
  if (c.ratio_log_rms_bound > 0) {
    EXPECT_EQ(model::ratio_error(rep.points).figures, static_cast<int>(c.rows)) << c.name;
    EXPECT_LE(model::ratio_error(rep.points).log_rms, c.ratio_log_rms_bound) << c.name;
    EXPECT_GT(model::ratio_error(rep.points).log_rms, 0.0) << c.name;
  } else {
    EXPECT_EQ(model::ratio_error(rep.points).figures, 0) << c.name << ": one kernel per point, or relative rows (compared as ratios already)";
  }
}

std::string case_name(const ::testing::TestParamInfo<PublicCase>& info) {
  std::string n = info.param.name;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

// Bounds: log-RMS computed on 2026-12-01 (docs/model.md, "Public multi-thread data") + 0.02.
const std::set<std::string> kProxy{"avx2-store"};
const std::vector<PublicCase> kKerncraft{PublicCase{"BroadwellEP_E5-2630v4", 10, 0.177 + 0.02, kProxy},
                                         PublicCase{"SkylakeSP_Gold-5122", 8, 0.171 + 0.02, kProxy},
                                         PublicCase{"SkylakeSP_Gold-6148", 40, 0.384 + 0.02, kProxy},
                                         PublicCase{"SkylakeSP_Platinum-8147_2.7GHz", 48, 0.285 + 0.02, kProxy}};
INSTANTIATE_TEST_SUITE_P(Kerncraft, PublicValidation, ::testing::ValuesIn(kKerncraft), case_name);

// rep stosb, cacheable vmovdqa and NT vmovntdq memsets of 256 MiB per thread, unpinned threads,
// buffers first-touched by the main thread (membind node:0 on 2 sockets); computed 2026-12-01.
const std::set<std::string> kMemset{"stosb", "avx2-store", "avx2-nt"};
// Ratio bounds: the same rows with each point's level taken out, computed 2026-12-03, + 0.02.
const std::vector<PublicCase> kGoldsteinn{
    PublicCase{"goldsteinn_SKX-2", 21, 0.303 + 0.02, kMemset, 11, 10, false, 0.117 + 0.02},
    PublicCase{"goldsteinn_BWD-1", 24, 0.310 + 0.02, kMemset, 13, 13, false, 0.114 + 0.02},
    PublicCase{"goldsteinn_SKX-1", 24, 0.572 + 0.02, kMemset, 4, 2, false, 0.246 + 0.02},
    PublicCase{"goldsteinn_HSW-EP", 21, 0.341 + 0.02, kMemset, 11, 11, false, 0.172 + 0.02}};
INSTANTIATE_TEST_SUITE_P(Goldsteinn, PublicValidation, ::testing::ValuesIn(kGoldsteinn), case_name);

// goldsteinn/memset-benchmarks' summary sheets of six more servers: the same three memsets, but
// each figure relative to the mean time of the three at its point (no GB/s published), so the
// log-RMS is an error of ratios between kernels; fill 0 and fill 1 rows. Computed 2026-12-01,
// after LLC domains and the zen3/zen4 rows' rep stos figures (zen3's evasion and both rows'
// zero-only rule were read off the ZEN3 and ZEN4 sheets: in-sample for those; docs/model.md).
const std::vector<PublicCase> kRelative{
    PublicCase{"goldsteinn_SPR", 54, 0.156 + 0.02, kMemset, 36, 34, true},
    PublicCase{"goldsteinn_ICX-2", 54, 0.141 + 0.02, kMemset, 36, 36, true},
    PublicCase{"goldsteinn_ICX-1", 48, 0.288 + 0.02, kMemset, 31, 27, true},
    PublicCase{"goldsteinn_ZEN2", 54, 0.126 + 0.02, kMemset, 30, 30, true},
    PublicCase{"goldsteinn_ZEN3", 54, 0.215 + 0.02, kMemset, 32, 32, true},
    PublicCase{"goldsteinn_ZEN4", 54, 0.182 + 0.02, kMemset, 31, 31, true}};
INSTANTIATE_TEST_SUITE_P(GoldsteinnRelative, PublicValidation, ::testing::ValuesIn(kRelative), case_name);

// The stosb-vs-NT goals, as `bwlab simulate --validate` prints them: the right winner at
// every thread count where the two differ by > 10%, and the winner changing within one doubling
// of the measured thread count. Pinned where they hold today; SKX-1's measured order changes from
// one thread count to the next (2 of 4 winners, 1 of 3 stosb-vs-NT) and is left out.
TEST(PublicStosVsNt, WinnerAndCrossoverGoalsHoldOnThreeServers) {
  struct Want {
    const char* name;
    int pairs, measured_change, predicted_change;
  };
  for (const Want w : {Want{"goldsteinn_SKX-2", 4, 8, 16}, Want{"goldsteinn_BWD-1", 5, 0, 0},
                       Want{"goldsteinn_HSW-EP", 4, 0, 0}}) {
    const auto scores = model::stos_nt_scores(validate_public(w.name).points);
    ASSERT_EQ(scores.size(), 1u) << w.name;
    const auto& s = scores[0];
    EXPECT_EQ(s.pairs, w.pairs) << w.name;
    EXPECT_EQ(s.right, s.pairs) << w.name;
    EXPECT_EQ(s.measured_change, w.measured_change) << w.name;
    EXPECT_EQ(s.predicted_change, w.predicted_change) << w.name;
    EXPECT_TRUE(s.change_within_one_doubling()) << w.name;
  }
}

// The stosb-vs-NT winner on the relative sheets, zero and non-zero fill: right at every thread
// count > 10% apart on ICX-2, Zen 2, Zen 3 and Zen 4, 7 of 9 (zero) on SPR and 7 of 8 on ICX-1.
// Where the winner changes is pinned where the measured order is stable (never, as predicted);
// on SPR, ICX-1, Zen 3 and Zen 4 with zeros it flips between thread counts within a single run's
// noise (e.g. Zen 4: NT 1.14x, 0.99x, 1.14x stosb) and is not pinned.
TEST(PublicStosVsNt, WinnerHoldsOnTheRelativeSheets) {
  struct Want {
    const char* name;
    bool zero_fill;
    int pairs, right;
    bool never_changes;
  };
  for (const Want w : {Want{"goldsteinn_SPR", true, 9, 7, false}, Want{"goldsteinn_SPR", false, 9, 9, true},
                       Want{"goldsteinn_ICX-2", true, 9, 9, true}, Want{"goldsteinn_ICX-2", false, 9, 9, true},
                       Want{"goldsteinn_ICX-1", true, 8, 7, false}, Want{"goldsteinn_ICX-1", false, 8, 7, false},
                       Want{"goldsteinn_ZEN2", true, 7, 7, true}, Want{"goldsteinn_ZEN2", false, 8, 8, true},
                       Want{"goldsteinn_ZEN3", true, 6, 6, false}, Want{"goldsteinn_ZEN3", false, 8, 8, true},
                       Want{"goldsteinn_ZEN4", true, 4, 4, false}, Want{"goldsteinn_ZEN4", false, 9, 9, true}}) {
    const auto scores = model::stos_nt_scores(validate_public(w.name).points);
    ASSERT_EQ(scores.size(), 2u) << w.name << ": one series per fill";
    const auto& s = scores[0].zero_fill == w.zero_fill ? scores[0] : scores[1];
    ASSERT_EQ(s.zero_fill, w.zero_fill) << w.name;
    EXPECT_EQ(s.pairs, w.pairs) << w.name << (w.zero_fill ? " zero" : " 0x01");
    EXPECT_GE(s.right, w.right) << w.name << (w.zero_fill ? " zero" : " 0x01");
    if (w.never_changes) {
      EXPECT_EQ(s.measured_change, 0) << w.name;
      EXPECT_EQ(s.predicted_change, 0) << w.name;
    }
  }
}

// The spec-sheet band (x/(1 + band), machine_from_spec) is meant to hold most measurements: over
// every public row, at least 80% (86% on 2026-12-01; docs/model.md, "Uncertainty").
TEST(PublicBand, SpecSheetBandHoldsMostPublicRows) {
  int rows = 0, inside = 0;
  for (const auto* cases : {&kKerncraft, &kGoldsteinn})
    for (const PublicCase& c : *cases) {
      const MachineParams m = model::machine_from_spec(read_spec(c.name));
      std::ifstream in(kDir + c.name + ".csv");
      const model::ObservationSet set = model::read_observations(in, c.name);
      const auto rep = model::validate(set.rows, Topology::from_spec(machine_topology(m)), m);
      for (const auto& e : rep.points) {
        ++rows;
        inside += std::fabs(std::log(e.predicted / e.obs.gbps)) <= std::log(1 + m.band) + 1e-12 ? 1 : 0;
      }
    }
  ASSERT_EQ(rows, 196);
  EXPECT_GE(inside, rows * 8 / 10) << inside << " of " << rows << " public rows inside the spec-sheet band";
}

}  // namespace
}  // namespace bwlab

namespace bwlab {
namespace {

// Rows of one kernel, size and thread count that differ in placement are two configurations, not
// two runs: their labels name the placement (kerncraft's compact and SMT rows at 2T read "#1", "#2").
TEST(PublicData, RowsOfOnePointInTwoPlacementsNameThem) {
  std::ifstream in(std::string(BWLAB_PUBLIC_DATA) + "/SkylakeSP_Gold-6148.csv");
  const model::ObservationSet set = model::read_observations(in, "SkylakeSP_Gold-6148");
  std::set<std::string> labels;
  for (const model::Observation& o : set.rows) labels.insert(o.label);
  EXPECT_EQ(labels.size(), set.rows.size());  // every row told apart
  EXPECT_TRUE(labels.count("avx2-store 200.27MiB 2T unknown compact"));
  EXPECT_TRUE(labels.count("avx2-store 200.27MiB 2T unknown PUs 0,1"));
  EXPECT_TRUE(labels.count("avx2-store 100.14MiB 4T unknown PUs 0-3"));
  EXPECT_TRUE(labels.count("avx2-store 400.54MiB 1T unknown"));  // one placement: no word of it
}

// What a public file does not state stays empty: the kerncraft proxies wrote thread_fairness 0,
// which the GUI's table showed as "0.00", a completely unfair run, for every row.
TEST(PublicData, FairnessIsStatedOrLeftEmpty) {
  for (const char* name : {"BroadwellEP_E5-2630v4", "SkylakeSP_Gold-5122", "SkylakeSP_Gold-6148",
                           "SkylakeSP_Platinum-8147_2.7GHz", "goldsteinn_SKX-2", "goldsteinn_BWD-1"}) {
    std::ifstream in(std::string(BWLAB_PUBLIC_DATA) + "/" + name + ".csv");
    ASSERT_TRUE(in) << name;
    const std::vector<Point> points = read_csv(in);
    ASSERT_FALSE(points.empty()) << name;
    for (const Point& p : points)
      EXPECT_TRUE(std::isnan(p.thread_fairness) || (p.thread_fairness > 0 && p.thread_fairness <= 1))
          << name << " " << p.threads << "T: " << p.thread_fairness;
  }
}

}  // namespace
}  // namespace bwlab
