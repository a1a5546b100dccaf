// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/engine/buffer.hpp"
#include "core/errors.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/kernels/kernels.hpp"
#include "core/sweep/parse.hpp"

namespace bwlab {
namespace {

constexpr std::uint64_t KiB = 1ull << 10, MiB = 1ull << 20, GiB = 1ull << 30;

// The message of the InputError `f` throws; fails the test if it throws nothing or another type.
template <class F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
    return {};
  }
  ADD_FAILURE() << "no exception";
  return {};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(ParseSize, Units) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("1"), 1u);
  EXPECT_EQ(parse_size("64K"), 64 * KiB);
  EXPECT_EQ(parse_size("16M"), 16 * MiB);
  EXPECT_EQ(parse_size("1G"), GiB);
  EXPECT_EQ(parse_size("2MiB"), 2 * MiB);
  EXPECT_EQ(parse_size("1g"), GiB);
  EXPECT_EQ(parse_size("64k"), 64 * KiB);
  EXPECT_EQ(parse_size("512B"), 512u);
  EXPECT_EQ(parse_size("3KB"), 3 * KiB);
  EXPECT_EQ(parse_size("1GiB"), GiB);
  EXPECT_EQ(parse_size(" 8M "), 8 * MiB);
}

TEST(ParseSize, Errors) {
  for (const char* bad : {"0", "", "12Q", "abc", "99999999999999999999G", "0K", "-1", "M", "1.3K", "1.", "16 M x", "1MM"})
    EXPECT_THROW(parse_size(bad), InputError) << "'" << bad << "'";
  // 2^34 GiB = 2^64 bytes does not fit; 2^33 GiB does.
  EXPECT_THROW(parse_size("17179869184G"), InputError);
  EXPECT_EQ(parse_size("8589934591G"), 8589934591ull << 30);
  EXPECT_TRUE(contains(input_error([] { parse_size("12Q"); }), "12Q"));
  // "1 GiB" quoted as one argument blamed a known unit ("unknown unit"): the space is the fault.
  EXPECT_EQ(input_error([] { parse_size("1 GiB"); }),
            "bad size '1 GiB': a space between the number and its unit; write them as one word, 1GiB (use bytes per "
            "thread such as 4096, 64K, 16M, 1G)");
  EXPECT_TRUE(contains(input_error([] { parse_size("1.5 m"); }), "one word, 1.5m"));
  // A minus sign is said as such (it was "not a number").
  EXPECT_TRUE(contains(input_error([] { parse_size("-1M"); }), "bad size '-1M': a size cannot be negative"));
  // Zero names the real minimum of --sizes (it said "at least 1 byte").
  EXPECT_EQ(input_error([] { parse_sizes("0"); }),
            "bad size '0': the smallest size is one page, 4K (use bytes per thread such as 4096, 64K, 16M, 1G)");
}

// A fraction that gives whole bytes is a size; one that does not is said to be so, not an
// "unknown unit".
TEST(ParseSize, FractionsOfWholeBytes) {
  EXPECT_EQ(parse_size("1.5G"), 1610612736u);
  EXPECT_EQ(parse_size("1.5M"), 3 * MiB / 2);
  EXPECT_EQ(parse_size("0.5K"), 512u);
  EXPECT_EQ(parse_size("2.25GiB"), 9 * GiB / 4);
  EXPECT_EQ(parse_size("1.0G"), GiB);
  EXPECT_EQ(parse_size("0.001953125M"), 2 * KiB);  // 2^-9 MiB
  EXPECT_EQ(parse_size("3.0"), 3u);
  EXPECT_EQ(parse_sizes("1.5M..6M"), (std::vector<std::uint64_t>{3 * MiB / 2, 3 * MiB, 6 * MiB}));
  for (const char* bad : {"1.3K", "1.5", "0.1G", "1.00000000000000000000000000001G"}) {
    const std::string e = input_error([&] { parse_size(bad); });
    EXPECT_TRUE(contains(e, "not a whole number of bytes")) << bad << ": " << e;
    EXPECT_FALSE(contains(e, "unknown unit")) << bad << ": " << e;
  }
  EXPECT_TRUE(contains(input_error([] { parse_size("1.G"); }), "no digits after the point"));
  EXPECT_TRUE(contains(input_error([] { parse_size("0.0G"); }), "the smallest size is one page"));
}

