// SPDX-License-Identifier: MIT
// Byte counts as people read them, one definition for every label in core, the CLI and the GUI.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace bwlab {

// Exact binary unit when the count is a whole number of it, else plain bytes: "16MiB", "1GiB",
// "4KiB", "1TiB", "1000B", "0B". Never rounds, so two different sizes never share a label.
std::string size_label(std::uint64_t bytes);

// Byte count in the largest binary unit that fits: whole when exact ("16MiB", "1GiB", "4KiB",
// "1000B"), else with two decimals ("1.5MiB", "1.46KiB"), more where two would look whole
// ("4.001KiB" for 4097 bytes, never "4KiB"), plain bytes past six ("1073741825B"); `sep` goes
// between number and unit ("16 MiB" for the GUI and messages).
std::string format_bytes(std::uint64_t bytes, std::string_view sep = "");
// An estimate (an interpolated crossover) to two significant digits: "5.9MiB", "23MiB", "120MiB";
// format_bytes's two decimals would claim a precision that sizes a factor of 2..16 apart do not give.
std::string format_bytes_approx(double bytes, std::string_view sep = "");

// Gibibytes with one decimal, for memory budgets in messages: "23.4 GiB".
std::string gib_text(std::uint64_t bytes);

// A signed change in percent with one decimal: "+3.2%", "-12.0%". A change that rounds to zero reads
// "+0.0%", never "-0.0%" (a -0.04% change is no loss).
std::string signed_pct(double pct);
// The same without the "+": "3.2%", "-12.0%", and "0.0%" for what rounds to zero (a victim's
// slowdown of -0.04% read "-0.0%").
std::string plain_pct(double pct);

}  // namespace bwlab
