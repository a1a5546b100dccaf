// SPDX-License-Identifier: MIT
#include "core/sweep/suggest.hpp"

#include <gtest/gtest.h>

namespace bwlab {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("kernel", "kernels"), 1u);   // insertion
  EXPECT_EQ(edit_distance("movntii", "movnti"), 1u);   // deletion
  EXPECT_EQ(edit_distance("stosd", "stosb"), 1u);      // substitution
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);   // the textbook case
  EXPECT_EQ(edit_distance("flaw", "lawn"), 2u);
  EXPECT_EQ(edit_distance("abc", "ABC"), 3u);          // case-sensitive
  EXPECT_EQ(edit_distance("rnu", "run"), 1u);          // a swap of neighbours is one edit
  EXPECT_EQ(edit_distance("genao", "genoa"), 1u);
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);           // optimal string alignment: no edit of a swapped pair
}

TEST(NearestName, SuggestsTheClosePlausibleName) {
  const std::vector<std::string> options{"--kernels", "--sizes", "--threads", "--csv", "--json"};
  EXPECT_EQ(nearest_name("--kernel", options), "--kernels");
  EXPECT_EQ(nearest_name("--thread", options), "--threads");
  EXPECT_EQ(nearest_name("--jsno", options), "--json");
  const std::vector<std::string> kernels{"stosb", "movnti", "avx512-nt", "clzero"};
  EXPECT_EQ(nearest_name("movnt", kernels), "movnti");
  EXPECT_EQ(nearest_name("avx512nt", kernels), "avx512-nt");
}

// Names are lower case; a name typed in capitals is that name (it got no suggestion: 5 edits).
TEST(NearestName, CaseDoesNotCount) {
  const std::vector<std::string> kernels{"stosb", "movnti", "avx512-nt", "clzero"};
  EXPECT_EQ(nearest_name("STOSB", kernels), "stosb");
  EXPECT_EQ(nearest_name("Movnti", kernels), "movnti");
  EXPECT_EQ(nearest_name("AVX512NT", kernels), "avx512-nt");
  EXPECT_EQ(nearest_name("CLZERO", kernels), "clzero");
}

TEST(NearestName, NothingWhenExactFarOrEmpty) {
  const std::vector<std::string> names{"stosb", "movnti", "zero"};
  EXPECT_EQ(nearest_name("stosb", names), "");           // already a valid name
  EXPECT_EQ(nearest_name("x", names), "");               // 3+ edits from everything
  EXPECT_EQ(nearest_name("ze", names), "");              // 2 edits but half the word
  EXPECT_EQ(nearest_name("completely-else", names), "");
  EXPECT_EQ(nearest_name("stosb", {}), "");
  // The start of one name only (3 letters or more): "lkml" for lkml-table; none when it begins two.
  EXPECT_EQ(nearest_name("lkml", {"perf-bench", "lkml-table", "pmbw"}), "lkml-table");
  EXPECT_EQ(nearest_name("LKML", {"perf-bench", "lkml-table", "pmbw"}), "lkml-table");
  EXPECT_EQ(nearest_name("avx512", {"avx512-nt", "avx512-store"}), "");
  EXPECT_EQ(nearest_name("zer", {"zero", "one"}), "zero");
  EXPECT_EQ(nearest_name("ze", {"zero", "one"}), "");
}

TEST(NearestName, TwoLettersSwappedAreOneTypo) {
  EXPECT_EQ(nearest_name("rnu", {"run", "list", "topo"}), "run");
  EXPECT_EQ(nearest_name("genao", {"zen4", "genoa", "milan"}), "genoa");
  EXPECT_EQ(nearest_name("stsob", {"stosb", "movnti"}), "stosb");
}

TEST(NearestName, TiesGoToTheFirstListed) {
  EXPECT_EQ(nearest_name("abcx", {"abcd", "abce"}), "abcd");
  EXPECT_EQ(nearest_name("abcx", {"abce", "abcd"}), "abce");
}

}  // namespace
}  // namespace bwlab
