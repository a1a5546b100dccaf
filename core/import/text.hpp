// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/import/import.hpp"

// Helpers shared by the import parsers: lines of pasted text, numbers, sizes, the point skeleton.
namespace bwlab::import {

struct Line {
  int number = 0;     // 1-based line in the file (reconstructed lines: see split_lines)
  std::string text;   // without the e-mail quote prefix ("> ", ">> >") and the line end
  int quote_depth = 0;
};

// The file's lines with e-mail quote prefixes removed. A text whose line breaks were lost (an
// archive that joined every line with a space) has its lines rebuilt at each quote marker
// (" > ", " >> "); `rebuilt` says so.
std::vector<Line> split_lines(std::string_view text, bool* rebuilt = nullptr);

// The machine lines of a mail or a notebook ("System:", "Processor:", "CPU:" with the model on the
// next line, "model name :", "Microcode:", "intel_pstate/no_turbo: 1") and a caption naming
// 'perf bench ...'. Empty fields were not stated.
struct Machine {
  std::string host, cpu, microcode, turbo, tool;
};
// Reads lines[i] into m (lines up to `to` may be looked at for a continuation).
void machine_line(const std::vector<Line>& lines, std::size_t i, std::size_t to, Machine& m);
Machine machine_of(const std::vector<Line>& lines, std::size_t from, std::size_t to);

// Whitespace-separated words of s; '(' and ')' are words of their own.
std::vector<std::string> words(std::string_view s);

std::string trim(std::string_view s);
bool starts_with(std::string_view s, std::string_view prefix);

// A whole decimal number (from_chars); nullopt when s is not one.
std::optional<double> to_number(std::string_view s);

// "16MB", "2 MB" (unit separate), "4096KiB", "1GB": perf's and the tables' sizes, where the units
// are binary (perf_atoll: K = 1024). nullopt when not a size.
std::optional<std::uint64_t> binary_size(std::string_view number, std::string_view unit);


// A bwlab kernel for a tool's function name ("x86-64-stosb" -> stosb, "movnt" -> movnti,
// "default" -> memset), or "" when none is the same instruction sequence.
std::string kernel_for(std::string_view function);

// An imported point with everything unknown set to "not applicable" (NaN / empty / -1).
Point imported_point(const Options& o, std::string_view format, int line);

// Fills the figure and the flag that states the origin and the conversion:
// "imported from TOOL (FORMAT, FILE line N): UNIT x FACTOR = GB/s ...".
void set_figure(Point& p, double value, std::string_view unit, double to_gbps);

// Adds the provenance flag (call last: it reads origin, kernel and fill).
void finish(Point& p);

[[noreturn]] void fail(const Options& o, int line, std::string_view what);

}  // namespace bwlab::import
