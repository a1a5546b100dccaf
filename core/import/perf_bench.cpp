// SPDX-License-Identifier: MIT
// `perf bench mem memset|memcpy` output (tools/perf/bench/mem-functions.c, default format):
//   # Running 'mem/memset' benchmark:
//   # function 'x86-64-stosb' (movsb-based memset() in arch/x86/lib/memset_64.S)
//   # Copying 1MB bytes ...
//   <blank>
//         12.345678 GB/sec
// print_bps() divides by 1024 per step: GB/sec is GiB/s, MB/sec MiB/s, "KB/sec" KiB/s (printed
// as "%14lfd KB/sec", with a stray 'd'). `-f all` prints one function block after another.
// memset fills with the loop index (after a prefault pass with -1): fill "perf". perf does not
// print -l (loops) or the threads (always one): the command line above the block is kept as the
// tool when the paste has it.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/import/text.hpp"

namespace bwlab::import {

namespace {

struct Unit {
  std::string_view name;
  double to_gbps;
};
// perf's print_bps() divides by 1024 per step: GB/sec is GiB/s.
constexpr Unit kUnits[] = {{"GB/sec", 1073741824.0 / 1e9},
                           {"MB/sec", 1048576.0 / 1e9},
                           {"KB/sec", 1024.0 / 1e9},
                           {"bytes/sec", 1.0 / 1e9}};

const Unit* unit_of(std::string_view w) {
  for (const Unit& u : kUnits)
    if (u.name == w) return &u;
  return nullptr;
}

// The value of "-r N" (perf stat) or "-l N" / "--nr_loops N" in a command line, or 0.
int option_value(const std::vector<std::string>& w, std::string_view shrt, std::string_view lng) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    std::string_view v;
    if ((w[i] == shrt || w[i] == lng) && i + 1 < w.size()) v = w[i + 1];
    else if (starts_with(w[i], std::string(lng) + "=")) v = std::string_view(w[i]).substr(lng.size() + 1);
    else continue;
    if (const auto n = to_number(v); n && *n >= 1 && *n <= 1e6) return static_cast<int>(*n);
  }
  return 0;
}

}  // namespace

