// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "core/report/units.hpp"

namespace bwlab {
namespace {

TEST(SizeLabel, ExactBinaryUnitsElseBytes) {
  EXPECT_EQ(size_label(0), "0B");
  EXPECT_EQ(size_label(1000), "1000B");
  EXPECT_EQ(size_label(4096), "4KiB");
  EXPECT_EQ(size_label(16ull << 20), "16MiB");
  EXPECT_EQ(size_label(1ull << 30), "1GiB");
  EXPECT_EQ(size_label(3ull << 40), "3TiB");
  EXPECT_EQ(size_label((1ull << 20) + (1ull << 19)), "1536KiB");  // never rounded to 1.5MiB
  EXPECT_EQ(size_label((1ull << 20) + 1), "1048577B");
}

}  // namespace
}  // namespace bwlab
