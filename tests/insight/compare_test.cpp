// SPDX-License-Identifier: MIT
#include <sstream>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/insight/compare.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab {
namespace {

using testing::make_point;
using testing::MiB;

TEST(Compare, ClassifiesEachPoint) {
  const std::vector<Point> base = {
      make_point("stosb", 1, 4 * MiB, 10, 2),    // -> drops 20%, ranges apart: regressed
      make_point("stosb", 1, 8 * MiB, 10, 15),   // -> drops 20%, ranges overlap: within noise
      make_point("stosb", 1, 16 * MiB, 10, 2),   // -> +20%, ranges apart: improved
      make_point("stosb", 1, 32 * MiB, 10, 2),   // -> -3%: within tolerance
      make_point("stosb", 1, 64 * MiB, 10, 2),   // only in BASE
  };
  const std::vector<Point> now = {
      make_point("stosb", 1, 4 * MiB, 8, 2),      make_point("stosb", 1, 8 * MiB, 8, 15),
      make_point("stosb", 1, 16 * MiB, 12, 2),    make_point("stosb", 1, 32 * MiB, 9.7, 2),
      make_point("stosb", 2, 4 * MiB, 10, 2),  // only in NEW (other thread count)
  };
  const Comparison c = compare_points(base, now, CompareOptions{5.0});
  ASSERT_EQ(c.matched.size(), 4u);
  EXPECT_EQ(c.matched[0].change, Change::regressed);
  EXPECT_NEAR(c.matched[0].change_pct, -20.0, 1e-9);
  EXPECT_EQ(c.matched[1].change, Change::within_noise);
  EXPECT_EQ(c.matched[2].change, Change::improved);
  EXPECT_EQ(c.matched[3].change, Change::within_tolerance);
  EXPECT_EQ(c.regressions, 1);
  EXPECT_EQ(c.improvements, 1);
  EXPECT_EQ(c.only_base.size(), 1u);
  EXPECT_EQ(c.only_new.size(), 1u);
  std::ostringstream out;
  print_comparison(out, c, CompareOptions{5.0});
  EXPECT_NE(out.str().find("REGRESSED"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("1 regressed, 1 improved"), std::string::npos) << out.str();
}

TEST(Compare, ToleranceDecidesFirst) {
  const std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10, 1)};
  const std::vector<Point> now = {make_point("stosb", 1, 4 * MiB, 8, 1)};
  EXPECT_EQ(compare_points(base, now, CompareOptions{25.0}).regressions, 0);
  EXPECT_EQ(compare_points(base, now, CompareOptions{5.0}).regressions, 1);
}

TEST(Compare, MatchesByParametersNotHost) {
  std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10)};
  std::vector<Point> now = base;
  now[0].host = "otherhost";
  const Comparison c = compare_points(base, now, {});
  EXPECT_EQ(c.matched.size(), 1u);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_NE(c.notes[0].find("different hosts"), std::string::npos);
  now[0].fill = "0xff";  // another parameter: no longer the same point
  EXPECT_THROW(compare_points(base, now, {}), InputError);
}

TEST(Compare, RefusesAmbiguousInput) {
  const std::vector<Point> base = {make_point("stosb", 1, 4 * MiB, 10), make_point("stosb", 1, 4 * MiB, 10)};
  EXPECT_THROW(compare_points(base, base, {}), InputError);
  EXPECT_THROW(compare_points({}, {}, {}), InputError);
}

}  // namespace
}  // namespace bwlab
