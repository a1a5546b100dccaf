// SPDX-License-Identifier: MIT
// --placement none: threads the OS places. Parsing, the model's plan (scatter), an unbound team
// really bound to every allowed PU, and a tiny measured run whose points say where the threads
// ran (the "OS moved thread" flag is in engine_trust_test). No bandwidth figure is asserted.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/engine/pinned_team.hpp"
#include "core/errors.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/sweep/sweep.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"

namespace bwlab {
namespace {

using namespace std::chrono_literals;

const Topology& local() {
  static const Topology t = Topology::local();
  return t;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<int> affinity_of_this_thread() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

TEST(PlacementNone, ParsesAndSaysItDoesNotBind) {
  const Placement p = parse_placement("none");
  EXPECT_EQ(p.kind, Placement::Kind::none);
  EXPECT_EQ(p.label(), "none");
  EXPECT_FALSE(p.binds());
  EXPECT_TRUE(parse_placement("compact").binds());
  EXPECT_TRUE(parse_placement("0,1").binds());
  // Any case, as --kernels STOSB ("COMPACT" was refused with "did you mean compact?").
  EXPECT_EQ(parse_placement("COMPACT").label(), "compact");
  EXPECT_EQ(parse_placement("None").kind, Placement::Kind::none);
  EXPECT_EQ(parse_placement("LIST:0,1").label(), parse_placement("0,1").label());
  EXPECT_NE(error_of([] { parse_placement("nome"); }).find("did you mean none?"), std::string::npos)
      << error_of([] { parse_placement("nome"); });
}

// The model's guess of where the OS puts busy threads is the scatter order (idle packages first).
TEST(PlacementNone, PlansLikeScatterOnATwoSocketMachine) {
  const Topology two = Topology::from_synthetic("package:2 core:4 pu:2");
  for (int t = 1; t <= 16; ++t)
    EXPECT_EQ(plan_pus(two, parse_placement("none"), t), plan_pus(two, parse_placement("scatter"), t)) << t;
  const auto first_two = plan_pus(two, parse_placement("none"), 2);
  EXPECT_NE(two.find_pu(first_two[0])->package, two.find_pu(first_two[1])->package);
  EXPECT_NE(error_of([&] { plan_pus(two, parse_placement("none"), 17); }).find("17 threads asked for"),
            std::string::npos);
}

// An unbound thread's affinity is every allowed PU: the OS chooses, and the context says kAnyPu.
TEST(PlacementNone, UnboundTeamMayRunOnEveryAllowedPu) {
  const std::vector<int> allowed = local().allowed_pus();
  const int n = std::min<int>(2, static_cast<int>(allowed.size()));
  PinnedTeam team(local(), std::vector<int>(static_cast<std::size_t>(n), kAnyPu));
  EXPECT_EQ(team.watched_pus(), allowed);
  std::vector<std::vector<int>> seen(static_cast<std::size_t>(n));
  std::vector<int> ctx_pu(static_cast<std::size_t>(n), 0);
  ASSERT_TRUE(team.run([&](PinnedTeam::Context& ctx) {
    const auto s = static_cast<std::size_t>(ctx.slot);
    ctx_pu[s] = ctx.pu;
    seen[s] = affinity_of_this_thread();
  }));
  for (std::size_t s = 0; s < seen.size(); ++s) {
    EXPECT_EQ(ctx_pu[s], kAnyPu) << "slot " << s;
    EXPECT_EQ(seen[s], allowed) << "slot " << s << " affinity " << fmt::format("{}", fmt::join(seen[s], ","));
  }
}

// A tiny measured run: the points name the placement, plan no PU, and record allowed PUs.
TEST(PlacementNone, MeasuredRunRecordsWhereTheThreadsRan) {
  const std::vector<int> allowed = local().allowed_pus();
  const CpuFeatures cpu = detect_cpu_features();
  SweepSpec spec;
  spec.kernels = {"memset"};
  spec.sizes = {256 << 10};
  spec.threads = {1};
  if (allowed.size() >= 2) spec.threads.push_back(2);
  spec.reps = 2;
  spec.duration = 2ms;
  spec.placement = parse_placement("none");
  validate_sweep(spec, local(), cpu, memory_available_bytes());
  SweepObserver quiet;
  const SweepResult result = run_sweep(spec, local(), cpu, quiet);
  ASSERT_EQ(result.points.size(), spec.threads.size());
  for (const Point& p : result.points) {
    EXPECT_EQ(p.placement, "none");
    EXPECT_EQ(p.pus_planned, std::vector<int>(static_cast<std::size_t>(p.threads), kAnyPu));
    ASSERT_EQ(p.pus.size(), static_cast<std::size_t>(p.threads));
    for (int pu : p.pus) EXPECT_TRUE(std::count(allowed.begin(), allowed.end(), pu)) << "PU " << pu;
    for (const auto& t : p.per_thread) EXPECT_FALSE(t.pinned);
    for (const auto& f : p.flags) EXPECT_EQ(f.find("not pinned"), std::string::npos) << f;
    EXPECT_GT(p.gbps_median, 0.0);
  }
}

TEST(PlacementNone, RemoteMemoryNeedsAPlannedPu) {
  SweepSpec spec;
  spec.kernels = {"memset"};
  spec.sizes = {256 << 10};
  spec.threads = {1};
  spec.placement = parse_placement("none");
  spec.membind = parse_membind("remote");
  const std::string e = error_of([&] { validate_sweep(spec, local(), detect_cpu_features(), 1ull << 34); });
  EXPECT_NE(e.find("--placement none with --membind remote"), std::string::npos) << e;
}

}  // namespace
}  // namespace bwlab
