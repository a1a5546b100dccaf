// SPDX-License-Identifier: MIT
#pragma once
#include <iosfwd>
#include <span>
#include <string_view>
#include <vector>

#include "core/report/record.hpp"

namespace bwlab {

// The fixed CSV header (no trailing newline): the CSV fields of core/report/fields.hpp, in order.
// Columns never depend on the data.
std::string_view csv_header();
// Whether `text`, after leading blanks, begins as a bwlab CSV's header does (its columns up to
// cpu_model): a file's kind told by its first line, as import and the points readers tell it.
bool begins_like_csv_header(std::string_view text);

// Writes the header and one row per point. Numbers are locale-independent; list columns
// (pus, pus_planned, flags) are ';'-separated; fields are quoted per RFC 4180 when needed.
void write_csv(std::ostream& out, std::span<const Point> points);
// The same text as a string, for write_file_atomically without a stream's copies (the big
// simulated sweeps write tens of MB).
std::string csv_text(std::span<const Point> points);

// Reads a CSV written by write_csv. Columns are found by header name (any order); optional
// columns (fields.hpp) may be missing, as in files of older versions, and then hold Point's
// default. Throws InputError naming the line (and the column) on malformed input: unknown,
// duplicate or missing required column, wrong field count, unparsable number.
// per_thread and gbps_reps stay empty.
std::vector<Point> read_csv(std::istream& in);

// Imported rows whose figure is a ratio between the kernels of one point, not GB/s: their flag
// starts with kRelativeFigureFlag (tests/data/public/goldsteinn_relative.py). Only `bwlab simulate
// --validate` reads them, as ratios; plotting, comparing or reporting them as GB/s would mislead,
// so the loaders refuse them (refuse_relative_figures throws InputError naming `origin`).
inline constexpr std::string_view kRelativeFigureFlag = "relative figure";
bool is_relative_figure(const Point& p);
void refuse_relative_figures(std::span<const Point> points, std::string_view origin);

}  // namespace bwlab
