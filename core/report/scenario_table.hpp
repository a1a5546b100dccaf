// SPDX-License-Identifier: MIT
#pragma once
#include <iosfwd>
#include <span>
#include <string>

#include "core/report/record.hpp"
#include "core/report/terminal.hpp"

namespace bwlab {

// Prints the points of each scenario in its own table, in the order scenarios first appear:
// scaling with print_table; victim (victim GB/s, slowdown against k = 0, aggressors' total),
// mix (per kernel total and per thread), pagefault (GB/s made ready, faults/s, huge pages),
// tlbflush (munmap ns per call and reader ns per access per k and E, as in the tlb_flushall_shift
// threads). Each table starts with a legend saying what was measured and ends with the flags.
// `style`: on a terminal the legends and footnotes wrap at its width, flags are yellow, and each
// table turns compact under the same rule as print_table (wants_compact: fewer columns, one line
// per point, `!` when flagged); the default (files, pipes) changes nothing.
void print_scenario_tables(std::ostream& out, std::span<const Point> points, const TerminalStyle& style = {});

// One line about a point for progress output, e.g.
// "victim stosb 1GiB zero with 1 x avx512-nt: 8.12 GB/s, 30.3% slower than alone".
std::string point_summary(const Point& p);

}  // namespace bwlab
