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
#include "core/model/solver.hpp"
#include "core/model/uarch.hpp"
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
  // Also on a topology that splits each package into 2 nodes, unlike every preset's own: the
  // machine is put on it once (twice halved each node's DRAM peak again).
  // Thread counts whose threads all get the same rate: one package, or 2 per node of the split one.
  const std::pair<const char*, std::vector<int>> cases[] = {{"package:1 numa:1 core:8 pu:1", {1, 2, 5, 8}},
                                                            {"package:2 numa:2 core:4 pu:1", {1, 2, 4}}};
  for (const auto& preset : preset_table())
    for (const auto& [spec_text, counts] : cases) {
      const Topology topo = Topology::from_synthetic(spec_text);
      if (!model::sockets_fit(preset, topo)) continue;  // a laptop part on 2 packages is refused
      for (const char* kernel : {"stosb", "movnti"}) {
        SCOPED_TRACE(preset.name + " " + spec_text + " " + kernel);
        SweepSpec spec = spec_of(counts, 8 * preset.llc_bytes_per_package);
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

// What the victim's flags and band say is about the victim's memory, not the whole solve's.
TEST(SimulateVictim, FlagsAndBandFollowTheVictimsMemory) {
  const MachinePtr m = load_machine("skylake-x-8270cl");  // 2 packages of 26 cores, one node each
  const Topology topo = Topology::from_spec(machine_topology(*m));
  const auto remote_flags = [](const Point& p) {
    std::vector<std::string> out;
    for (const auto& f : p.flags)
      if (f.find("another package") != std::string::npos) out.push_back(f);
    return out;
  };
  SweepSpec spec = spec_of({26, 27});  // k = 25 fill the victim's package; k = 26 starts on the other one
  {
    const std::vector<Point> local = simulate_victim(spec, {"stosb"}, {"avx512-nt"}, topo, *m);
    ASSERT_EQ(local.size(), 3u);
    EXPECT_TRUE(remote_flags(local[2]).empty());
    // The first aggressor on the other package, with its own memory there, leaves the victim as it
    // was: its figure and its band (the band once widened by the other node's peak).
    EXPECT_NEAR(local[2].gbps_median, local[1].gbps_median, 1e-9 * local[1].gbps_median);
    EXPECT_NEAR(local[2].gbps_max, local[1].gbps_max, 1e-9 * local[1].gbps_max);
  }
  {  // A 2-socket Zen 4 sheet, where the victim's band is capped by its node's peak: the first
     // aggressor on the other package widened it by 30% (4.00 [2.50..4.92], then [2.50..6.39]).
    model::SpecSheet sheet;
    sheet.uarch = "zen4";
    sheet.sockets = 2, sheet.cores = 32, sheet.smt = 2, sheet.channels = 12, sheet.mts = 4800;
    sheet.llc_bytes = 256ull << 20;
    const MachineParams zen4 = model::machine_from_spec(sheet);
    const Topology zt = Topology::from_spec(machine_topology(zen4));
    const std::vector<Point> pts = simulate_victim(spec_of({32, 33}), {"stosb"}, {"avx512-nt"}, zt, zen4);
    ASSERT_EQ(pts.size(), 3u);
    EXPECT_NEAR(pts[2].gbps_median, pts[1].gbps_median, 1e-9 * pts[1].gbps_median);
    EXPECT_NEAR(pts[2].gbps_max, pts[1].gbps_max, 1e-9 * pts[1].gbps_max);
  }
  spec.membind = parse_membind("interleave");  // half the victim's pages on the other package
  const std::vector<Point> interleaved = simulate_victim(spec, {"stosb"}, {"avx512-nt"}, topo, *m);
  for (const Point& p : interleaved)
    EXPECT_EQ(remote_flags(p), std::vector<std::string>{"simulated: 50% of the bytes cleared go to memory on another "
                                                        "package, through the inter-socket link"});
  spec.membind = parse_membind("remote");
  const std::vector<Point> remote = simulate_victim(spec, {"stosb"}, {"avx512-nt"}, topo, *m);
  EXPECT_EQ(remote_flags(remote.front()),
            std::vector<std::string>{"simulated: the victim's memory on another package, through the inter-socket link"});
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
  // The hover's explanation re-solves a scaling point: for a victim point it would explain n
  // threads of the victim's kernel, not the victim beside its aggressors.
  const std::vector<Point> victim = simulate_victim(spec_of({1, 4}), {"stosb"}, {"movnti"}, topo, *bdx);
  EXPECT_THROW(explain_simulated_point(victim.back(), topo, *bdx), InputError);
}

}  // namespace
}  // namespace bwlab
