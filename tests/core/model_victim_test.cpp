// SPDX-License-Identifier: MIT
// simulate_victim: the victim scenario predicted in run_victim's form (order, fields, CSV), in
// agreement with the scaling sweep where the two describe the same threads, and physical where
// the model says so (aggressors on the victim's own package never speed it up).
#include <algorithm>
#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/report/csv.hpp"
#include "core/sweep/parse.hpp"
#include "core/topology/placement.hpp"

namespace bwlab {
namespace {

SweepSpec spec_of(std::vector<int> threads, std::uint64_t size = 1ull << 30) {
  SweepSpec spec;
  spec.sizes = {size};
  spec.threads = std::move(threads);
  spec.fills = {Fill{}};
  spec.placement = parse_placement("compact");
  return spec;
}

TEST(SimulateVictim, SameOrderAndFieldsAsRunVictim) {
  const MachinePtr m = load_machine("skylake-x-8270cl");
  const Topology topo = Topology::from_spec(machine_topology(*m));
  const SweepSpec spec = spec_of({4, 2});  // unsorted, and without 1: the baseline is added
  const std::vector<Point> points = simulate_victim(spec, {"stosb", "movnti"}, {"avx512-nt"}, topo, *m);
  ASSERT_EQ(points.size(), 2u * 3);
  std::size_t i = 0;
  for (const char* victim : {"stosb", "movnti"}) {
    double baseline = 0;
    for (int n : {1, 2, 4}) {
      SCOPED_TRACE(std::string(victim) + " " + std::to_string(n));
      const Point& p = points[i++];
      EXPECT_EQ(p.scenario, "victim");
      EXPECT_EQ(p.role, "victim");
      EXPECT_EQ(p.source, "simulated");
      EXPECT_EQ(p.reps, 0);
      EXPECT_EQ(p.kernel, victim);
      EXPECT_EQ(p.peer_kernel, "avx512-nt");
      EXPECT_EQ(p.threads, n);
      EXPECT_EQ(p.peer_threads, n - 1);
      EXPECT_EQ(p.pus_planned, plan_pus(topo, spec.placement, n));
      EXPECT_GT(p.gbps_median, 0);
      EXPECT_LT(p.gbps_min, p.gbps_median);
      EXPECT_GT(p.gbps_max, p.gbps_median);
      if (n == 1) {
        baseline = p.gbps_median;
        EXPECT_EQ(p.slowdown_pct, 0);
        EXPECT_EQ(p.peer_gbps_median, 0);
      } else {
        EXPECT_GT(p.peer_gbps_median, 0);
      }
      EXPECT_EQ(p.baseline_gbps, baseline);
      EXPECT_NEAR(p.slowdown_pct, 100 * (1 - p.gbps_median / baseline), 1e-9);
    }
  }
  // The CSV keeps what makes a victim row (the GUI's heat map reads these columns back).
  std::stringstream csv;
  write_csv(csv, points);
  const std::vector<Point> back = read_csv(csv);
  ASSERT_EQ(back.size(), points.size());
  for (std::size_t j = 0; j < back.size(); ++j) {
    EXPECT_EQ(back[j].scenario, "victim");
    EXPECT_EQ(back[j].peer_kernel, points[j].peer_kernel);
    EXPECT_EQ(back[j].peer_threads, points[j].peer_threads);
    EXPECT_NEAR(back[j].slowdown_pct, points[j].slowdown_pct, 1e-6);
    EXPECT_EQ(back[j].flags, points[j].flags);
  }
}

// Victim and aggressors running one kernel are the scaling sweep's threads: one solve, the same
// rates (a package without SMT, so every thread of the scaling point has the same rate).
TEST(SimulateVictim, AgreesWithTheScalingSweepOnTheSameThreads) {
  for (const auto& preset : preset_table()) {
    const Topology topo = Topology::from_synthetic("package:1 numa:1 core:8 pu:1");
    for (const char* kernel : {"stosb", "movnti"}) {
      SCOPED_TRACE(preset.name + " " + kernel);
      SweepSpec spec = spec_of({1, 2, 5, 8}, 8 * preset.llc_bytes_per_package);
      spec.kernels = {kernel};
      const std::vector<Point> scaling = simulate_sweep(spec, topo, preset);
      const std::vector<Point> victim = simulate_victim(spec, {kernel}, {kernel}, topo, preset);
      ASSERT_EQ(victim.size(), scaling.size());
      for (std::size_t i = 0; i < victim.size(); ++i) {
        const Point& s = scaling[i];
        const Point& v = victim[i];
        ASSERT_EQ(v.threads, s.threads);
        EXPECT_NEAR(v.gbps_median, s.gbps_median / s.threads, 1e-9 * s.gbps_median) << s.threads << " threads";
        EXPECT_NEAR(v.peer_gbps_median, s.gbps_median - v.gbps_median, 1e-9 * s.gbps_median) << s.threads;
        EXPECT_NEAR(v.baseline_gbps, scaling.front().gbps_median, 1e-9 * s.gbps_median);
      }
    }
  }
}

// On every preset's own machine: aggressors joining idle cores of the victim's package (compact,
// before any SMT sibling) never make it faster, and enough of them slow it.
TEST(SimulateVictim, AggressorsOnItsPackageNeverSpeedTheVictim) {
  for (const auto& preset : preset_table()) {
    const Topology topo = Topology::from_spec(machine_topology(preset));
    const int per_package = topo.cores() / std::max(1, topo.packages());
    std::vector<int> counts;
    for (int n = 1; n <= per_package; ++n) counts.push_back(n);
    for (const char* victim : {"stosb", "movnti"})
      for (const char* aggressor : {"stosb", "movnti"}) {
        SCOPED_TRACE(preset.name + " " + victim + " beside " + aggressor);
        const std::vector<Point> points =
            simulate_victim(spec_of(counts, 8 * preset.llc_bytes_per_package), {victim}, {aggressor}, topo, preset);
        ASSERT_EQ(points.size(), counts.size());
        for (std::size_t i = 1; i < points.size(); ++i)
          EXPECT_GE(points[i].slowdown_pct, points[i - 1].slowdown_pct - 1e-9) << points[i].peer_threads << " aggressors";
        if (per_package >= 4) {
          EXPECT_GT(points.back().slowdown_pct, 5) << "a whole package of aggressors";
        }
      }
  }
}

TEST(SimulateVictim, BadInputIsRefused) {
  const MachinePtr bdx = load_machine("broadwell-x-e5-2630v4");
  const Topology topo = Topology::from_spec(machine_topology(*bdx));
  const SweepSpec spec = spec_of({1, 2});
  EXPECT_THROW(simulate_victim(spec, {}, {"stosb"}, topo, *bdx), InputError);
  EXPECT_THROW(simulate_victim(spec, {"stosb"}, {}, topo, *bdx), InputError);
  try {
    simulate_victim(spec, {"stosb"}, {"avx512-nt"}, topo, *bdx);  // Broadwell has no AVX-512
    ADD_FAILURE() << "an aggressor the machine cannot run was simulated";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("avx512-nt is not available"), std::string::npos) << e.what();
  }
  EXPECT_THROW(simulate_victim(spec_of({41}), {"stosb"}, {"movnti"}, topo, *bdx), InputError);  // 40 PUs
}

}  // namespace
}  // namespace bwlab
