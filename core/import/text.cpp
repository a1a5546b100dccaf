// SPDX-License-Identifier: MIT
#include "core/import/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/report/cpu_name.hpp"

namespace bwlab::import {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Removes the quote prefix (any mix of '>' and blanks before the text) and counts the '>'.
Line unquote(std::string_view raw, int number) {
  Line l;
  l.number = number;
  std::size_t i = 0;
  // Leading blanks (indentation) go too: the parsers read words, not columns.
  while (i < raw.size() && (raw[i] == '>' || is_space(raw[i]))) {
    if (raw[i] == '>') ++l.quote_depth;
    ++i;
  }
  std::string_view rest = raw.substr(i);
  while (!rest.empty() && is_space(rest.back())) rest.remove_suffix(1);
  l.text = std::string(rest);
  return l;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The value after "key:" anywhere in the line (case-insensitive), up to a comma.
std::string value_after(const std::string& line, std::string_view key) {
  const std::string l = lower(line);
  const auto p = l.find(key);
  if (p == std::string::npos) return {};
  std::string v = trim(std::string_view(line).substr(p + key.size()));
  if (const auto comma = v.find(','); comma != std::string::npos) v.erase(comma);
  return trim(v);
}

}  // namespace

void machine_line(const std::vector<Line>& lines, std::size_t i, std::size_t to, Machine& m) {
  {
    std::string t = lines[i].text;
    while (!t.empty() && (t[0] == '#' || t[0] == ' ')) t.erase(0, 1);
    const auto colon = t.find(':');
    const std::string key = colon == std::string::npos ? "" : lower(trim(std::string_view(t).substr(0, colon)));
    const std::string value = colon == std::string::npos ? "" : trim(std::string_view(t).substr(colon + 1));
    if (key == "system") {
      m.host = value.substr(0, value.find(" ("));
    } else if (key == "processor" || key == "model name") {
      m.cpu = normalize_cpu(value);
    } else if (key == "cpu") {
      // "CPU: 2 nodes * 10 cores/node * 2 threads/core" with the model on the next line; one
      // socket says "1 node * ..." or "8 cores * 2 threads/core" (it became the CPU's name).
      if (value.find('*') != std::string::npos &&
          (value.find("node") != std::string::npos || value.find("core") != std::string::npos)) {
        // the next line, unless it is a "key: value" line of its own ("(Broadwellx, 6:79:1)" is not)
        if (i + 1 < to) {
          const std::string& next = lines[i + 1].text;
          const auto c = next.find(':');
          if (c == std::string::npos || next.substr(0, c).find('(') != std::string::npos) m.cpu = normalize_cpu(next);
        }
      } else {
        m.cpu = normalize_cpu(value);
      }
    }
    if (const std::string mc = value_after(t, "microcode:"); !mc.empty()) m.microcode = mc;
    if (const std::string nt = value_after(t, "no_turbo:"); !nt.empty()) {
      if (nt == "1") m.turbo = "off";
      else if (nt == "0") m.turbo = "on";
    }
    if (const auto q = t.find("'perf bench "); q != std::string::npos) {
      const auto end = t.find('\'', q + 1);
      if (end != std::string::npos) m.tool = t.substr(q + 1, end - q - 1);
    }
  }
}

Machine machine_of(const std::vector<Line>& lines, std::size_t from, std::size_t to) {
  Machine m;
  for (std::size_t i = from; i < to; ++i) machine_line(lines, i, to, m);
  return m;
}


std::vector<Line> split_lines(std::string_view text, bool* rebuilt) {
  std::vector<Line> out;
  const bool joined = text.find('\n') == std::string_view::npos && text.size() > 400 &&
                      text.find(" > ") != std::string_view::npos;
  if (rebuilt) *rebuilt = joined;
  if (!joined) {
    int n = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view raw = text.substr(start, end - start);
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      out.push_back(unquote(raw, ++n));
      if (end == text.size()) break;
      start = end + 1;
    }
    return out;
  }
  // Rebuild: a new line starts at every quote marker (a run of '>' preceded by a blank and
  // followed by a blank), and the marker itself (">> > ") belongs to the new line.
  int n = 0;
  std::size_t start = 0, i = 0;
  while (i < text.size()) {
    if (is_space(text[i]) && i + 1 < text.size() && text[i + 1] == '>') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] == '>') ++j;
      if (j == text.size() || is_space(text[j])) {
        out.push_back(unquote(text.substr(start, i - start), ++n));
        start = i + 1;
        // Skip the rest of the marker (">> > ") so it does not start yet another line.
        while (j < text.size() && (text[j] == '>' || is_space(text[j]))) ++j;
        i = j;
        continue;
      }
    }
    ++i;
  }
  out.push_back(unquote(text.substr(start), ++n));
  return out;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(std::move(cur));
    cur.clear();
  };
  for (char c : s) {
    if (is_space(c) || c == '\n') {
      flush();
    } else if (c == '(' || c == ')') {
      flush();
      out.emplace_back(1, c);
    } else {
      cur.push_back(c);
    }
  }
  flush();
  return out;
}

