// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"

namespace bwlab {
namespace {

using V = std::vector<int>;

const Topology& two_pkg_smt() {
  static const Topology t = Topology::from_synthetic("package:2 core:4 pu:2");
  return t;
}

Placement compact() { return parse_placement("compact"); }
Placement scatter() { return parse_placement("scatter"); }

TEST(Placement, CompactOnePuPerCoreThenSiblings) {
  EXPECT_EQ(plan_pus(two_pkg_smt(), compact(), 16), (V{0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15}));
  EXPECT_EQ(plan_pus(two_pkg_smt(), compact(), 3), (V{0, 2, 4}));
  EXPECT_EQ(plan_pus(two_pkg_smt(), compact(), 1), (V{0}));
  EXPECT_EQ(plan_pus(two_pkg_smt(), compact(), 9), (V{0, 2, 4, 6, 8, 10, 12, 14, 1}));
}

TEST(Placement, ScatterAlternatesPackages) {
  EXPECT_EQ(plan_pus(two_pkg_smt(), scatter(), 8), (V{0, 8, 2, 10, 4, 12, 6, 14}));
  EXPECT_EQ(plan_pus(two_pkg_smt(), scatter(), 16), (V{0, 8, 2, 10, 4, 12, 6, 14, 1, 9, 3, 11, 5, 13, 7, 15}));
  EXPECT_EQ(plan_pus(two_pkg_smt(), scatter(), 2), (V{0, 8}));
}

TEST(Placement, ScatterByNumaNode) {
  const Topology t = Topology::from_synthetic("package:2 numa:1 core:2 pu:1");
  ASSERT_EQ(t.numa_nodes(), 2);
  EXPECT_EQ(plan_pus(t, scatter(), 4), (V{0, 2, 1, 3}));
  EXPECT_EQ(plan_pus(t, compact(), 4), (V{0, 1, 2, 3}));
}

TEST(Placement, ScatterBySubPackageNumaNodes) {
  // Two NUMA nodes inside one package: scatter must alternate the nodes, not the package.
  const Topology t = Topology::from_synthetic("package:1 group:2 numa:1 core:2 pu:1");
  ASSERT_EQ(t.numa_nodes(), 2);
  EXPECT_EQ(plan_pus(t, scatter(), 4), (V{0, 2, 1, 3}));
}

TEST(Placement, PlansAreDistinctAllowedPus) {
  for (const Placement& p : {compact(), scatter()})
    for (int n = 1; n <= 16; ++n) {
      const V pus = plan_pus(two_pkg_smt(), p, n);
      ASSERT_EQ(static_cast<int>(pus.size()), n);
      EXPECT_EQ(std::set<int>(pus.begin(), pus.end()).size(), pus.size()) << p.label() << " " << n;
    }
}

TEST(Placement, ParseNamed) {
  EXPECT_EQ(parse_placement("compact").kind, Placement::Kind::compact);
  EXPECT_EQ(parse_placement("scatter").kind, Placement::Kind::scatter);
  EXPECT_EQ(parse_placement("compact").label(), "compact");
  EXPECT_EQ(parse_placement("scatter").label(), "scatter");
}

TEST(Placement, ParseLists) {
  Placement p = parse_placement("0,2,4");
  EXPECT_EQ(p.kind, Placement::Kind::list);
  EXPECT_EQ(p.list, (V{0, 2, 4}));
  EXPECT_EQ(p.label(), "list:0,2,4");

  p = parse_placement("0-3,8");
  EXPECT_EQ(p.kind, Placement::Kind::list);
  EXPECT_EQ(p.list, (V{0, 1, 2, 3, 8}));
  EXPECT_EQ(p.label(), "list:0-3,8");

  p = parse_placement("list:1,3");
  EXPECT_EQ(p.kind, Placement::Kind::list);
  EXPECT_EQ(p.list, (V{1, 3}));

  p = parse_placement("5");
  EXPECT_EQ(p.list, (V{5}));

  // Order is kept: thread i goes to the i-th PU.
  p = parse_placement("7,0,3");
  EXPECT_EQ(p.list, (V{7, 0, 3}));

  // A label parses back to the same placement.
  EXPECT_EQ(parse_placement(parse_placement("0-3,8").label()).list, (V{0, 1, 2, 3, 8}));
}

TEST(Placement, ParseErrors) {
  for (const char* bad : {"", "foo", "3-1", "1,1", "-1", ",0", "0,", "0-", "1,0-2", "list:", "0,,1", "1.5"})
    EXPECT_THROW(parse_placement(bad), InputError) << "'" << bad << "'";
}

TEST(Placement, PlanList) {
  EXPECT_EQ(plan_pus(two_pkg_smt(), parse_placement("3,9,0"), 3), (V{3, 9, 0}));
  EXPECT_EQ(plan_pus(two_pkg_smt(), parse_placement("3,9,0"), 2), (V{3, 9}));
}

TEST(Placement, PlanListWithNonexistentPuThrows) {
  try {
    plan_pus(two_pkg_smt(), parse_placement("0,16"), 2);
    FAIL() << "no exception";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("PU 16"), std::string::npos) << m;
    EXPECT_NE(m.find("0-15"), std::string::npos) << m;
  }
}

TEST(Placement, MoreThreadsThanPusThrowsNamingThePus) {
  try {
    plan_pus(two_pkg_smt(), compact(), 17);
    FAIL() << "no exception";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("17 threads"), std::string::npos) << m;
    EXPECT_NE(m.find("16 PUs"), std::string::npos) << m;
    EXPECT_NE(m.find("0,2,4,6"), std::string::npos) << m;  // the compact order, collapsed
  }
  try {
    plan_pus(two_pkg_smt(), parse_placement("0-3,8"), 6);
    FAIL() << "no exception";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("0-3,8"), std::string::npos) << m;
  }
  EXPECT_THROW(plan_pus(two_pkg_smt(), compact(), 0), InputError);
}

TEST(Placement, PlanOnLocalStaysInsideAllowed) {
  const Topology t = Topology::local();
  const V allowed = t.allowed_pus();
  const std::set<int> allowed_set(allowed.begin(), allowed.end());
  for (const Placement& p : {compact(), scatter()}) {
    const V pus = plan_pus(t, p, static_cast<int>(allowed.size()));
    EXPECT_EQ(std::set<int>(pus.begin(), pus.end()), allowed_set) << p.label();
  }
  EXPECT_THROW(plan_pus(t, compact(), static_cast<int>(allowed.size()) + 1), InputError);
}

TEST(Placement, FormatPuList) {
  EXPECT_EQ(format_pu_list({0, 1, 2, 3, 8}), "0-3,8");
  EXPECT_EQ(format_pu_list({0, 8, 2}), "0,8,2");
  EXPECT_EQ(format_pu_list({1, 2}), "1,2");
  EXPECT_EQ(format_pu_list({}), "");
  EXPECT_EQ(format_pu_list({5}), "5");
  EXPECT_EQ(format_pu_list({0, 1, 2, 4, 5, 6, 9}), "0-2,4-6,9");
  EXPECT_EQ(format_pu_list({3, 4, 0, 1}), "3,4,0,1");
}

}  // namespace
}  // namespace bwlab

namespace bwlab {
// Found by fuzz_args: "0-888888883" built a list of 888 million PUs before any check.
TEST(Placement, HugeRangesAreRefusedWithoutBuildingThem) {
  EXPECT_THROW(parse_placement("0-888888883,8"), InputError);
  EXPECT_THROW(parse_placement("70000"), InputError);
  EXPECT_EQ(parse_placement("0-65535").list.size(), 65536u);
}
}  // namespace bwlab
