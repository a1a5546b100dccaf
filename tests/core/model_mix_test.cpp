// SPDX-License-Identifier: MIT
// simulate_mix: the mix scenario predicted in run_mix's form (one point per kernel, its threads'
// aggregate, the rest of the mix as its peers), in one solve, in agreement with the scaling sweep
// where a mix of one kernel is a scaling point.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/model/solver.hpp"
#include "core/sweep/parse.hpp"
#include "core/topology/placement.hpp"

namespace bwlab {
namespace {

SweepSpec spec_of(std::uint64_t size = 1ull << 30) {
  SweepSpec spec;
  spec.sizes = {size};
  spec.threads = {99};  // not read: the mix sets the threads
  spec.fills = {Fill{}};
  spec.placement = parse_placement("compact");
  return spec;
}

TEST(SimulateMix, OnePointPerKernelWithTheRestAsItsPeers) {
  const MachinePtr m = load_machine("skylake-x-8270cl");
  const Topology topo = Topology::from_spec(machine_topology(*m));
  const std::vector<std::pair<std::string, int>> mix{{"stosb", 2}, {"avx512-nt", 3}};
  const std::vector<Point> points = simulate_mix(spec_of(), mix, topo, *m);
  ASSERT_EQ(points.size(), 2u);
  const std::vector<int> plan = plan_pus(topo, parse_placement("compact"), 5);
  const Point& s = points[0];
  const Point& n = points[1];
  EXPECT_EQ(s.scenario, "mix");
  EXPECT_EQ(s.role, "mix");
  EXPECT_EQ(s.source, "simulated");
  EXPECT_EQ(s.kernel, "stosb");
  EXPECT_EQ(s.threads, 2);
  EXPECT_EQ(s.peer_kernel, "avx512-nt");
  EXPECT_EQ(s.peer_threads, 3);
  EXPECT_EQ(s.pus_planned, std::vector<int>(plan.begin(), plan.begin() + 2));  // the first part first
  EXPECT_EQ(n.kernel, "avx512-nt");
  EXPECT_EQ(n.threads, 3);
  EXPECT_EQ(n.peer_kernel, "stosb");
  EXPECT_EQ(n.peer_threads, 2);
  EXPECT_EQ(n.pus_planned, std::vector<int>(plan.begin() + 2, plan.end()));
  // Each one's peers are the other's aggregate: one solve, both sides.
  EXPECT_DOUBLE_EQ(s.peer_gbps_median, n.gbps_median);
  EXPECT_DOUBLE_EQ(n.peer_gbps_median, s.gbps_median);
  for (const Point& p : points) {
    EXPECT_GT(p.gbps_median, 0);
    EXPECT_LT(p.gbps_min, p.gbps_median);
    EXPECT_GE(p.gbps_max, p.gbps_median);
    EXPECT_NEAR(p.gbps_per_thread_median * p.threads, p.gbps_median, 1e-9 * p.gbps_median);  // equal threads here
  }
}

// A mix of one kernel is the scaling point of its threads, on the machine's own topology and on
// one that splits its packages into 2 nodes each (the machine put on it once, as the sweep does).
TEST(SimulateMix, OneKernelIsTheScalingPoint) {
  for (const auto& preset : preset_table())
    for (const std::string& spec_text : {machine_topology(preset), std::string("package:2 numa:2 core:4 pu:1")}) {
      SCOPED_TRACE(preset.name + " " + spec_text);
      const Topology topo = Topology::from_spec(spec_text);
      if (!model::sockets_fit(preset, topo)) continue;  // a laptop part on 2 packages is refused
      SweepSpec spec = spec_of(8 * preset.llc_bytes_per_package);
      const std::vector<Point> mix = simulate_mix(spec, {{"movnti", 4}}, topo, preset);
      spec.kernels = {"movnti"};
      spec.threads = {4};
      const std::vector<Point> scaling = simulate_sweep(spec, topo, preset);
      ASSERT_EQ(mix.size(), 1u);
      EXPECT_NEAR(mix[0].gbps_median, scaling[0].gbps_median, 1e-9 * scaling[0].gbps_median);
      EXPECT_EQ(mix[0].peer_threads, 0);
      EXPECT_TRUE(mix[0].peer_kernel.empty());
    }
}

// Two kernels on the same package share its memory: each gets less than it would alone.
TEST(SimulateMix, KernelsOnOnePackageShareItsMemory) {
  const MachinePtr m = load_machine("skylake-x-8270cl");
  const Topology topo = Topology::from_spec(machine_topology(*m));
  const std::vector<Point> both = simulate_mix(spec_of(), {{"stosb", 13}, {"avx512-nt", 13}}, topo, *m);
  const std::vector<Point> stosb = simulate_mix(spec_of(), {{"stosb", 13}}, topo, *m);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_LT(both[0].gbps_median, stosb[0].gbps_median);
}

TEST(SimulateMix, BadInputIsRefused) {
  const MachinePtr bdx = load_machine("broadwell-x-e5-2630v4");  // 40 PUs
  const Topology topo = Topology::from_spec(machine_topology(*bdx));
  EXPECT_THROW(simulate_mix(spec_of(), {}, topo, *bdx), InputError);
  EXPECT_THROW(simulate_mix(spec_of(), {{"stosb", 0}}, topo, *bdx), InputError);
  EXPECT_THROW(simulate_mix(spec_of(), {{"stosb", 1}, {"avx512-nt", 1}}, topo, *bdx), InputError);  // no AVX-512
  try {
    simulate_mix(spec_of(), {{"stosb", 30}, {"movnti", 11}}, topo, *bdx);
    ADD_FAILURE() << "41 threads on 40 PUs";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--mix asks for 41 threads"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bwlab