std::string trim(std::string_view s) {
  while (!s.empty() && (is_space(s.front()) || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\n')) s.remove_suffix(1);
  return std::string(s);
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::optional<double> to_number(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> binary_size(std::string_view number, std::string_view unit) {
  if (unit.empty()) {
    std::size_t i = 0;
    while (i < number.size() && (std::isdigit(static_cast<unsigned char>(number[i])) || number[i] == '.')) ++i;
    unit = number.substr(i);
    number = number.substr(0, i);
  }
  const auto v = to_number(number);
  if (!v || *v <= 0) return std::nullopt;
  std::string u;
  for (char c : unit) u.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  double mult = 0;
  if (u == "B") mult = 1;
  else if (u == "K" || u == "KB" || u == "KIB") mult = 1024.0;
  else if (u == "M" || u == "MB" || u == "MIB") mult = 1024.0 * 1024;
  else if (u == "G" || u == "GB" || u == "GIB") mult = 1024.0 * 1024 * 1024;
  else if (u == "T" || u == "TB" || u == "TIB") mult = 1024.0 * 1024 * 1024 * 1024;
  else return std::nullopt;
  const double bytes = *v * mult;
  if (!(bytes >= 1) || bytes > 1e18 || bytes != std::floor(bytes)) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

std::string kernel_for(std::string_view function) {
  std::string_view f = function;
  if (starts_with(f, "x86-64-")) f.remove_prefix(7);
  if (f == "default") return "memset";
  if (const KernelInfo* k = find_kernel(f)) return std::string(k->name);
  const auto space = f.find(' ');
  if (space != std::string_view::npos)
    if (const KernelInfo* k = find_kernel(f.substr(0, space))) return std::string(k->name);
  return {};
}

Point imported_point(const Options& o, std::string_view format, int line) {
  Point p;
  p.source = "imported";
  p.scenario = "scaling";
  p.cpu_model = o.cpu;
  p.fill = "unknown";
  p.threads = 1;
  p.reps = 1;
  p.duration_ms = Point::kNone;
  p.bytes_median = Point::kNone;
  p.elapsed_ns_median = Point::kNone;
  p.gbps_min = Point::kNone;
  p.gbps_max = Point::kNone;
  p.gbps_pstdev_pct = Point::kNone;
  p.gbps_per_thread_median = Point::kNone;
  p.thread_fairness = Point::kNone;
  p.origin_format = std::string(format);
  p.origin_file = o.file;
  p.origin_line = line;
  p.origin_note = o.note;
  return p;
}

void set_figure(Point& p, double value, std::string_view unit, double to_gbps) {
  p.gbps_median = value * to_gbps;
  p.origin_unit = std::string(unit);
  p.origin_to_gbps = to_gbps;
  if (p.reps == 1) p.gbps_min = p.gbps_max = p.gbps_median;  // one figure: its own range
  if (p.threads > 0) p.gbps_per_thread_median = p.gbps_median / p.threads;
  if (const KernelInfo* k = find_kernel(p.kernel)) p.traffic_class = std::string(to_string(k->traffic));
}

void finish(Point& p) {
  // A JSON (gbench) has no line to name: its entry is named by origin_tool instead.
  const std::string where =
      p.origin_line > 0 ? fmt::format("{} line {}", p.origin_file, p.origin_line) : p.origin_file;
  std::string f = fmt::format("imported from {} ({}, {})", p.origin_tool.empty() ? "a tool not stated" : p.origin_tool,
                              p.origin_format, where);
  if (p.origin_to_gbps == 1)
    f += fmt::format(": {} read as GB/s (1e9 bytes/s), no conversion", p.origin_unit);
  else
    f += fmt::format(": 1 {} as printed = {} GB/s (1e9 bytes/s)", p.origin_unit, fmt::format("{}", p.origin_to_gbps));
  if (p.origin_spread_unit == "as-reported")
    f += fmt::format(", spread +-{} as reported (unit not stated, not converted)", fmt::format("{}", p.origin_spread));
  if (!p.origin_function.empty() && p.origin_function != p.kernel) f += fmt::format(", function '{}'", p.origin_function);
  if (!p.origin_microcode.empty()) f += fmt::format(", microcode {}", p.origin_microcode);
  f += fmt::format(", turbo {}", p.origin_turbo.empty() ? "unknown" : p.origin_turbo);
  if (p.fill == "unknown") f += ", fill unknown";
  if (!p.origin_note.empty()) f += fmt::format(", note: {}", p.origin_note);
  for (char& c : f)
    if (c == ';' || c == '\n' || c == '\r') c = ',';
  p.flags.insert(p.flags.begin(), std::move(f));
  if (!p.kernel.empty() && !find_kernel(p.kernel))
    p.flags.push_back(fmt::format("kernel '{}' is not a bwlab kernel", p.kernel));
}

void fail(const Options& o, int line, std::string_view what) {
  if (line > 0) throw InputError(fmt::format("{} line {}: {}", o.file, line, what));
  throw InputError(fmt::format("{}: {}", o.file, what));
}

}  // namespace bwlab::import
