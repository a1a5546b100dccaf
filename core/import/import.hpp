// SPDX-License-Identifier: MIT
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/report/record.hpp"

// Bring-your-own numbers: other tools' bandwidth results as bwlab points (source = "imported").
// One parser per format (perf_bench.cpp, lkml_table.cpp, likwid_bench.cpp, pmbw.cpp,
// gbench.cpp),
// this dispatcher, and the helpers they share (text.hpp). Every unit conversion is stated in the
// point's origin_* fields (CSV/JSON columns) and in one flag; what a format does not state is recorded as unknown, never guessed.
namespace bwlab::import {

struct Options {
  std::string file;  // the name used in messages and in origin_file
  std::string cpu;   // --cpu: the CPU model for every point (overrides what the text states)
  std::string note;  // --note: kept with every point
  std::vector<std::string>* notes = nullptr;  // where a parser says what it left out (pmbw's read tests)
};

// The formats, in the order `bwlab import --help` lists them.
std::span<const std::string_view> formats();

// Parses `text` in `format`. Throws InputError naming the file and line on unknown or partial
// input, or when the text holds no result of that format.
std::vector<Point> import_text(std::string_view format, std::string_view text, const Options& o);

// Throws InputError for a second figure of one point (same host, CPU and point_key): two runs pasted
// into one file, or the same point in two files of one import. plot joined the two in a zig-zag
// drawn like a min..max bar, and verdict and report refused the file as "mixing runs". import_text
// calls it on each file's points; `bwlab import` on all of them.
void refuse_repeated_points(std::span<const Point> points);

// The parsers (dispatch targets; same contract as import_text).
std::vector<Point> import_perf_bench(std::string_view text, const Options& o);
std::vector<Point> import_lkml_table(std::string_view text, const Options& o);
std::vector<Point> import_likwid_bench(std::string_view text, const Options& o);
std::vector<Point> import_pmbw(std::string_view text, const Options& o);
std::vector<Point> import_gbench(std::string_view text, const Options& o);

}  // namespace bwlab::import
