// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "core/report/cpu_name.hpp"

namespace bwlab {
namespace {

TEST(CpuName, NormalizedAsThePresetsSpellIt) {
  EXPECT_EQ(normalize_cpu("Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz"), "Intel Xeon Platinum 8358");
  EXPECT_EQ(normalize_cpu("11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz"), "Intel Core i7-1165G7");
  EXPECT_EQ(normalize_cpu("Intel(R) Xeon(R) CPU E5-2630 v4 @ 2.20GHz"), "Intel Xeon E5-2630 v4");
  EXPECT_EQ(normalize_cpu("AMD EPYC 9554P 64-Core Processor"), "AMD EPYC 9554P 64-Core Processor");
  EXPECT_EQ(normalize_cpu("  Intel  Xeon   E5-2630 v4 "), "Intel Xeon E5-2630 v4");
}

// likwid and /proc/cpuinfo name a preset's CPU with (R), "CPU" and the clock: it was "no preset
// for CPU Intel(R) Xeon(R) CPU E5-2630 v4 @ 2.20GHz" beside the preset of that very CPU.
TEST(CpuName, OneCpuNamedTwoWaysIsTheSame) {
  EXPECT_TRUE(same_cpu("Intel(R) Xeon(R) CPU E5-2630 v4 @ 2.20GHz", "Intel Xeon E5-2630 v4"));
  EXPECT_TRUE(same_cpu("Intel Xeon E5-2630 v4", "Intel Xeon E5-2630 v4"));
  EXPECT_FALSE(same_cpu("Intel(R) Xeon(R) CPU E5-2630 v4 @ 2.20GHz", "Intel Xeon E5-2630 v3"));
  EXPECT_FALSE(same_cpu("Intel Xeon Gold 6148", "Intel Xeon Gold 6140"));
  EXPECT_FALSE(same_cpu("", ""));
  EXPECT_FALSE(same_cpu("", "Intel Xeon E5-2630 v4"));
}

}  // namespace
}  // namespace bwlab