std::vector<Point> import_perf_bench(std::string_view text, const Options& o) {
  std::vector<Point> out;
  std::string bench;            // memset | memcpy
  std::string function;         // current '# function'
  std::uint64_t size = 0;       // pending '# Copying' size, 0 when consumed
  int size_line = 0;
  int odd_line = 0;             // the first unreadable line after the pending '# Copying', 0 if none
  std::string odd_text;
  std::string command;          // the last command line that runs perf bench mem
  int command_runs = 1;

  const std::vector<Line> lines = split_lines(text);
  Machine machine;  // the machine lines seen so far (System:, Processor:, ...)
  // A '# Copying' whose result never came: the line that stood where the result belongs is the
  // bad one (a mangled "N GB/sec"), else the '# Copying' itself.
  const auto no_result = [&] {
    if (odd_line)
      fail(o, odd_line, fmt::format("'{}' is not a result (expected 'N GB/sec', 'N MB/sec', 'N KB/sec' or "
                                    "'N bytes/sec' for the '# Copying' on line {})",
                                    odd_text, size_line));
    fail(o, size_line, "'# Copying' without a result line");
  };
  for (std::size_t li = 0; li < lines.size(); ++li) {
    const Line& l = lines[li];
    const std::string& t = l.text;
    if (t.empty()) continue;
    machine_line(lines, li, lines.size(), machine);
    const std::vector<std::string> w = words(t);
    if (t.find("perf bench") != std::string::npos && t.find(" mem") != std::string::npos && t[0] != '#' &&
        t.find('\'') == std::string::npos) {
      command = trim(t[0] == '$' ? std::string_view(t).substr(1) : std::string_view(t));
      command_runs = t.find("perf stat") != std::string::npos ? std::max(1, option_value(w, "-r", "--repeat")) : 1;
      continue;
    }
    if (starts_with(t, "# Running '")) {
      const auto end = t.find('\'', 11);
      const std::string name = t.substr(11, end == std::string::npos ? std::string::npos : end - 11);
      if (name != "mem/memset" && name != "mem/memcpy")
        fail(o, l.number, fmt::format("benchmark '{}': only perf bench mem memset and memcpy report a bandwidth", name));
      if (size) no_result();
      bench = name.substr(4);
      function.clear();
      continue;
    }
    if (starts_with(t, "# function '")) {
      if (size) no_result();
      const auto end = t.find('\'', 12);
      if (end == std::string::npos) fail(o, l.number, "unterminated function name");
      function = t.substr(12, end - 12);
      if (bench.empty()) bench = t.find("memcpy") != std::string::npos ? "memcpy" : "memset";
      continue;
    }
    if (starts_with(t, "# function")) fail(o, l.number, "expected \"# function 'NAME' (...)\"");  // else the result goes to the function above
    if (starts_with(t, "# Copying ")) {
      if (function.empty()) fail(o, l.number, "'# Copying' without a '# function' line above it");
      if (size) no_result();
      // words: "#" "Copying" SIZE "bytes" "..."
      if (w.size() < 4 || w[3] != "bytes") fail(o, l.number, "expected '# Copying SIZE bytes ...'");
      const auto s = binary_size(w[2], "");
      if (!s) fail(o, l.number, fmt::format("'{}' is not a size (B, KB, MB, GB, TB: powers of 1024)", w[2]));
      size = *s;
      size_line = l.number;
      odd_line = 0;
      continue;
    }
    if (starts_with(t, "# Memory allocation failed")) fail(o, l.number, "perf could not allocate the buffer");
    // A result: "N UNIT", optionally "(+- X%)" after it (perf stat -r).
    if (w.size() < 2 || !to_number(w[0])) {
      std::string first = w.empty() ? "" : w[0];
      if (!first.empty() && first.back() == 'd' && w.size() >= 2 && w[1] == "KB/sec") {
        // perf's "%14lfd KB/sec": the 'd' is a typo in perf, not part of the number.
      } else {
        if (size && !odd_line) odd_line = l.number, odd_text = trim(t);
        continue;
      }
    }
    std::string value_text = w[0];
    if (!value_text.empty() && value_text.back() == 'd') value_text.pop_back();
    const auto value = to_number(value_text);
    if (w[1] == "cycles/byte") fail(o, l.number, "cycles/byte (perf bench -c) is not a bandwidth");
    const Unit* unit = unit_of(w[1]);
    if (!value || !unit) {  // prose that starts with a number
      if (size && !odd_line) odd_line = l.number, odd_text = trim(t);
      continue;
    }
    if (!size) fail(o, l.number, "a result without a '# function' and '# Copying' line above it");
    if (*value < 0) fail(o, l.number, fmt::format("'{}' is a negative bandwidth", trim(t)));
    double spread = Point::kNone;
    if (w.size() > 2) {
      // "( +- 0.01% )" as perf stat prints it
      if (w.size() >= 5 && w[2] == "(" && w[3] == "+-" && w.back() == ")") {
        std::string s = w[4];
        if (!s.empty() && s.back() == '%') s.pop_back();
        const auto v = to_number(s);
        if (!v) fail(o, l.number, fmt::format("'{}' is not a spread in %", w[4]));
        spread = *v;
      } else {
        fail(o, l.number, fmt::format("unexpected '{}' after the result", w[2]));
      }
    }
    Point p = imported_point(o, "perf-bench", l.number);
    p.origin_function = function;
    const bool command_fits = !command.empty() && (command.find(bench) != std::string::npos) &&
                              (command.find(function) != std::string::npos ||
                               command.find("-f all") != std::string::npos || command.find(" -f") == std::string::npos);
    p.origin_tool = command_fits ? command : fmt::format("perf bench mem {} -f {}", bench, function);
    const int loops = command_fits ? option_value(words(command), "-l", "--nr_loops") : 0;
    if (!command_fits)
      p.flags.push_back("the command line is not in the text: perf's default of 1 loop assumed, as perf prints no loop count");
    else if (loops == 0)
      p.flags.push_back("no -l in the command: perf's default of 1 loop");
    if (bench == "memset") {
      const std::string k = kernel_for(function);
      p.kernel = k.empty() ? function : k;
      p.fill = "perf";
    } else {
      p.kernel = "memcpy/" + function;
      p.fill = "";
    }
    p.host = machine.host;
    if (p.cpu_model.empty()) p.cpu_model = machine.cpu;
    p.origin_microcode = machine.microcode;
    p.origin_turbo = machine.turbo.empty() ? "unknown" : machine.turbo;
    p.size_bytes = size;
    p.reps = command_fits ? command_runs : 1;
    set_figure(p, *value, unit->name, unit->to_gbps);
    if (!std::isnan(spread)) {
      p.gbps_pstdev_pct = spread;
      p.origin_spread = spread;
      p.origin_spread_unit = "percent";
    }
    out.push_back(std::move(p));
    size = 0;
  }
  if (size) no_result();
  return out;
}

}  // namespace bwlab::import
