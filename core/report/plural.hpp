// SPDX-License-Identifier: MIT
// Counts with their nouns in agreement ("1 point", "2 points", "0 points"): one rule for every
// message of core and the CLI instead of a `n == 1 ? "" : "s"` at each.
#pragma once
#include <concepts>
#include <string>
#include <string_view>

namespace bwlab {

// `singular` when `one`, else `plural` (empty: `singular` + "s").
std::string noun_for(bool one, std::string_view singular, std::string_view plural = {});

// The noun that agrees with `n`, for a count printed apart from it: noun(n, "window") in
// "1 of 1 window", "3 of 5 windows".
template <std::integral N>
std::string noun(N n, std::string_view singular, std::string_view plural = {}) {
  return noun_for(n == 1, singular, plural);
}

// `n` and its noun: "1 point", "2 points", "0 points", count_of(1, "switch", "switches").
template <std::integral N>
std::string count_of(N n, std::string_view singular, std::string_view plural = {}) {
  return std::to_string(n) + ' ' + noun(n, singular, plural);
}

}  // namespace bwlab
