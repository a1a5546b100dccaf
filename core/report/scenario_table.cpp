// SPDX-License-Identifier: MIT
#include "core/report/plural.hpp"
#include "core/report/point_flags.hpp"
#include "core/report/scenario_table.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/report/table.hpp"
#include "core/report/terminal.hpp"

namespace bwlab {
namespace {

using Row = std::vector<std::string>;

// Right-aligned columns, two spaces apart; the first `left` columns left-aligned.
std::vector<std::string> column_lines(const std::vector<Row>& rows, std::size_t left) {
  std::vector<std::size_t> width;
  for (const Row& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], r[i].size());
    }
  std::vector<std::string> lines;
  for (const Row& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (i) line += "  ";
      const std::string pad(width[i] - r[i].size(), ' ');
      line += i < left ? r[i] + pad : pad + r[i];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

// The wide rows (one per point of `pts`, after the header) each ending with the point's mark, or
// on a terminal too narrow for them (wants_compact) the compact rows: fewer columns, one line per
// point, its mark (row_mark: `!` flagged unsteady, `*` notes only) last. Files and pipes got no
// mark at all, where a scaling table's rows have them.
// `optional`: compact columns (by header) left out, in this order, while the compact rows are still
// wider than the terminal (three-digit k and GB/s, a fill column: 83 to 93 columns at 80); a line
// under the table names them.
void print_fitted(std::ostream& out, const TerminalStyle& st, std::span<const Point> pts, std::vector<Row> wide,
                  std::size_t left, std::vector<Row> compact, std::size_t compact_left,
                  const std::vector<std::string>& optional = {}) {
  wide.front().emplace_back();
  for (std::size_t i = 0; i < pts.size() && i + 1 < wide.size(); ++i) wide[i + 1].emplace_back(row_mark(pts[i]));
  const auto longest = [](const std::vector<std::string>& lines) {
    std::size_t n = 0;
    for (const std::string& l : lines) n = std::max(n, l.size());
    return n;
  };
  std::vector<std::string> lines = column_lines(wide, left);
  std::vector<std::string> dropped;
  if (wants_compact(st, longest(lines))) {
    lines = column_lines(compact, compact_left);
    for (const std::string& name : optional) {
      if (st.width == 0 || longest(lines) <= st.width) break;
      const auto at = std::find(compact.front().begin(), compact.front().end(), name);
      if (at == compact.front().end()) continue;
      const auto column = at - compact.front().begin();
      for (Row& r : compact)
        if (column < static_cast<std::ptrdiff_t>(r.size())) r.erase(r.begin() + column);
      dropped.push_back(name);
      lines = column_lines(compact, compact_left);
    }
  }
  for (const std::string& l : lines) out << l << '\n';
  if (!dropped.empty())
    out << wrap_text(fmt::format("(left out for the terminal's width: {}; a wider terminal, a pipe or --csv shows {})",
                                 fmt::join(dropped, ", "), dropped.size() == 1 ? "it" : "them"),
                     st.width);
}

// Whether `field` differs between the points (then a compact table keeps its column).
bool varies(std::span<const Point> pts, const auto& field) {
  return std::any_of(pts.begin(), pts.end(), [&](const Point& p) { return field(p) != field(pts.front()); });
}

// A point of one repetition has no spread: "1 rep", as the scaling table says, not "0.0%".
std::string pct(const Point& p, double pstdev) {
  if (p.reps == 1) return "1 rep";
  return std::isfinite(pstdev) ? fmt::format("{:.1f}%", pstdev) : std::string("-");
}
std::string flag_mark(const Point& p) { return std::string(row_mark(p)); }

std::string num(double v, int decimals = 2) {
  return std::isfinite(v) ? fmt::format("{:.{}f}", v, decimals) : std::string("-");
}
std::string with_spread(const Point& p, double v, double pstdev, int decimals = 2) {
  if (!std::isfinite(v)) return "-";
  if (p.reps == 1) return fmt::format("{:.{}f} (1 rep)", v, decimals);
  return std::isfinite(pstdev) ? fmt::format("{:.{}f} (+-{:5.1f}%)", v, decimals, pstdev) : num(v, decimals);
}

bool all_simulated(std::span<const Point> points) {
  return std::all_of(points.begin(), points.end(), [](const Point& p) { return p.source == "simulated"; });
}

// A prediction's GB/s and the model's band: "92.20 [80.17..106.03]".
std::string band_cell(const Point& p) {
  return fmt::format("{} [{}..{}]", num(p.gbps_median), num(p.gbps_min), num(p.gbps_max));
}

std::string setup(std::span<const Point> pts) {
  const Point& p = pts.front();
  const std::string huge = p.pages == "thp" ? huge_pages_note(pts) : std::string();
  return fmt::format("placement {}, membind {}, pages {}{}", p.placement, p.membind, p.pages,  // named, as the other headers
                     huge.empty() ? "" : " " + huge);
}

void footnotes(std::ostream& out, std::span<const Point> points, const TerminalStyle& st, const auto& label) {
  for (const Point& p : points)
    for (const std::string& f : p.flags) print_flag_line(out, st, std::string(footnote_mark(p, f)) + label(p) + ": " + f);
}

// The wide rows of each scenario (header first, one row per point): what the tables print for
// files and pipes, and what scenario_rows hands the HTML report.
std::vector<Row> victim_rows(std::span<const Point> pts) {
  // Predictions carry the model's band [low..high] where measurements carry their spread.
  const bool simulated = all_simulated(pts);
  std::vector<Row> rows{{"victim", "aggressor", "size", "fill", "k",
                         simulated ? "victim GB/s [low..high]" : "victim GB/s (+- pstdev)", "slowdown",
                         "aggressors GB/s"}};
  for (const Point& p : pts)
    rows.push_back({p.kernel, p.peer_kernel, format_bytes(p.size_bytes), p.fill, fmt::format("{}", p.peer_threads),
                    simulated ? band_cell(p) : with_spread(p, p.gbps_median, p.gbps_pstdev_pct),
                    std::isfinite(p.slowdown_pct) ? plain_pct(p.slowdown_pct) : "-",
                    p.peer_threads > 0 ? num(p.peer_gbps_median) : "-"});
  return rows;
}

std::vector<Row> mix_rows(std::span<const Point> pts) {
  const bool simulated = all_simulated(pts);
  std::vector<Row> rows{{"kernel", "size", "fill", "threads",
                         simulated ? "GB/s total [low..high]" : "GB/s total (+- pstdev)", "GB/s median thread",
                         "fairness", "others", "others GB/s"}};
  for (const Point& p : pts)
    rows.push_back({p.kernel, format_bytes(p.size_bytes), p.fill, fmt::format("{}", p.threads),
                    simulated ? band_cell(p) : with_spread(p, p.gbps_median, p.gbps_pstdev_pct), num(p.gbps_per_thread_median),
                    num(p.thread_fairness), p.peer_kernel.empty() ? "-" : p.peer_kernel,
                    num(p.peer_gbps_median)});
  return rows;
}

std::vector<Row> pagefault_rows(std::span<const Point> pts) {
  std::vector<Row> rows{{"pages", "region", "threads", "GB/s made ready (+- pstdev)", "faults/s", "faults/rep",
                         "pages touched/rep", "huge %"}};
  for (const Point& p : pts)
    rows.push_back({p.pages, format_bytes(p.size_bytes), fmt::format("{}", p.threads),
                    with_spread(p, p.gbps_median, p.gbps_pstdev_pct), num(p.faults_per_s, 0), num(p.faults_median, 0),
                    num(p.pages_touched_median, 0), num(p.huge_pct, 0)});
  return rows;
}

// A reader size column leads when the points hold several sizes (each size's rows repeat the same
// k and E: 16 rows of two sizes could not be told apart).
std::vector<Row> tlbflush_rows(std::span<const Point> pts) {
  const bool sizes = varies(pts, [](const Point& p) { return p.size_bytes; });
  std::vector<Row> rows{{"k readers", "E", "munmap ns/call (+- pstdev)", "calls/rep", "reader ns/read (+- pstdev)",
                         "alone ns", "cost ns"}};
  if (sizes) rows.front().insert(rows.front().begin(), "size");
  for (const Point& p : pts) {
    const double cost = p.reader_ns_median - p.reader_alone_ns;
    rows.push_back({fmt::format("{}", p.peer_threads), fmt::format("{}", p.entries),
                    with_spread(p, p.munmap_ns_median, p.munmap_ns_pstdev_pct, 0), num(p.munmap_calls_median, 0),
                    with_spread(p, p.reader_ns_median, p.reader_ns_pstdev_pct), num(p.reader_alone_ns),
                    std::isfinite(cost) ? fmt::format("{:+.2f}", cost) : "-"});
    if (sizes) rows.back().insert(rows.back().begin(), format_bytes(p.size_bytes));
  }
  return rows;
}

void print_victim(std::ostream& out, std::span<const Point> pts, const TerminalStyle& st) {
  out << wrap_text(fmt::format(
      "bwlab victim: {}, {}, GB = 1e9 bytes, {}. One victim thread runs the victim kernel while k aggressor "
      "threads run the aggressor kernel; the victim alone (k = 0) is {}; slowdown = how much below alone the "
      "victim ran; aggressors GB/s = the k aggressors' sum, {}.",
      pts.front().source, legend_window(pts), setup(pts),
      all_simulated(pts) ? "predicted by the same model" : "measured in the same run, interleaved",
      // Their figure has no column of spread: said, so a bare 47.59 does not read as exact.
      all_simulated(pts) ? "predicted" : "median over the same windows (their spread is not kept)"), st.width);
  const ScenarioRows wide = scenario_rows(pts);
  const std::vector<Row>& rows = wide.rows;
  const bool fills = varies(pts, [](const Point& p) { return p.fill; });
  const bool simulated = all_simulated(pts);
  std::vector<Row> compact{
      {"victim", "aggressor", "size", "k", "GB/s", simulated ? "low..high" : "+-pstdev", "slowdown", "aggressors GB/s", ""}};
  if (fills) compact.front().insert(compact.front().begin() + 3, "fill");
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Point& p = pts[i];
    Row r{p.kernel, p.peer_kernel, format_bytes(p.size_bytes), rows[i + 1][4], num(p.gbps_median),
          simulated ? fmt::format("{}..{}", num(p.gbps_min), num(p.gbps_max)) : pct(p, p.gbps_pstdev_pct),
          rows[i + 1][6], rows[i + 1][7], flag_mark(p)};
    if (fills) r.insert(r.begin() + 3, p.fill);
    compact.push_back(std::move(r));
  }
  print_fitted(out, st, pts, rows, wide.left, compact, wide.left, {"aggressors GB/s", simulated ? "low..high" : "+-pstdev"});
  out << wrap_text("(slowdown: % below the victim's GB/s alone, k = 0; negative = faster than alone)", st.width);
  // A run of one thread has only the baseline: its rows, one per aggressor kernel, are the same
  // victim alone (the warning said so on stderr, which -q and a file left out).
  if (std::none_of(pts.begin(), pts.end(), [](const Point& p) { return p.peer_threads > 0; }))
    out << wrap_text("(no aggressor ran: every row is the victim alone, k = 0; run with --threads 1..max to add "
                     "aggressors)",
                     st.width);
  // The same flag on the same victim, size and fill is one line naming its points (a simulated
  // matrix's "95% of RFO reads evaded" would print once per k and aggressor).
  struct Note {
    const Point* first;
    std::string flag;
    std::vector<const Point*> at;
  };
  std::vector<Note> notes;
  for (const Point& p : pts)
    for (const std::string& flag : p.flags) {
      auto same = std::find_if(notes.begin(), notes.end(), [&](const Note& n) {
        return n.flag == flag && n.first->kernel == p.kernel && n.first->size_bytes == p.size_bytes &&
               n.first->fill == p.fill;
      });
      if (same == notes.end()) notes.push_back({&p, flag, {&p}});
      else same->at.push_back(&p);
    }
  for (const Note& n : notes) {
    const Point& p = *n.first;
    // The fill, where the points hold several (two fills' notes read as one note said twice).
    const std::string fill = fills ? " " + p.fill : std::string();
    std::string label =
        fmt::format("victim {} {}{} k={} {}", p.kernel, format_bytes(p.size_bytes), fill, p.peer_threads, p.peer_kernel);
    if (n.at.size() > 1) {
      std::vector<int> ks;
      std::vector<std::string> aggressors;
      for (const Point* q : n.at) {
        if (std::find(ks.begin(), ks.end(), q->peer_threads) == ks.end()) ks.push_back(q->peer_threads);
        if (std::find(aggressors.begin(), aggressors.end(), q->peer_kernel) == aggressors.end())
          aggressors.push_back(q->peer_kernel);
      }
      std::sort(ks.begin(), ks.end());
      // Up to four counts are listed (k = 0..25 read as every count between when only 0 and 25 were).
      const std::string at = ks.size() <= 4 ? fmt::format("k = {}", fmt::join(ks, ", "))
                                            : fmt::format("k = {}..{}, {} counts", ks.front(), ks.back(), ks.size());
      label = fmt::format("victim {} {}{}, {} points ({}, beside {})", p.kernel, format_bytes(p.size_bytes), fill,
                          n.at.size(), at, fmt::join(aggressors, ", "));
    }
    print_flag_line(out, st, std::string(footnote_mark(p, n.flag)) + label + ": " + n.flag);
  }
}

void print_mix(std::ostream& out, std::span<const Point> pts, const TerminalStyle& st) {
  out << wrap_text(fmt::format(
      "bwlab mix: {}, {}, GB = 1e9 bytes, {}. All kernels of the mix run at once{}; per kernel: "
      "the sum of its threads' GB/s and the median thread; fairness = slowest / fastest thread (1 = fair); "
      "others GB/s = the other kernels' sum{}.",
      pts.front().source, legend_window(pts), setup(pts), all_simulated(pts) ? "" : " in every window",
      // A prediction has no windows and no spread to point at.
      all_simulated(pts) ? " (each has its own row)" : " in the same windows (each has its own row, with its spread)"),
      st.width);
  const ScenarioRows wide = scenario_rows(pts);
  const std::vector<Row>& rows = wide.rows;
  const bool fills = varies(pts, [](const Point& p) { return p.fill; });
  const bool simulated = all_simulated(pts);
  // "others GB/s" as the legend names it (the compact table had dropped it; the others' names are
  // in the wide table only).
  std::vector<Row> compact{
      {"kernel", "size", "thr", "GB/s", simulated ? "low..high" : "+-pstdev", "median thr", "fairness", "others GB/s", ""}};
  if (fills) compact.front().insert(compact.front().begin() + 2, "fill");
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Point& p = pts[i];
    Row r{p.kernel, rows[i + 1][1], rows[i + 1][3], num(p.gbps_median),
          simulated ? fmt::format("{}..{}", num(p.gbps_min), num(p.gbps_max)) : pct(p, p.gbps_pstdev_pct), rows[i + 1][5],
          rows[i + 1][6], rows[i + 1][8], flag_mark(p)};
    if (fills) r.insert(r.begin() + 2, p.fill);
    compact.push_back(std::move(r));
  }
  print_fitted(out, st, pts, rows, wide.left, compact, wide.left, {"others GB/s", "fairness", simulated ? "low..high" : "+-pstdev"});
  footnotes(out, pts, st, [&](const Point& p) {
    return fmt::format("mix {} {}{}", p.kernel, format_bytes(p.size_bytes), fills ? " " + p.fill : std::string());
  });
}

