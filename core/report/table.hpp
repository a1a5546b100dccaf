// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>

#include "core/report/record.hpp"
#include "core/report/terminal.hpp"
#include "core/report/units.hpp"  // format_bytes, size_label

namespace bwlab {

// Prints points in the spirit of the kernel mailing lists' perf tables: one row per
// (size, threads, fill), one column per kernel "GB/s (+- pstdev%)", and a speedup column
// for each kernel after the first, relative to the first. A legend says what was measured
// (source, repetitions, window, GB = 1e9 bytes, aggregate = sum over threads).
// `style` (see terminal.hpp) is for a terminal: narrower than 100 columns, or than the wide
// table, it prints one compact line per point (kernel, size, threads, fill, GB/s, spread, the
// change against the first kernel, ! when flagged) and wraps the legend and footnotes; with
// colour, simulated figures are cyan and flags yellow. The default style (files, pipes) prints
// the wide table, unchanged.
void print_table(std::ostream& out, std::span<const Point> points, const TerminalStyle& style = {});

// What a table legend says of the repetitions and window behind its figures: "5 reps of 200 ms
// per point"; for predictions, that the model gave them; when points differ (--reps auto, files of
// several runs), the ranges and where each point's own count is: "3..6 reps of 5 ms per point,
// by point: each point's count in its note below" (it said "see CSV" when no CSV was written).
std::string legend_window(std::span<const Point> points);

// When the points hold the same kernel/size/threads under several fills, prints how much
// the fills differ (ratio of medians); prints nothing otherwise.
void print_fill_comparison(std::ostream& out, std::span<const Point> points);

// Several thread counts as one label: "2..72T (71 thread counts)" (footnotes, verdict runs).
std::string threads_range_label(int lo, int hi, std::size_t count);

// What a GB/s figure of these points adds up, for the legends of verdict, compare and report:
// "aggregate over threads", and when victim rows are among them, that theirs is the victim
// thread's own and their thread count 1 victim + k aggressors.
std::string gbps_meaning(bool victim_rows);

// How much of the --pages thp buffers the kernel really backed with huge pages (Point::huge_pct,
// from smaps), for the table legends: "(100% of buffer bytes in huge pages)", or a range over the
// points "(40..100% ..., by point)"; empty when no thp point knows its share. madvise is a request:
// a thp run whose buffers stayed in 4 KiB pages measured 4 KiB pages.
std::string huge_pages_note(std::span<const Point> points);
std::string gbps_meaning(std::span<const Point> points);


}  // namespace bwlab
