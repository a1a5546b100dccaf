// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/kernels/cpu_features.hpp"
#include "core/kernels/fill.hpp"

namespace bwlab {

// Splits a comma (or `sep`) list into its items, empty ones included; trims spaces at both ends.
std::vector<std::string_view> split_list(std::string_view text, char sep = ',');
std::string_view trim_spaces(std::string_view text);

// The two ends of a range item "A..B" (trimmed), or nothing when the item has no "..". An end left
// out ("1..", "..1G") or more dots ("1...4", "1..2..3") throws InputError "bad WHAT range 'ITEM':
// give a start and an end joined by two dots, e.g. EXAMPLE" (it read "bad thread count ''").
std::optional<std::pair<std::string_view, std::string_view>> range_ends(std::string_view item, std::string_view what,
                                                                        std::string_view example);

// One size: digits with an optional K/M/G/T, all binary (2^10, 2^20, 2^30, 2^40; KiB/MiB/GiB
// and KB/MB/GB are the same powers of two, not 10^3/10^6/10^9). No unit means bytes. A fraction
// is taken when it gives a whole number of bytes ("1.5G" = 1610612736, "0.5K" = 512; "1.3K" is
// refused: not a whole number of bytes). Throws InputError for 0 (naming parse_sizes' minimum,
// one page: 4K), garbage or overflow.
std::uint64_t parse_size(std::string_view text);

// A cache size (an LLC): a number, fractions allowed, with a unit K/M/G in the same binary sense
// (KB, KiB alike): "24.75M", "24.75MiB", "512K". `option` ("--llc") names the value in the
// messages; a bare number is refused asking for its unit ("--llc 24.75: no unit; did you mean
// 24.75M?"). Throws InputError.
std::uint64_t parse_cache_size(std::string_view text, std::string_view option);

// A comma list of per-thread buffer sizes and doubling ranges: "16M,1G", "2M..1G" (2M, 4M, ...,
// 1G). Sizes below one page (4 KiB) are refused with a hint ("64" -> did you mean 64M?), for
// measuring and simulating alike: a buffer below a page is not a bandwidth test.
std::vector<std::uint64_t> parse_sizes(std::string_view text);

// A comma list of thread counts and ranges: "1,2,4", "1..max", "2..8", "max".
// `max` is the number of PUs this process may use. Throws InputError for 0, > max, or a range
// whose end is below its start; the message names `allowed` (e.g. "0-3,8"), the PUs this process
// may use, when given. When the PUs are another topology's (a model's, a synthetic one),
// `limited_by` names it ("the model's topology package:1 core:18 pu:2") and the message says
// "N threads asked for, but LIMITED_BY has only M PUs" instead.
std::vector<int> parse_threads(std::string_view text, int max, std::string_view allowed = {},
                               std::string_view limited_by = {});

// A comma list of kernel names (aliases resolved), or "all" (every kernel available on `cpu`).
// Throws InputError for an unknown name (listing the valid ones) or a kernel `cpu` cannot run
// (naming the missing feature). `cpu` is this CPU's, or, when `machine` names one (simulate,
// verdict --machine), that model machine's: the message then says "not available on machine NAME".
std::vector<std::string> parse_kernels(std::string_view text, const CpuFeatures& cpu, std::string_view machine = {});

// The note for "all" on a model machine that lacks a kernel ("--kernels all leaves out what machine
// M cannot run: clzero (needs clzero (AMD only), which that machine lacks)"), or "" (not "all", or
// nothing lacking). simulate printed 9 kernels for "all" and never said why clzero was not one.
std::string kernels_all_unavailable(std::string_view kernels_text, const CpuFeatures& cpu, std::string_view machine);

// "all" means every kernel that can run the sweep: with a fill other than zero the zero-only
// kernels (clzero) are left out of `kernels` when `kernels_text` is "all" (named explicitly they
// stay, and the sweep refuses them). Returns the note saying what was left out, or "".
std::string drop_zero_only_kernels(std::vector<std::string>& kernels, std::string_view kernels_text,
                                   const std::vector<Fill>& fills);

// --reps: a count (1 or more), or "auto" (at least 3, then more until the spread is under the
// target; see SweepSpec::reps_auto). Throws InputError.
struct RepsSetting {
  int reps = 5;
  bool automatic = false;
};
RepsSetting parse_reps(std::string_view text);

// A comma list of fills: "zero", "0xff", "perf", "zero,0xff".
std::vector<Fill> parse_fills(std::string_view text);

}  // namespace bwlab