void print_pagefault(std::ostream& out, std::span<const Point> pts, const TerminalStyle& st) {
  out << wrap_text(fmt::format(
      "bwlab pagefault: {}, {}, placement {}, membind {}. Each thread maps fresh anonymous memory, writes one byte per page "
      "(4 KiB for 4k and thp, the huge page for hugetlb) so the kernel clears the page in its fault handler, and "
      "unmaps. GB/s = bytes made ready / time spent touching (mmap and munmap not timed), GB = 1e9 bytes, sum over "
      "threads; faults = the kernel's count (getrusage minflt); huge % = share of the first region found in huge "
      "pages (smaps).",
      pts.front().source, legend_window(pts), pts.front().placement, pts.front().membind), st.width);
  const ScenarioRows wide = scenario_rows(pts);
  const std::vector<Row>& rows = wide.rows;
  std::vector<Row> compact{{"pages", "region", "thr", "GB/s", "+-pstdev", "faults/s", "huge %", ""}};
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Point& p = pts[i];
    compact.push_back({p.pages, rows[i + 1][1], rows[i + 1][2], num(p.gbps_median), pct(p, p.gbps_pstdev_pct),
                       rows[i + 1][4], rows[i + 1][7], flag_mark(p)});
  }
  print_fitted(out, st, pts, rows, wide.left, compact, wide.left);
  footnotes(out, pts, st, [](const Point& p) {
    return fmt::format("pagefault {} {} {}T", p.pages, format_bytes(p.size_bytes), p.threads);
  });
}