TEST(ParseSizes, DoublingRange) {
  EXPECT_EQ(parse_sizes("2M..16M"), (std::vector<std::uint64_t>{2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB}));
  EXPECT_EQ(parse_sizes("16M,1G"), (std::vector<std::uint64_t>{16 * MiB, GiB}));
  EXPECT_EQ(parse_sizes("4K"), (std::vector<std::uint64_t>{4 * KiB}));
  EXPECT_EQ(parse_sizes("4K..4K"), (std::vector<std::uint64_t>{4 * KiB}));
  // The range doubles from its start and ends at its end, measured too when off the doubling steps
  // (it once stopped at 12M, and 1M..3M gave 1M and 2M without a word).
  EXPECT_EQ(parse_sizes("3M..13M"), (std::vector<std::uint64_t>{3 * MiB, 6 * MiB, 12 * MiB, 13 * MiB}));
  EXPECT_EQ(parse_sizes("1M..3M"), (std::vector<std::uint64_t>{MiB, 2 * MiB, 3 * MiB}));
  // No overflow at the top of the range.
  const auto big = parse_sizes("4G..8589934592G");
  ASSERT_FALSE(big.empty());
  EXPECT_EQ(big.front(), 4 * GiB);
  EXPECT_EQ(big.size(), 32u);  // 2^32 .. 2^63
  EXPECT_EQ(big.back(), 1ull << 63);
}

TEST(ParseSizes, DuplicatesRemovedOrderKept) {
  EXPECT_EQ(parse_sizes("16M,2M..8M,4M,16M"), (std::vector<std::uint64_t>{16 * MiB, 2 * MiB, 4 * MiB, 8 * MiB}));
  EXPECT_EQ(parse_sizes("1M,1024K"), (std::vector<std::uint64_t>{MiB}));
}

TEST(ParseSizes, Errors) {
  EXPECT_THROW(parse_sizes("16M..2M"), InputError);
  EXPECT_THROW(parse_sizes(""), InputError);
  EXPECT_THROW(parse_sizes("1M,"), InputError);
  EXPECT_THROW(parse_sizes("1M..x"), InputError);
  EXPECT_TRUE(contains(input_error([] { parse_sizes("16M..2M"); }), "16M..2M"));
}

TEST(ParseLists, AnEmptyItemIsNamedAsAStrayComma) {
  // They read "unknown kernel ''" and "bad size ''": a trailing comma looked like a missing name.
  const CpuFeatures cpu = detect_cpu_features();
  EXPECT_TRUE(contains(input_error([&] { parse_kernels("stosb,", cpu); }), "kernel list 'stosb,' has an empty item (a stray comma?)"));
  EXPECT_TRUE(contains(input_error([] { parse_sizes("16M,,1G"); }), "size list '16M,,1G' has an empty item"));
  EXPECT_TRUE(contains(input_error([] { parse_threads(",2", 4); }), "thread list ',2' has an empty item"));
  EXPECT_TRUE(contains(input_error([] { parse_fills("zero, "); }), "fill list 'zero, ' has an empty item"));
  EXPECT_EQ(parse_sizes("16M, 1G").size(), 2u) << "a space after a comma is no item";
}

