// SPDX-License-Identifier: MIT
#include <unistd.h>

#include <sstream>

#include <gtest/gtest.h>

#include "core/insight/glibc_threshold.hpp"

namespace bwlab {
namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

// stosb vs movnti with one thread count whose crossover and standing at the largest size are given.
std::vector<PairVerdict> one_row(CrossoverKind kind, Standing standing) {
  PairVerdict v;
  v.wa_kernel = std::string("stosb");  // not a literal assignment: g++ 12 -Wrestrict false positive
  v.nt_kernel = std::string("movnti");
  v.fill = std::string("zero");
  v.host = std::string("h");
  v.source = std::string("measured");
  v.recommendation = standing == Standing::nt_ahead    ? Recommendation::nt_good
                     : standing == Standing::nt_behind ? Recommendation::nt_slow
                                                       : Recommendation::no_difference;
  ThreadsVerdict t;
  t.threads = 2, t.reps = 5, t.sizes = {4 * MiB, 16 * MiB, 64 * MiB};
  t.crossover = kind, t.crossover_bytes = 12 * MiB, t.bracket_lo = 4 * MiB, t.bracket_hi = 16 * MiB;
  if (kind == CrossoverKind::below_range) t.bracket_lo = 0, t.bracket_hi = 4 * MiB;
  t.largest = 64 * MiB, t.standing = standing;
  v.rows = {t};
  return {v};
}

std::string glibc_paragraph(const std::vector<PairVerdict>& v, std::uint64_t live = 0x7200000, std::uint64_t llc = 0,
                            int llc_count = 1) {
  GlibcInfo g;
  g.version = "2.36";
  g.live_nt = Tunable{live, 0x4040, 0xfffffffffffffff};
  g.live_source = "test";
  std::ostringstream out;
  print_glibc_comparison(out, g, v, "h", llc, llc_count);
  return out.str();
}

// No L3 in sysfs (a VM that exposes no cache directory): the formula is not computed, and the text
// says why and that the live value is glibc's own (it said "no L3 size in sysfs" beside a live
// figure that glibc had computed from CPUID).
TEST(GlibcThreshold, FormulaWithoutSysfsCachesSaysWhereTheLiveValueComesFrom) {
  const std::string text = glibc_paragraph(one_row(CrossoverKind::interpolated, Standing::nt_ahead));
  EXPECT_NE(text.find("glibc 2.36 default formula: not computed: bwlab reads its cache figures from sysfs, and this "
                      "machine's lists no L3 (/sys/devices/system/cpu/cpu0/cache); glibc reads CPUID, so the live "
                      "value above is its own figure"),
            std::string::npos)
      << text;
}

// The live threshold and the 2.36 formula side by side, differing (240MiB beside 12.75MiB on a Zen 4
// guest): the paragraph says which one glibc uses, and why they may differ; equal, nothing is added.
TEST(GlibcThreshold, ALiveValueThatIsNotTheFormulasIsExplained) {
  const auto text = [](std::uint64_t live, std::uint64_t formula) {
    GlibcInfo g;
    g.version = "2.36";
    g.live_nt = Tunable{live, 0x4040, 0xfffffffffffffff};
    g.live_source = "test";
    g.formula_bytes = formula;
    g.cache.l3_bytes = 32 * MiB, g.cache.threads_sharing_l3 = 2, g.cache.source = "test";
    std::ostringstream out;
    print_glibc_comparison(out, g, one_row(CrossoverKind::interpolated, Standing::nt_ahead), "h", 0, 1);
    return out.str();
  };
  const std::string differ = text(240 * MiB, 12 * MiB + 768 * 1024);
  EXPECT_NE(differ.find("The two differ (18.8x): the live value is the one this glibc uses. The formula is upstream "
                        "glibc 2.36's Intel path"),
            std::string::npos)
      << differ;
  EXPECT_EQ(text(12 * MiB, 12 * MiB).find("The two differ"), std::string::npos);
}

// A GLIBC_TUNABLES line encodes a call: it is offered only where the verdict made that call (NT
// ahead for a crossover in or below the range, NT behind for none in range). A crossover of
// medians whose largest size is level or too noisy is said, with no line (it once gave one).
TEST(GlibcThreshold, TunablesLineOnlyWhereTheVerdictCalledASide) {
  EXPECT_NE(glibc_paragraph(one_row(CrossoverKind::interpolated, Standing::nt_ahead))
                .find("To match the measurement: GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=0xc00000"),
            std::string::npos);
  EXPECT_NE(glibc_paragraph(one_row(CrossoverKind::below_range, Standing::nt_ahead)).find("Upper bound: GLIBC_TUNABLES"),
            std::string::npos);
  // NT behind up to 64MiB with glibc at 32MiB: raise it above 64MiB (twice: 128MiB).
  EXPECT_NE(glibc_paragraph(one_row(CrossoverKind::none_in_range, Standing::nt_behind), 32 * MiB)
                .find("where glibc (32MiB) already uses NT: a threshold above 64MiB matches the measurement, e.g. twice the "
                      "largest size: GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=0x8000000"),
            std::string::npos);
  for (const auto& [kind, standing] : {std::pair{CrossoverKind::interpolated, Standing::noisy},
                                       std::pair{CrossoverKind::interpolated, Standing::tie},
                                       std::pair{CrossoverKind::below_range, Standing::tie},
                                       std::pair{CrossoverKind::none_in_range, Standing::noisy}}) {
    const std::string text = glibc_paragraph(one_row(kind, standing));
    EXPECT_EQ(text.find("GLIBC_TUNABLES="), std::string::npos) << text;
    EXPECT_NE(text.find("the measurement does not support a threshold there; no GLIBC_TUNABLES line is suggested"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(standing_text(standing, false)), std::string::npos) << text;
  }
}

// A row whose buffers fit in the LLCs its threads reach judges clears that can stay in the cache:
// no threshold from it (the 2-vCPU VM, two 508MiB L3s, 2 x 256MiB: it advised GLIBC_TUNABLES=0x20000000).
TEST(GlibcThreshold, NoLineFromRowsThatFitInTheLastLevelCaches) {
  const auto behind = one_row(CrossoverKind::none_in_range, Standing::nt_behind);  // 2 threads x 64MiB
  const std::string cached = glibc_paragraph(behind, 32 * MiB, 64 * MiB, 2);
  EXPECT_EQ(cached.find("GLIBC_TUNABLES="), std::string::npos) << cached;
  EXPECT_NE(cached.find("but at 2 threads the largest size (64MiB per thread) and its threads' buffers fit in this "
                        "machine's last-level caches (2 x 64MiB, one per thread at most, as the CPU reports them)"),
            std::string::npos)
      << cached;
  // At that row's thread count: the LLC note above it counts from its fewest threads.
  EXPECT_NE(cached.find("measure sizes above 64MiB per thread at 2 threads)"), std::string::npos) << cached;
  // The same host name on another CPU is another machine: its rows are not judged by this LLC,
  // and the note says whose they are.
  {
    auto other = behind;
    other.front().cpu_model = "AMD EPYC";
    GlibcInfo g;
    g.version = "2.36";
    g.live_nt = Tunable{32 * MiB, 0x4040, 0xfffffffffffffff};
    g.live_source = "test";
    std::ostringstream out;
    print_glibc_comparison(out, g, other, "h", 64 * MiB, 2, "Oxide Virtual Turin-like Processor");
    EXPECT_NE(out.str().find("Note: the points come from host h with another CPU (AMD EPYC; this machine's is Oxide "
                             "Virtual Turin-like Processor)"),
              std::string::npos)
        << out.str();
    EXPECT_NE(out.str().find("GLIBC_TUNABLES="), std::string::npos) << out.str();
    std::ostringstream same;  // the same CPU: this machine's rows, as before
    print_glibc_comparison(same, g, other, "h", 64 * MiB, 2, "AMD EPYC");
    EXPECT_EQ(same.str().find("GLIBC_TUNABLES="), std::string::npos) << same.str();
    EXPECT_EQ(same.str().find("Note: the points come from"), std::string::npos) << same.str();
  }
  // One 64MiB cache for both threads' 128MiB: from DRAM, the line stands.
  EXPECT_NE(glibc_paragraph(behind, 32 * MiB, 64 * MiB, 1).find("GLIBC_TUNABLES="), std::string::npos);
  EXPECT_NE(glibc_paragraph(behind, 32 * MiB, 0).find("GLIBC_TUNABLES="), std::string::npos);  // LLC unknown
}

// A file of this machine's rows and another host's: this machine's advice comes from its own rows
// and says the other host's are left out (a vm + hostB file set vm's threshold from hostB's
// crossover, "the points come from host hostB").
TEST(GlibcThreshold, ThisMachinesRowsDecideBesideAnotherHosts) {
  auto both = one_row(CrossoverKind::none_in_range, Standing::nt_behind);  // h: NT behind everywhere
  auto theirs = one_row(CrossoverKind::interpolated, Standing::nt_ahead);  // hostB: NT ahead from 12 MiB
  theirs.front().host = "hostB";
  both.insert(both.begin(), theirs.front());  // hostB's pair first, as a file ordered by host may hold it
  GlibcInfo g;
  g.version = "2.36";
  g.live_nt = Tunable{0x7200000, 0x4040, 0xfffffffffffffff};
  g.live_source = "test";
  std::ostringstream out;
  print_glibc_comparison(out, g, both, "h", 0, 1, "");
  const std::string text = out.str();
  EXPECT_NE(text.find("Note: the file also holds the points of host hostB; the advice below uses this machine's only."),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("the points come from host hostB"), std::string::npos) << text;
  EXPECT_NE(text.find("none in range"), std::string::npos) << text;  // h's row, not hostB's 12 MiB crossover
  EXPECT_EQ(text.find("12MiB"), std::string::npos) << text;
}

// A line only where it moves glibc the way the measurement points: glibc already above every size
// where NT stayed behind, or already at or below where NT led at every size, is left alone (a line
// at the largest size once lowered a live 127MiB threshold to 64MiB, where NT was behind).
TEST(GlibcThreshold, NoLineWhenGlibcAlreadyAgreesWithTheMeasurement) {
  const std::string behind = glibc_paragraph(one_row(CrossoverKind::none_in_range, Standing::nt_behind), 127 * MiB);
  EXPECT_EQ(behind.find("GLIBC_TUNABLES="), std::string::npos) << behind;
  EXPECT_NE(behind.find("glibc's threshold (127MiB) is above every size measured: nothing measured argues for changing it"),
            std::string::npos)
      << behind;
  const std::string ahead = glibc_paragraph(one_row(CrossoverKind::below_range, Standing::nt_ahead), 2 * MiB);
  EXPECT_EQ(ahead.find("GLIBC_TUNABLES="), std::string::npos) << ahead;
  EXPECT_NE(ahead.find("glibc's (2MiB) is already there"), std::string::npos) << ahead;
}

// Predictions only: the verdicts, then why this machine's glibc is not set beside them.
TEST(GlibcThreshold, VerdictsAndGlibcSayNothingOfThisGlibcBesidePredictions) {
  auto v = one_row(CrossoverKind::interpolated, Standing::nt_ahead);
  std::ostringstream verdicts_only;
  print_verdicts(verdicts_only, v);
  std::ostringstream measured;
  print_verdicts_and_glibc(measured, v, {}, GlibcInfo{}, "h");
  EXPECT_EQ(measured.str().rfind(verdicts_only.str(), 0), 0u);
  EXPECT_NE(measured.str().find("== glibc on this machine (h"), std::string::npos);
  v[0].predicted = true, v[0].rows[0].predicted = true;
  std::ostringstream predicted;
  print_verdicts_and_glibc(predicted, v, {}, GlibcInfo{}, "h");
  EXPECT_EQ(predicted.str().find("== glibc on this machine"), std::string::npos);
  EXPECT_NE(predicted.str().find("glibc: this machine's threshold is not set beside predictions"), std::string::npos);
}

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