void print_tlbflush(std::ostream& out, std::span<const Point> pts, const TerminalStyle& st) {
  const bool sizes = varies(pts, [](const Point& p) { return p.size_bytes; });
  std::vector<std::string> size_names;
  for (const Point& p : pts)
    if (std::find(size_names.begin(), size_names.end(), format_bytes(p.size_bytes)) == size_names.end())
      size_names.push_back(format_bytes(p.size_bytes));
  out << wrap_text(fmt::format(
      "bwlab tlbflush: {}, {}, placement {}, membind {}. One thread maps E pages of 4 KiB, touches each and munmaps them (munmap timed "
      "alone, ns per call); k reader threads of the same process each read one 8-byte word per 4 KiB page of "
      "their own {}. alone = the same readers with the unmapper idle, same run; cost = reader - alone.",
      pts.front().source, legend_window(pts), pts.front().placement, pts.front().membind,
      !sizes ? fmt::format("{} (ns per read)", size_names.front())
             : fmt::format("buffer (the row's size: {} or {}; ns per read)",
                           fmt::join(size_names.begin(), size_names.end() - 1, ", "), size_names.back())),
      st.width);
  const ScenarioRows wide = scenario_rows(pts);
  const std::vector<Row>& rows = wide.rows;
  std::vector<Row> compact{{"k", "E", "munmap ns", "+-", "reader ns", "+-", "alone ns", "cost ns", ""}};
  if (sizes) compact.front().insert(compact.front().begin(), "size");
  const std::size_t at = sizes ? 1 : 0;  // the wide row's k column, after its size column if any
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Point& p = pts[i];
    const Row& w = rows[i + 1];
    compact.push_back({w[at], w[at + 1], num(p.munmap_ns_median, 0), pct(p, p.munmap_ns_pstdev_pct),
                       num(p.reader_ns_median), std::isfinite(p.reader_ns_median) ? pct(p, p.reader_ns_pstdev_pct) : "-",
                       w[at + 5], w[at + 6], flag_mark(p)});
    if (sizes) compact.back().insert(compact.back().begin(), w[0]);
  }
  print_fitted(out, st, pts, rows, wide.left, compact, wide.left);
  footnotes(out, pts, st, [&](const Point& p) {
    return sizes ? fmt::format("tlbflush {} k={} E={}", format_bytes(p.size_bytes), p.peer_threads, p.entries)
                 : fmt::format("tlbflush k={} E={}", p.peer_threads, p.entries);
  });
}

}  // namespace

