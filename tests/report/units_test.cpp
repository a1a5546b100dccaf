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

TEST(FormatBytes, BinaryUnitsWhenExact) {
  EXPECT_EQ(format_bytes(0), "0B");
  EXPECT_EQ(format_bytes(1000), "1000B");
  EXPECT_EQ(format_bytes(4096), "4KiB");
  EXPECT_EQ(format_bytes(16ull << 20), "16MiB");
  EXPECT_EQ(format_bytes(1ull << 30), "1GiB");
  EXPECT_EQ(format_bytes(3ull << 19), "1.5MiB");
  EXPECT_EQ(format_bytes(3ull << 20), "3MiB");
  EXPECT_EQ(format_bytes(1500), "1.46KiB");
  EXPECT_EQ(format_bytes(3ull << 19, " "), "1.5 MiB");  // the GUI's and messages' spelling
  EXPECT_EQ(format_bytes(2ull << 20, " "), "2 MiB");
  EXPECT_EQ(format_bytes(512, " "), "512 B");
  // Never a whole unit for a size that is not one (4097 bytes read "4KiB", 4096's label).
  EXPECT_EQ(format_bytes(4097), "4.001KiB");
  EXPECT_EQ(format_bytes(1000000), "976.56KiB");
  EXPECT_EQ(format_bytes((16ull << 20) + 4096), "16.004MiB");
  EXPECT_EQ(format_bytes((1ull << 30) + 1), "1073741825B");
  EXPECT_EQ(format_bytes((2ull << 20) - 1, " "), "1.999999 MiB");
}

// An interpolated crossover between sizes 2..16x apart: two significant digits, not "5.86MiB".
TEST(FormatBytesApprox, TwoSignificantDigits) {
  constexpr double MiB = 1 << 20;
  EXPECT_EQ(format_bytes_approx(5.86 * MiB), "5.9MiB");
  EXPECT_EQ(format_bytes_approx(21.6 * MiB), "22MiB");
  EXPECT_EQ(format_bytes_approx(117.3 * MiB), "120MiB");
  EXPECT_EQ(format_bytes_approx(4 * MiB), "4MiB");
  EXPECT_EQ(format_bytes_approx(1536 * MiB, " "), "1.5 GiB");
  EXPECT_EQ(format_bytes_approx(700), "700B");
}

TEST(GibText, OneDecimal) {
  EXPECT_EQ(gib_text(3ull << 29), "1.5 GiB");
  EXPECT_EQ(gib_text(0), "0.0 GiB");
}

// A change that rounds to zero has no sign to show: "-0.0%" read as a loss where there is none.
TEST(SignedPct, NoNegativeZero) {
  EXPECT_EQ(signed_pct(-0.04), "+0.0%");
  EXPECT_EQ(signed_pct(-0.0), "+0.0%");
  EXPECT_EQ(signed_pct(0.04), "+0.0%");
  EXPECT_EQ(signed_pct(-0.06), "-0.1%");
  EXPECT_EQ(signed_pct(17.66), "+17.7%");
  EXPECT_EQ(signed_pct(-12.0), "-12.0%");
}

// The same for figures printed without a "+" (a victim's slowdown): "-0.0%" read as a speed-up.
TEST(PlainPct, NoNegativeZero) {
  EXPECT_EQ(plain_pct(-0.04), "0.0%");
  EXPECT_EQ(plain_pct(-0.0), "0.0%");
  EXPECT_EQ(plain_pct(0.04), "0.0%");
  EXPECT_EQ(plain_pct(-0.06), "-0.1%");
  EXPECT_EQ(plain_pct(17.66), "17.7%");
}

}  // namespace
}  // namespace bwlab
