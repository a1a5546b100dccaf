// SPDX-License-Identifier: MIT
#pragma once
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

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

// A scenario's own columns as text cells, one row per point, header first: the rows
// print_scenario_tables prints for files and pipes (victim: victim, aggressor, size, fill, k,
// victim GB/s (+- pstdev), slowdown, aggressors GB/s; mix: per kernel total, per thread,
// fairness, others; pagefault: pages, region, threads, GB/s made ready, faults/s, faults/rep,
// pages touched/rep, huge %; tlbflush: k readers, E, munmap ns/call, calls/rep, reader ns/read,
// alone ns, cost ns), with "-" where a figure is missing. `left`: how many leading columns are
// text (left-aligned); the rest are figures. The scenario is that of points.front(), every point
// of the same one. Empty rows for scaling (its table has a column per kernel, not a row per point)
// and for no points.
struct ScenarioRows {
  std::vector<std::vector<std::string>> rows;
  std::size_t left = 0;
};
ScenarioRows scenario_rows(std::span<const Point> points);

// A point's repetitions and spread as progress lines say them: "median of 5 reps, +- 2.1%", and
// "1 rep, no spread" for one ("+- 0.0%" read as a steady figure).
std::string reps_and_spread(const Point& p);

// One line about a point for progress output, e.g.
// "victim stosb 1GiB zero with 1 x avx512-nt: 8.12 GB/s, 30.3% slower than alone".
std::string point_summary(const Point& p);

}  // namespace bwlab