void print_scenario_tables(std::ostream& out, std::span<const Point> points, const TerminalStyle& style) {
  if (points.empty()) {
    out << "bwlab: no points\n";
    return;
  }
  std::vector<std::string> order;
  for (const Point& p : points)
    if (std::find(order.begin(), order.end(), p.scenario) == order.end()) order.push_back(p.scenario);
  bool first = true;
  for (const std::string& s : order) {
    std::vector<Point> group;
    for (const Point& p : points)
      if (p.scenario == s) group.push_back(p);
    if (!first) out << '\n';
    first = false;
    if (s == "victim") print_victim(out, group, style);
    else if (s == "mix") print_mix(out, group, style);
    else if (s == "pagefault") print_pagefault(out, group, style);
    else if (s == "tlbflush") print_tlbflush(out, group, style);
    else {
      print_table(out, group, style);
      print_fill_comparison(out, group);
    }
  }
}

ScenarioRows scenario_rows(std::span<const Point> points) {
  if (points.empty()) return {};
  const std::string& s = points.front().scenario;
  if (s == "victim") return {victim_rows(points), 2};
  if (s == "mix") return {mix_rows(points), 1};
  if (s == "pagefault") return {pagefault_rows(points), 1};
  if (s == "tlbflush") return {tlbflush_rows(points), 0};
  return {};
}

