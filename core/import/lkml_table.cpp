// SPDX-License-Identifier: MIT
// The side-by-side tables of the mailing-list threads (the seeds):
//
//   System:           Oracle X8-2 (2 nodes * 26 cores/node * 2 threads/core)
//   Processor:        Intel Xeon Platinum 8270CL (Skylakex, 6:85:7)
//   Microcode:        0x5002f01
//   intel_pstate/no_turbo: 1
//   # Performance comparison of 'perf bench mem memset -l 1' for x86-64-stosb ...
//                 x86-64-stosb (5 runs)     x86-64-movnt (5 runs)      speedup
//                 -----------------------   -----------------------    -------
//        size            BW   (   pstdev)          BW   (   pstdev)
//        16MB      20.38 GB/s ( +- 2.58%)     6.25 GB/s ( +- 0.41%)   -69.28%
//
// A table is a header line with two or more "NAME (N runs)" columns, then rows of a size and one
// "BW GB/s ( +- SPREAD )" per column, then an optional delta. Rows are read as a stream of words,
// so rows wrapped by a mail client and e-mail quoting ("> ", ">> >") do not matter. The machine
// lines between the previous table (or the top) and the header give host, CPU, microcode and
// turbo; a caption naming 'perf bench ...' gives the tool (then GB/s is perf's GiB/s and the fill
// is perf's). A spread with '%' is a pstdev in percent; without, it is kept as reported.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/import/text.hpp"
#include "core/report/point_flags.hpp"