TEST(ParseSizes, BelowOnePageIsRefusedWithAHint) {
  EXPECT_EQ(input_error([] { parse_sizes("64"); }),
            "--sizes 64: 64 bytes is below one page (4 KiB); did you mean 64M?");
  EXPECT_EQ(input_error([] { parse_sizes("16M,2K"); }), "--sizes 2K: 2048 bytes is below one page (4 KiB); use at least 4K");
  EXPECT_TRUE(contains(input_error([] { parse_sizes("512..1M"); }), "did you mean 512M?"));
  EXPECT_EQ(parse_sizes("4096"), (std::vector<std::uint64_t>{4096}));
  EXPECT_EQ(parse_sizes("4K..8K"), (std::vector<std::uint64_t>{4 * KiB, 8 * KiB}));
  // The units are binary whatever their spelling: MB is 2^20 here, as M and MiB.
  EXPECT_EQ(parse_sizes("1MB,1MiB,1M"), (std::vector<std::uint64_t>{MiB}));
  EXPECT_EQ(parse_sizes("1GB"), (std::vector<std::uint64_t>{GiB}));
}

TEST(ParseThreads, RangesAndMax) {
  EXPECT_EQ(parse_threads("1..max", 4), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(parse_threads("max", 4), (std::vector<int>{4}));
  // Typed as the help's "MAX" or "Max": the same word, not "bad thread count".
  EXPECT_EQ(parse_threads("MAX", 4), (std::vector<int>{4}));
  EXPECT_EQ(parse_threads("1..Max", 2), (std::vector<int>{1, 2}));
  EXPECT_EQ(parse_threads("1,2,4", 4), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(parse_threads("2..3", 4), (std::vector<int>{2, 3}));
  EXPECT_EQ(parse_threads("4,1..2,2", 4), (std::vector<int>{4, 1, 2}));
  EXPECT_EQ(parse_threads("1..max", 1), (std::vector<int>{1}));
}

TEST(ParseThreads, Errors) {
  EXPECT_THROW(parse_threads("0", 4), InputError);
  EXPECT_THROW(parse_threads("a", 4), InputError);
  EXPECT_THROW(parse_threads("3..1", 4), InputError);
  EXPECT_THROW(parse_threads("", 4), InputError);
  EXPECT_THROW(parse_threads("-1", 4), InputError);
  EXPECT_THROW(parse_threads("1..5", 4), InputError);
  EXPECT_THROW(parse_threads("2x", 4), InputError);
  const std::string m = input_error([] { parse_threads("5", 4); });
  EXPECT_TRUE(contains(m, "5 threads")) << m;
  EXPECT_TRUE(contains(m, "only 4 PUs")) << m;
  // A range with an end left out or three dots is named as a range ("1.." read "bad thread count ''").
  EXPECT_EQ(input_error([] { parse_threads("1..", 4); }),
            "bad thread range '1..': give a start and an end joined by two dots, e.g. 1..max");
  EXPECT_EQ(input_error([] { parse_threads(" ..4", 4); }),
            "bad thread range '..4': give a start and an end joined by two dots, e.g. 1..max");
  EXPECT_EQ(input_error([] { parse_threads("1...4", 4); }),
            "bad thread range '1...4': give a start and an end joined by two dots, e.g. 1..max");
  EXPECT_EQ(input_error([] { parse_sizes("2M,1M.."); }),
            "bad size range '1M..': give a start and an end joined by two dots, e.g. 2M..1G");
  EXPECT_EQ(input_error([] { parse_sizes("1M...4M"); }),
            "bad size range '1M...4M': give a start and an end joined by two dots, e.g. 2M..1G");
  EXPECT_EQ(parse_threads(" 1 .. 3 ", 4), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(input_error([] { parse_threads("1..2..3", 4); }),
            "bad thread range '1..2..3': give a start and an end joined by two dots, e.g. 1..max");
  EXPECT_EQ(input_error([] { parse_sizes("2M..4M..8M"); }),
            "bad size range '2M..4M..8M': give a start and an end joined by two dots, e.g. 2M..1G");
  EXPECT_EQ(parse_sizes("0.5M..1M"), (std::vector<std::uint64_t>{512 * KiB, MiB}));  // a fraction's dot is no range
  // "3..max" with 2 PUs asks for too many threads; it read "the end is below the start".
  EXPECT_EQ(input_error([] { parse_threads("3..max", 2); }), "3 threads asked for, but this process may use only 2 PUs");
  EXPECT_EQ(input_error([] { parse_threads("1..99999999999999999999", 4); }),
            "bad thread count '99999999999999999999': too large");
  // A reversed range is named as such even when its start is above max.
  EXPECT_EQ(input_error([] { parse_threads("37..36", 36); }), "bad thread range '37..36': the end is below the start");
  // Another topology's PUs are named instead of this process's.
  EXPECT_EQ(input_error([] { parse_threads("40", 36, {}, "the model's topology core:36"); }),
            "40 threads asked for, but the model's topology core:36 has only 36 PUs");
}

TEST(ParseCacheSize, UnitsOfSizesAndFractions) {
  EXPECT_EQ(parse_cache_size("24.75M", "--llc"), 25952256u);
  EXPECT_EQ(parse_cache_size("24.75MiB", "--llc"), 25952256u);
  EXPECT_EQ(parse_cache_size("24.75MB", "--llc"), 25952256u);
  EXPECT_EQ(parse_cache_size("512K", "--llc"), 512u * 1024);
  EXPECT_EQ(input_error([] { parse_cache_size("24.75", "--llc"); }), "--llc 24.75: no unit; did you mean 24.75M?");
  EXPECT_EQ(input_error([] { parse_cache_size("0", "--llc"); }),
            "bad --llc '0': no cache of 0 bytes (give a cache size such as 24.75M, 32MiB or 512K)");
  // Quoted with a space: the unit is known, the space is not (it said "unknown unit").
  EXPECT_EQ(input_error([] { parse_cache_size("24.75 MiB", "--llc"); }),
            "bad --llc '24.75 MiB': a space between the number and its unit; write them as one word, 24.75MiB (give a "
            "cache size such as 24.75M, 32MiB or 512K)");
  EXPECT_THROW(parse_cache_size("lots", "--llc"), InputError);
  EXPECT_THROW(parse_cache_size("-1M", "--llc"), InputError);
}

TEST(ParseKernels, AllIsOnlyTheAvailableKernels) {
  const CpuFeatures none;  // no feature at all
  EXPECT_EQ(parse_kernels("all", none), (std::vector<std::string>{"stosb", "stosq", "memset"}));

  CpuFeatures sse2;
  sse2.sse2 = true;
  EXPECT_EQ(parse_kernels("all", sse2), (std::vector<std::string>{"stosb", "stosq", "movnti", "movntdq", "memset"}));

  CpuFeatures every;
  every.sse2 = every.avx2 = every.avx512f = every.clzero = true;
  std::vector<std::string> names;
  for (const auto& k : kernel_table()) names.emplace_back(k.name);
  EXPECT_EQ(parse_kernels("all", every), names);
}

TEST(ParseKernels, ListsAndAliases) {
  CpuFeatures cpu;
  cpu.sse2 = true;
  EXPECT_EQ(parse_kernels("stosb,movnt", cpu), (std::vector<std::string>{"stosb", "movnti"}));
  EXPECT_EQ(parse_kernels("movnti,movnt,stosb", cpu), (std::vector<std::string>{"movnti", "stosb"}));
  // Any case, as --fill ZERO and --threads MAX ("STOSB" was "unknown kernel 'STOSB'; did you mean stosb?").
  EXPECT_EQ(parse_kernels("STOSB,MovNTI", cpu), (std::vector<std::string>{"stosb", "movnti"}));
  EXPECT_EQ(parse_kernels("ALL", cpu), parse_kernels("all", cpu));
}

TEST(ParseKernels, UnknownListsTheNames) {
  const CpuFeatures none;
  EXPECT_EQ(input_error([&] { parse_kernels("avx512nt", none); }), "unknown kernel 'avx512nt'; did you mean avx512-nt?");
  EXPECT_EQ(input_error([&] { parse_kernels("stosw", none); }), "unknown kernel 'stosw'; did you mean stosb?");
  EXPECT_EQ(input_error([] { parse_pages("thpp"); }), "bad --pages 'thpp'; did you mean thp?");
  // A bare page size names no way of getting it: both ways for 2 MiB, the reserved one for 1 GiB.
  EXPECT_EQ(input_error([] { parse_pages("2M"); }),
            "bad --pages '2M'; did you mean thp (transparent 2 MiB pages, madvise) or hugetlb2m (reserved 2 MiB "
            "pages, MAP_HUGETLB)?");
  EXPECT_EQ(input_error([] { parse_pages("1g"); }),
            "bad --pages '1g'; did you mean hugetlb1g (reserved 1 GiB pages, MAP_HUGETLB)?");
  EXPECT_EQ(input_error([] { parse_membind("locale"); }), "bad --membind 'locale'; did you mean local?");
  EXPECT_EQ(input_error([] { parse_fills("zero,prf"); }), "bad fill 'prf'; did you mean perf?");
  const std::string m = input_error([&] { parse_kernels("stosb,bogus", none); });
  EXPECT_TRUE(contains(m, "bogus")) << m;
  EXPECT_TRUE(contains(m, kernel_names())) << m;
  EXPECT_TRUE(contains(m, "avx512-store")) << m;
  // all among other names was "unknown kernel 'all'; kernels are: ..., or all".
  EXPECT_EQ(input_error([&] { parse_kernels("all,stosb", none); }),
            "kernel list 'all,stosb': all stands alone (every kernel this CPU runs); name kernels, or give all by itself");
  EXPECT_TRUE(contains(input_error([&] { parse_kernels("all,stosb", none, "skylake-x-8270cl"); }),
                       "(every kernel that machine runs)"));
}

TEST(ParseKernels, UnavailableNamesTheFeature) {
  CpuFeatures cpu;
  cpu.sse2 = cpu.avx2 = true;  // no avx512f
  const std::string m = input_error([&] { parse_kernels("avx512-nt", cpu); });
  EXPECT_TRUE(contains(m, "avx512-nt")) << m;
  EXPECT_TRUE(contains(m, "avx512f")) << m;
  const std::string m2 = input_error([&] { parse_kernels("clzero", cpu); });
  EXPECT_TRUE(contains(m2, "clzero")) << m2;
}

// "all" with a non-zero fill leaves the zero-only kernels out (and says so); a named one stays
// for the sweep to refuse, and a zero fill keeps them all.
TEST(ParseKernels, AllLeavesZeroOnlyKernelsOutForANonZeroFill) {
  CpuFeatures every;
  every.sse2 = every.avx2 = every.avx512f = every.clzero = true;
  std::vector<std::string> k = parse_kernels("all", every);
  EXPECT_EQ(drop_zero_only_kernels(k, "all", parse_fills("zero,0xff")),
            "--kernels all leaves clzero out of this run: it writes only zeros, and every kernel runs every fill "
            "(zero,0xff); measure it with --fill zero");
  EXPECT_EQ(std::count(k.begin(), k.end(), "clzero"), 0);
  EXPECT_EQ(k.size(), kernel_table().size() - 1);

  k = parse_kernels("all", every);
  EXPECT_EQ(drop_zero_only_kernels(k, "all", parse_fills("zero")), "");
  EXPECT_EQ(k.size(), kernel_table().size());

  k = parse_kernels("stosb,clzero", every);
  EXPECT_EQ(drop_zero_only_kernels(k, "stosb,clzero", parse_fills("0xff")), "");
  EXPECT_EQ(k, (std::vector<std::string>{"stosb", "clzero"}));
}

// A model machine's missing feature is named as the machine's, not this CPU's.
TEST(ParseKernels, UnavailableOnAMachineNamesTheMachine) {
  CpuFeatures intel;
  intel.sse2 = intel.avx2 = intel.avx512f = true;
  EXPECT_EQ(input_error([&] { parse_kernels("clzero", intel, "skylake-sp-2s-18c"); }),
            "kernel clzero is not available on machine skylake-sp-2s-18c: needs clzero (AMD only), which that "
            "machine lacks");
  EXPECT_EQ(input_error([&] { parse_kernels("clzero", intel); }),
            "kernel clzero is not available on this CPU: needs clzero (AMD only), which this CPU lacks (bwlab list "
            "shows what runs here)");
}

TEST(ParseFills, List) {
  const auto f = parse_fills("zero,0xff,perf");
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].label(), "zero");
  EXPECT_EQ(f[1].label(), "0xff");
  EXPECT_EQ(f[2].label(), "perf");
  EXPECT_EQ(f[1].byte, 0xff);
  EXPECT_EQ(f[2].kind, Fill::Kind::perf);
  // 0x00 is zero: duplicates go.
  EXPECT_EQ(parse_fills("zero,0x00,zero").size(), 1u);
  EXPECT_THROW(parse_fills("zero,bogus"), InputError);
  EXPECT_THROW(parse_fills(""), InputError);
}

TEST(ParseMembind, GoodAndBad) {
  EXPECT_EQ(parse_membind("local").kind, MemBind::Kind::local);
  EXPECT_EQ(parse_membind("interleave").kind, MemBind::Kind::interleave);
  const MemBind n = parse_membind("node:1");
  EXPECT_EQ(n.kind, MemBind::Kind::node);
  EXPECT_EQ(n.node, 1);
  EXPECT_EQ(n.label(), "node:1");
  EXPECT_EQ(parse_membind("node:0").node, 0);
  EXPECT_EQ(parse_membind("local").label(), "local");
  EXPECT_EQ(parse_membind("interleave").label(), "interleave");
  for (const char* bad : {"", "foo", "node:", "node:-1", "node:x", "node:1x", "node1", "Locale"})
    EXPECT_THROW(parse_membind(bad), InputError) << "'" << bad << "'";
  // Any case, as kernels and fills are taken ("Local" was refused beside --kernels STOSB accepted).
  EXPECT_EQ(parse_membind("Local").kind, MemBind::Kind::local);
  EXPECT_EQ(parse_membind("NODE:1").label(), "node:1");
}

TEST(ParsePages, GoodAndBad) {
  EXPECT_EQ(parse_pages("4k"), Pages::small4k);
  EXPECT_EQ(parse_pages("thp"), Pages::thp);
  EXPECT_EQ(to_string(Pages::small4k), "4k");
  EXPECT_EQ(to_string(Pages::thp), "thp");
  for (const char* bad : {"", "2m", "THPP", "4K ", "huge"})
    EXPECT_THROW(parse_pages(bad), InputError) << "'" << bad << "'";
  EXPECT_EQ(parse_pages("THP"), Pages::thp);  // any case, as --kernels STOSB
  EXPECT_EQ(parse_pages("4K"), Pages::small4k);
  EXPECT_EQ(parse_pages("HugeTLB2M"), Pages::hugetlb2m);
}


TEST(ParseReps, CountsAndAuto) {
  EXPECT_EQ(parse_reps("5").reps, 5);
  EXPECT_FALSE(parse_reps("5").automatic);
  EXPECT_TRUE(parse_reps("auto").automatic);
  EXPECT_EQ(parse_reps("auto").reps, 3);
  EXPECT_TRUE(parse_reps("AUTO").automatic);  // any case, as --threads MAX
  for (const char* bad : {"", "0", "-1", "many", "5x", "autox"})
    EXPECT_THROW(parse_reps(bad), InputError) << "'" << bad << "'";
}

}  // namespace
}  // namespace bwlab
