// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace bwlab {

// Edit distance (insertions, deletions, substitutions and swaps of two neighbours, each cost 1:
// the optimal string alignment distance) between a and b, compared case-sensitively. A swap is the
// commonest typo ("rnu" for run, "genao" for genoa), and cost 2 as two substitutions: too far.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name in `names` closest to `candidate` by edit_distance, for a "did you mean X?" hint.
// Case does not count (the names are lower case: "STOSB" suggests stosb, "Scater" scatter).
// Returns "" when `names` is empty, when `candidate` is itself in `names`, or when the nearest
// name is too far to be a plausible typo: more than 2 edits, or more than a third of the longer
// of the two (so "x" does not suggest "zero"). Ties go to the first such name in `names`. Failing
// that, a word of 3 letters or more that begins exactly one name suggests it ("lkml": lkml-table;
// "avx512" begins two kernels: nothing).
std::string nearest_name(std::string_view candidate, const std::vector<std::string>& names);

// `s` with ASCII letters in lower case: names typed in any case ("MAX", "STOSB", "X.JSON").
std::string lower_case(std::string_view s);

}  // namespace bwlab
