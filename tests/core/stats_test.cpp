// SPDX-License-Identifier: MIT
#include "core/stats/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace bwlab {
namespace {

TEST(Stats, MedianOdd) {
  const std::vector<double> v{5, 1, 3};
  EXPECT_DOUBLE_EQ(median(v), 3.0);
}

TEST(Stats, MedianEvenIsMeanOfMiddles) {
  const std::vector<double> v{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(v), 2.5);
  const std::vector<double> w{10, 10, 1, 30, 20, 2};  // sorted 1 2 10 10 20 30
  EXPECT_DOUBLE_EQ(median(w), 10.0);
}

TEST(Stats, MedianDoesNotReorderInput) {
  const std::vector<double> v{3, 1, 2};
  (void)median(v);
  EXPECT_EQ(v, (std::vector<double>{3, 1, 2}));
}

TEST(Stats, Mean) {
  const std::vector<double> v{1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(mean(v), 2.5);
}

TEST(Stats, PstdevTextbook) {
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};  // mean 5, variance 4
  EXPECT_DOUBLE_EQ(mean(v), 5.0);
  EXPECT_DOUBLE_EQ(pstdev(v), 2.0);
  EXPECT_DOUBLE_EQ(pstdev_pct(v), 40.0);
}

TEST(Stats, PstdevPct) {
  const std::vector<double> v{9, 11};  // mean 10, pstdev 1
  EXPECT_DOUBLE_EQ(pstdev(v), 1.0);
  EXPECT_DOUBLE_EQ(pstdev_pct(v), 10.0);
}

TEST(Stats, PstdevLargeOffsetIsStable) {
  const std::vector<double> v{1e9 + 2, 1e9 + 4, 1e9 + 4, 1e9 + 4, 1e9 + 5, 1e9 + 5, 1e9 + 7, 1e9 + 9};
  EXPECT_NEAR(pstdev(v), 2.0, 1e-6);
}

TEST(Stats, SingleValue) {
  const std::vector<double> v{42};
  EXPECT_DOUBLE_EQ(median(v), 42.0);
  EXPECT_DOUBLE_EQ(mean(v), 42.0);
  EXPECT_DOUBLE_EQ(pstdev(v), 0.0);
  EXPECT_DOUBLE_EQ(pstdev_pct(v), 0.0);
}

TEST(Stats, EmptyIsNaN) {
  const std::vector<double> v;
  EXPECT_TRUE(std::isnan(median(v)));
  EXPECT_TRUE(std::isnan(mean(v)));
  EXPECT_TRUE(std::isnan(pstdev(v)));
  EXPECT_TRUE(std::isnan(pstdev_pct(v)));
  const Summary s = summarize(v);
  EXPECT_EQ(s.n, 0u);
  EXPECT_TRUE(std::isnan(s.median));
  EXPECT_TRUE(std::isnan(s.min));
  EXPECT_TRUE(std::isnan(s.max));
}

TEST(Stats, Summarize) {
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
  const Summary s = summarize(v);
  EXPECT_EQ(s.n, 8u);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.min, 2.0);
  EXPECT_DOUBLE_EQ(s.max, 9.0);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_DOUBLE_EQ(s.pstdev_pct, 40.0);
}

}  // namespace
}  // namespace bwlab
