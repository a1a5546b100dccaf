// SPDX-License-Identifier: MIT
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/insight/glibc_threshold.hpp"

namespace bwlab {
namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

TEST(GlibcThreshold, Glibc236FormulaNonInclusive) {
  // 300 MiB L3 shared by 2, 2 MiB L2 per core, non-inclusive: 3/4 x (150 + 2) MiB = 114 MiB.
  CacheFigures c{300 * MiB, 2, 2 * MiB, 1, false, "test"};
  EXPECT_EQ(glibc236_nt_threshold(c), 114 * MiB);
  EXPECT_EQ(glibc236_nt_threshold(c), 0x7200000u);
}

TEST(GlibcThreshold, Glibc236FormulaInclusiveAndSharedL2) {
  CacheFigures inclusive{32 * MiB, 16, 1 * MiB, 2, true, "test"};
  EXPECT_EQ(glibc236_nt_threshold(inclusive), 32 * MiB / 16 * 3 / 4);
  CacheFigures shared_l2{32 * MiB, 16, 1 * MiB, 2, false, "test"};
  EXPECT_EQ(glibc236_nt_threshold(shared_l2), (2 * MiB + MiB / 2) * 3 / 4);
  EXPECT_EQ(glibc236_nt_threshold(CacheFigures{}), 0u);
}

TEST(GlibcThreshold, ParsesListTunables) {
  const auto t = parse_tunables(
      "glibc.malloc.trim_threshold: 0x0 (min: 0x0, max: 0xffffffffffffffff)\n"
      "glibc.cpu.x86_non_temporal_threshold: 0x7200000 (min: 0x4040, max: 0xfffffffffffffff)\n"
      "garbage line\n"
      "glibc.cpu.x86_rep_stosb_threshold: 0x800 (min: 0x1, max: 0xffffffffffffffff)");
  ASSERT_EQ(t.size(), 3u);
  const Tunable& nt = t.at("glibc.cpu.x86_non_temporal_threshold");
  EXPECT_EQ(nt.value, 0x7200000u);
  EXPECT_EQ(nt.min, 0x4040u);
  EXPECT_EQ(nt.max, 0xfffffffffffffffu);
  EXPECT_EQ(t.at("glibc.cpu.x86_rep_stosb_threshold").value, 0x800u);
}

TEST(GlibcThreshold, TunablesLineClampsToBounds) {
  EXPECT_EQ(glibc_tunables_line("x86_non_temporal_threshold", 24 * MiB, std::nullopt),
            "GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=0x1800000");
  EXPECT_EQ(glibc_tunables_line("x86_non_temporal_threshold", 16, Tunable{0, 0x4040, 0xffffff}),
            "GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=0x4040");
}

TEST(GlibcThreshold, LiveValueWhereTheLoaderListsTunables) {
  if (::access("/lib64/ld-linux-x86-64.so.2", X_OK) != 0) GTEST_SKIP() << "no x86-64 dynamic loader here";
  const GlibcInfo g = read_glibc_info();
  EXPECT_FALSE(g.version.empty());
  if (!g.live_nt) GTEST_SKIP() << "unavailable: " << g.live_source;
  EXPECT_GE(g.live_nt->value, g.live_nt->min);
  EXPECT_LE(g.live_nt->value, g.live_nt->max);
  EXPECT_NE(g.live_source.find("--list-tunables"), std::string::npos);
}

}  // namespace
}  // namespace bwlab
