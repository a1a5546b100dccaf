// SPDX-License-Identifier: MIT
// CPU model names as the presets spell them, so that one CPU named two ways is one CPU.
#pragma once
#include <string>
#include <string_view>

namespace bwlab {

// "Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz" -> "Intel Xeon Platinum 8358";
// "11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz" -> "Intel Core i7-1165G7".
std::string normalize_cpu(std::string_view raw);

// The same CPU: equal names, or equal once normalized ("Intel(R) Xeon(R) CPU E5-2630 v4 @ 2.20GHz"
// as /proc/cpuinfo and likwid write it, "Intel Xeon E5-2630 v4" as a preset does). Empty names are
// never the same CPU.
bool same_cpu(std::string_view a, std::string_view b);

}  // namespace bwlab