namespace bwlab::import {

namespace {

struct Word {
  std::string w;
  int line = 0;
};

struct Column {
  std::string name;
  int runs = 0;
};

// "16MB" or "2" "MB" at words[i]: the size and how many words it took.
std::optional<std::pair<std::uint64_t, std::size_t>> size_at(const std::vector<Word>& w, std::size_t i) {
  if (i >= w.size()) return std::nullopt;
  if (const auto s = binary_size(w[i].w, ""); s && !to_number(w[i].w)) return std::pair{*s, std::size_t{1}};
  if (i + 1 < w.size() && to_number(w[i].w))
    if (const auto s = binary_size(w[i].w, w[i + 1].w)) return std::pair{*s, std::size_t{2}};
  return std::nullopt;
}

bool is_delta(const std::string& w) { return w.size() > 1 && w.back() == '%' && to_number(w.substr(0, w.size() - 1)); }

}  // namespace

std::vector<Point> import_lkml_table(std::string_view text, const Options& o) {
  bool rebuilt = false;
  const std::vector<Line> lines = split_lines(text, &rebuilt);
  std::vector<Point> out;
  std::size_t region_start = 0;  // machine lines are looked for from here to the header
  std::size_t li = 0;
  while (li < lines.size()) {
    // A header: two or more "NAME ( N runs )" on one line.
    const std::vector<std::string> hw = words(lines[li].text);
    std::vector<Column> cols;
    std::size_t name_start = 0;
    for (std::size_t i = 0; i + 3 < hw.size(); ++i) {
      if (hw[i] == "(" && to_number(hw[i + 1]) && (hw[i + 2] == "runs" || hw[i + 2] == "run") && hw[i + 3] == ")") {
        Column c;
        for (std::size_t k = name_start; k < i; ++k)
          if (hw[k] != "#") c.name += (c.name.empty() ? "" : " ") + hw[k];
        c.runs = static_cast<int>(*to_number(hw[i + 1]));
        if (!c.name.empty() && c.runs >= 1) cols.push_back(std::move(c));
        name_start = i + 4;
        i += 3;
      }
    }
    if (cols.size() < 2) {
      ++li;
      continue;
    }
    const int header_line = lines[li].number;
    const Machine m = machine_of(lines, region_start, li);
    // The words after the header, each with its line.
    std::vector<Word> w;
    std::size_t lj = li + 1;
    for (; lj < lines.size() && lj < li + 64; ++lj)
      for (std::string& x : words(lines[lj].text)) w.push_back({std::move(x), lines[lj].number});
    std::size_t i = 0;
    // A row whose size cannot be read ("128", "l6MB" before "35.7 GB/s"): refused with its line. As
    // the first row it was taken for a sub-header word and dropped without a word; lower down it
    // ended the table there.
    const auto unreadable_row = [&](std::size_t at) {
      if (at + 2 < w.size() && to_number(w[at + 1].w) && (w[at + 2].w == "GB/s" || w[at + 2].w == "GB/sec"))
        fail(o, w[at].line, fmt::format("row '{}': not a size (a number and B, KB, MB, GB: 128MB or 128 MB)", w[at].w));
    };
    // Sub-header words (dashes, "size BW ( pstdev )", "Delta(%)") until the first row.
    while (i < w.size() && !(size_at(w, i) && i + size_at(w, i)->second < w.size() &&
                             to_number(w[i + size_at(w, i)->second].w))) {
      unreadable_row(i);
      if (w[i].line > header_line + 6)
        fail(o, header_line, fmt::format("table header ({} columns) without rows below it", cols.size()));
      ++i;
    }
    if (i >= w.size()) fail(o, header_line, "table header without rows below it");
    const bool perf = starts_with(m.tool, "perf bench mem");
    int last_line = header_line;
    while (i < w.size()) {
      const auto sz = size_at(w, i);
      if (!sz || i + sz->second >= w.size() || !to_number(w[i + sz->second].w)) {
        unreadable_row(i);
        break;
      }
      const int row_line = w[i].line;
      const std::string size_text = sz->second == 1 ? w[i].w : w[i].w + " " + w[i + 1].w;
      i += sz->second;
      for (const Column& c : cols) {
        auto expect = [&](bool ok, std::string_view what) {
          if (!ok)
            fail(o, i < w.size() ? w[i].line : row_line,
                 fmt::format("row {}: column '{}': expected {}, found '{}'", size_text, c.name, what,
                             i < w.size() ? w[i].w : std::string("end of text")));
        };
        expect(i < w.size() && to_number(w[i].w).has_value(), "a bandwidth");
        const double bw = *to_number(w[i].w);
        ++i;
        expect(i < w.size() && (w[i].w == "GB/s" || w[i].w == "GB/sec"), "GB/s");
        const std::string unit = w[i].w;
        ++i;
        // "( +- 2.58% )" as perf prints it, or typed by hand with the words run together: "(+-2.58%)",
        // "( +-2.58%)": the words up to the one that closes the parenthesis, read as one.
        expect(i < w.size() && !w[i].w.empty() && w[i].w.front() == '(', "'( +- spread )'");
        std::string joined;
        for (const std::size_t first = i; i < w.size() && i - first < 4;) {
          joined += w[i++].w;
          if (joined.back() == ')') break;
        }
        auto spread_fail = [&] {
          fail(o, row_line, fmt::format("row {}: column '{}': expected '( +- spread )', found '{}'", size_text, c.name,
                                        joined));
        };
        if (joined.size() < 5 || joined.compare(0, 3, "(+-") != 0 || joined.back() != ')') spread_fail();
        std::string sp = joined.substr(3, joined.size() - 4);
        const bool pct = !sp.empty() && sp.back() == '%';
        if (pct) sp.pop_back();
        if (!to_number(sp)) spread_fail();
        const double spread = *to_number(sp);

        Point p = imported_point(o, "lkml-table", row_line);
        p.origin_function = c.name;
        const std::string k = kernel_for(c.name);
        p.kernel = k.empty() ? c.name : k;
        p.host = m.host;
        if (p.cpu_model.empty()) p.cpu_model = m.cpu;
        p.origin_microcode = m.microcode;
        p.origin_turbo = m.turbo.empty() ? "unknown" : m.turbo;
        p.origin_tool = perf ? fmt::format("{} -f {}", m.tool, c.name) : "";
        p.fill = perf && m.tool.find("memset") != std::string::npos ? "perf" : "unknown";
        if (!perf) p.flags.emplace_back(kThreadsAssumedFlag);
        p.size_bytes = sz->first;
        p.reps = c.runs;
        if (perf) set_figure(p, bw, unit + " (perf's GB/sec: GiB/s)", 1073741824.0 / 1e9);
        else set_figure(p, bw, unit, 1.0);
        p.origin_spread = spread;
        p.origin_spread_unit = pct ? "percent" : "as-reported";
        if (pct) p.gbps_pstdev_pct = spread;
        if (rebuilt) p.flags.push_back("line breaks rebuilt from the e-mail quote markers (the archive had joined the lines)");
        out.push_back(std::move(p));
      }
      if (i < w.size() && is_delta(w[i].w)) ++i;
      last_line = w[i - 1].line;
    }
    // Continue after the table's last row.
    while (li < lines.size() && lines[li].number <= last_line) ++li;
    region_start = li;
  }
  return out;
}

}  // namespace bwlab::import
