// SPDX-License-Identifier: MIT
// count_of and noun: the singular for exactly one, the plural for 0 and many, any integer type.
#include <cstddef>
#include <cstdint>

#include <gtest/gtest.h>

#include "core/report/plural.hpp"

namespace bwlab {
namespace {

TEST(Plural, OneTakesTheSingularZeroAndManyThePlural) {
  EXPECT_EQ(count_of(1, "point"), "1 point");
  EXPECT_EQ(count_of(0, "point"), "0 points");
  EXPECT_EQ(count_of(2, "thread count"), "2 thread counts");
  EXPECT_EQ(count_of(std::size_t{1}, "file"), "1 file");
  EXPECT_EQ(count_of(std::uint64_t{11}, "rep"), "11 reps");
  EXPECT_EQ(count_of(-1, "point"), "-1 points");
}

TEST(Plural, AnIrregularPluralIsGiven) {
  EXPECT_EQ(count_of(1, "switch", "switches"), "1 switch");
  EXPECT_EQ(count_of(3, "switch", "switches"), "3 switches");
  EXPECT_EQ(noun(1, "is", "are"), "is");
  EXPECT_EQ(noun(std::size_t{2}, "window"), "windows");
}

}  // namespace
}  // namespace bwlab