std::string reps_and_spread(const Point& p) {
  return p.reps == 1 ? std::string("1 rep, no spread")
                     : fmt::format("median of {}, +- {:.1f}%", count_of(p.reps, "rep"), p.gbps_pstdev_pct);
}

std::string point_summary(const Point& p) {
  const std::string size = size_label(p.size_bytes);  // the table's label: a progress line said "4KiB" for 4097B
  const std::string of = reps_and_spread(p);
  if (p.scenario == "victim")
    return fmt::format("victim {} {} {} with {} x {}: {:.2f} GB/s ({}), {:.1f}% {} than alone", p.kernel, size,
                       p.fill, p.peer_threads, p.peer_kernel, p.gbps_median, of, std::fabs(p.slowdown_pct),
                       p.slowdown_pct < 0 ? "faster" : "slower");
  if (p.scenario == "mix")  // a mix of one kernel has no others ("others  nan GB/s" was printed)
    return fmt::format("mix {} x{} {} {}: {:.2f} GB/s total ({}){}", p.kernel, p.threads, size, p.fill, p.gbps_median,
                       of,
                       p.peer_kernel.empty() || !std::isfinite(p.peer_gbps_median)
                           ? std::string(", no other kernel")
                           : fmt::format(", others {} {:.2f} GB/s", p.peer_kernel, p.peer_gbps_median));
  if (p.scenario == "pagefault")
    return fmt::format("pagefault {} {} {}T: {:.2f} GB/s made ready, {:.0f} faults/s ({})",
                       p.pages, size, p.threads, p.gbps_median, p.faults_per_s, of);
  if (p.scenario == "tlbflush")
    return fmt::format("tlbflush k={} E={}: munmap {:.0f} ns/call, readers {} ns/read (alone {})", p.peer_threads,
                       p.entries, p.munmap_ns_median, num(p.reader_ns_median), num(p.reader_alone_ns));
  return fmt::format("{} {} {}T {}: {:.2f} GB/s aggregate ({})", p.kernel, size, p.threads, p.fill, p.gbps_median,
                     of);
}

}  // namespace bwlab
