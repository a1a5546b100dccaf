// SPDX-License-Identifier: MIT
#include "core/insight/html_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "core/insight/verdict.hpp"
#include "core/report/point_flags.hpp"
#include "core/report/scenario_table.hpp"
#include "core/report/table.hpp"

namespace bwlab {

namespace {

constexpr std::size_t kMaxCharts = 24;
constexpr std::size_t kMaxSizeCharts = 6;  // per context

using Context = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string>;

// "measured, scaling, fill zero, compact local 4k"; what the points leave empty (imported: not
// stated by the source) reads "unknown".
std::string context_label(const Context& c) {
  const auto& [source, scenario, fill, placement, membind, pages] = c;
  const auto known = [](const std::string& s) { return s.empty() ? std::string("unknown") : s; };
  if (placement.empty() && membind.empty() && pages.empty())  // imported: the source states none of the three
    return fmt::format("{}, {}, fill {}, placement, memory and pages not stated", source, scenario, known(fill));
  return fmt::format("{}, {}, fill {}, {} {} {}", source, scenario, known(fill), known(placement), known(membind),
                     known(pages));
}

// A metadata row; an empty value (an imported file states no kernel, THP, glibc...) reads "unknown".
std::string row(std::string_view key, std::string_view value) {
  return fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", xml_escape(key), xml_escape(value.empty() ? "unknown" : value));
}

// The distinct non-empty values of `field` over the points, in order, ", "-joined.
std::string distinct(std::span<const Point> points, std::string Point::*field) {
  std::vector<std::string> seen;
  for (const Point& p : points)
    if (!(p.*field).empty() && std::find(seen.begin(), seen.end(), p.*field) == seen.end()) seen.push_back(p.*field);
  return fmt::format("{}", fmt::join(seen, ", "));
}

// Who the report is about. A measured run names its host; an imported file has none of its own
// (bwlab import measures nothing): then the hosts its points state, and where they were imported from.
std::string host_label(const RunInfo& run, std::span<const Point> points) {
  if (!run.host.empty()) return run.host;
  const std::string hosts = distinct(points, &Point::host);
  const std::string files = distinct(points, &Point::origin_file);
  if (files.empty()) return hosts;  // "unknown" where shown
  return fmt::format("{} (imported from {})", hosts.empty() ? "unnamed host" : hosts, files);
}

// The CPU row: the run's CPUID figures, else (imported, simulated: no CPU was read) the CPU
// model the run or its points state.
std::string cpu_label(const RunInfo& run, std::span<const Point> points) {
  if (!run.cpu_vendor.empty() || run.cpu_family != 0)
    return fmt::format("{} {} (family {} model {} stepping {})", run.cpu_vendor, run.cpu_model_name, run.cpu_family,
                       run.cpu_model, run.cpu_stepping);
  const std::string name = !run.cpu_model_name.empty() ? run.cpu_model_name : distinct(points, &Point::cpu_model);
  return name.empty() ? name : name + " (as stated; family, model and stepping unknown)";
}

// A figure with `decimals`, or "-" where the point has none (NaN: a tlbflush point's GB/s, an
// imported point's range).
std::string figure(double v, int decimals) {
  return std::isfinite(v) ? fmt::format("{:.{}f}", v, decimals) : std::string("-");
}

std::string cell(std::string_view text, bool figure_cell) {
  return fmt::format("<td{}>{}</td>", figure_cell ? " class=\"n\"" : "", xml_escape(text));
}

std::string flags_text(const Point& p) { return fmt::format("{}", fmt::join(p.flags, "; ")); }

// What a point's figure rests on: its repetitions and their timed window (requested, and the bytes
// all threads cleared in the median one). A prediction has none: "model" and "-". The window was
// in the command line only. A pagefault window's bytes were made ready by faults and a tlbflush
// window's were mapped and unmapped, not cleared by a kernel (both said "cleared per window").
std::string window_headers(std::string_view scenario) {
  const char* bytes = scenario == "pagefault"  ? "made ready per window"
                      : scenario == "tlbflush" ? "unmapped per window"
                                               : "cleared per window";
  return fmt::format("<th>reps</th><th>window</th><th>{}</th>", bytes);
}
std::string window_cells(const Point& p) {
  if (is_prediction(p)) return cell("model", true) + cell("-", true) + cell("-", true);
  return cell(fmt::format("{}", p.reps), true) +
         cell(p.duration_ms > 0 ? fmt::format("{:g} ms", p.duration_ms) : std::string("-"), true) +
         cell(p.bytes_median > 0 ? format_bytes(static_cast<std::uint64_t>(p.bytes_median)) : std::string("-"), true);
}

// The min..max header: a prediction's is its model band.
std::string range_headers(std::span<const Point> points, std::string_view prefix) {
  const bool predictions = std::any_of(points.begin(), points.end(), [](const Point& p) { return is_prediction(p); });
  return fmt::format("<th>{0}min{1}</th><th>{0}max{1}</th>", prefix, predictions ? " (simulated: model band)" : "");
}

// Scaling points (and any scenario without columns of its own): one row per point, GB/s with
// min..max and pstdev. A prediction has no repetitions: "model" for reps, its band as min..max
// (the header says so), "-" for pstdev.
std::string scaling_table(std::span<const Point> points) {
  std::string h = "<table>\n<tr><th>source</th><th>scenario</th><th>kernel</th><th>traffic</th><th>fill</th>"
                  "<th>threads</th><th>size per thread</th>" +
                  window_headers(points.empty() ? "" : points.front().scenario) + "<th>GB/s median</th>" + range_headers(points, "") +
                  "<th>pstdev %</th><th>flags</th></tr>\n";
  for (const Point& p : points) {
    h += "<tr>";
    for (const std::string* t : {&p.source, &p.scenario, &p.kernel, &p.traffic_class, &p.fill}) h += cell(*t, false);
    h += cell(fmt::format("{}", p.threads), true) + cell(format_bytes(p.size_bytes), true) + window_cells(p);
    const bool predicted = is_prediction(p);
    for (const std::string& n : {figure(p.gbps_median, 2), figure(p.gbps_min, 2), figure(p.gbps_max, 2),
                                 predicted ? std::string("-") : figure(p.gbps_pstdev_pct, 1)})
      h += cell(n, true);
    h += cell(flags_text(p), false) + "</tr>\n";
  }
  return h + "</table>\n";
}

// The points of one scenario with columns of its own (victim, mix, pagefault, tlbflush): the
// columns of its terminal table (scenario_rows), then reps, the GB/s range where the points have
// GB/s (tlbflush has none) and the flags.
std::string scenario_table(std::span<const Point> points, const ScenarioRows& own) {
  const bool gbps = std::any_of(points.begin(), points.end(), [](const Point& p) { return std::isfinite(p.gbps_median); });
  std::string h = "<table>\n<tr><th>source</th>";
  for (const std::string& c : own.rows.front()) h += fmt::format("<th>{}</th>", xml_escape(c));
  // A prediction's range is its model band, and it has no repetitions (it said "reps 0" beside a
  // "GB/s min" that was the band).
  h += window_headers(points.front().scenario) + (gbps ? range_headers(points, "GB/s ") : std::string()) + "<th>flags</th></tr>\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    h += "<tr>" + cell(p.source, false);
    const auto& cells = own.rows[i + 1];
    for (std::size_t c = 0; c < cells.size(); ++c) h += cell(cells[c], c >= own.left);
    h += window_cells(p);
    if (gbps) h += cell(figure(p.gbps_min, 2), true) + cell(figure(p.gbps_max, 2), true);
    h += cell(flags_text(p), false) + "</tr>\n";
  }
  return h + "</table>\n";
}

// Every point, one table per scenario in the order they first appear (a heading each when
// there are several): each scenario shows its own figures.
std::string points_tables(std::span<const Point> points) {
  std::vector<std::string> order;
  for (const Point& p : points)
    if (std::find(order.begin(), order.end(), p.scenario) == order.end()) order.push_back(p.scenario);
  std::string h;
  for (const std::string& s : order) {
    std::vector<Point> group;
    for (const Point& p : points)
      if (p.scenario == s) group.push_back(p);
    if (order.size() > 1) h += fmt::format("<h3>{}</h3>\n", xml_escape(s));
    const ScenarioRows own = scenario_rows(group);
    h += own.rows.empty() ? scaling_table(group) : scenario_table(group, own);
  }
  return h;
}

// One phrase per source the points hold (measured, simulated, imported), joined by "; "; empty
// when they hold none of these.
struct SourceWords {
  const char* measured;
  const char* simulated;
  const char* imported;
};
std::string by_source(std::span<const Point> points, const SourceWords& w) {
  std::vector<std::string> parts;
  for (const auto& [src, text] : {std::pair{"measured", w.measured}, std::pair{"simulated", w.simulated},
                                  std::pair{"imported", w.imported}})
    if (std::any_of(points.begin(), points.end(), [&](const Point& p) { return p.source == src; }))
      parts.emplace_back(text);
  return fmt::format("{}", fmt::join(parts, "; "));
}

// What a point's median, min and max are, by where the points came from.
std::string what_figures_are(std::span<const Point> points) {
  const std::string s = by_source(
      points, {"measured: median of the repetitions with min..max and population stdev",
               "simulated: the model's prediction with its uncertainty band as min..max (no repetitions)",
               "imported: the figures as the source printed them (one number per point unless the source gave a range)"});
  return s.empty() ? "median of the repetitions with min..max and population stdev" : s;
}

// What a plotted point and its vertical bar are, by the points' sources.
std::string what_bars_are(std::span<const Point> points) {
  std::string text = by_source(
      points, {"measured points: the median GB/s, the vertical bars span min..max over the repetitions",
               "simulated points: the model's prediction, the vertical bars span its uncertainty band",
               "imported points: the figure as the source printed it, a vertical bar only where it gave a range"});
  if (text.empty()) return "Median GB/s per point; the vertical bars span min..max over the repetitions.";
  text.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(text.front())));
  return text + ".";
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8 |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], kAlphabet[v & 63]};
  }
  if (i + 1 == bytes.size()) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], '='};
  }
  return out;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

namespace {

std::vector<int> size_chart_threads(const std::set<int>& threads) {
  if (threads.size() <= kMaxSizeCharts) return {threads.begin(), threads.end()};
  // 1..104 threads gave 24 charts against size (1T, 2T, ... 24T) and none against threads: keep the
  // fewest, the powers of two and the most, thinned evenly to kMaxSizeCharts keeping both ends.
  std::vector<int> keep;
  for (int t : threads)
    if (t == *threads.begin() || t == *threads.rbegin() || (t > 0 && (t & (t - 1)) == 0)) keep.push_back(t);
  if (keep.size() <= kMaxSizeCharts) return keep;
  std::vector<int> thin;
  for (std::size_t i = 0; i < kMaxSizeCharts; ++i)
    thin.push_back(keep[i * (keep.size() - 1) / (kMaxSizeCharts - 1)]);
  return thin;
}

}  // namespace

std::string no_chart_reason(std::span<const Point> points) {
  const bool only_tlbflush =
      !points.empty() && std::all_of(points.begin(), points.end(), [](const Point& p) { return p.scenario == "tlbflush"; });
  return only_tlbflush ? "tlbflush points hold ns per call and per read, not GB/s"
                       : "no context has two sizes or two thread counts";
}

std::vector<ReportChartSpec> report_chart_specs(std::span<const Point> points, std::vector<std::string>* left_out) {
  std::map<Context, std::vector<const Point*>> groups;
  std::vector<Context> order;
  for (const Point& p : points) {
    if (p.scenario == "tlbflush") continue;  // ns per call and per read, not GB/s
    const Context c{p.source, p.scenario, p.fill, p.placement, p.membind, p.pages};
    if (!groups.count(c)) order.push_back(c);
    groups[c].push_back(&p);
  }
  std::vector<ReportChartSpec> charts;
  std::vector<std::string> omitted;
  for (const Context& c : order) {
    const auto& pts = groups[c];
    std::set<int> threads;
    std::set<std::uint64_t> sizes;
    for (const Point* p : pts) {
      threads.insert(p->threads);
      sizes.insert(p->size_bytes);
    }
    auto spec = [&](std::string title, bool against_size, auto keep) {
      ReportChartSpec s{std::move(title), against_size, std::get<1>(c), {}};
      for (const Point* p : pts)
        if (keep(*p)) s.points.push_back(*p);
      charts.push_back(std::move(s));
    };
    // A victim chart's x is the aggressor count k (threads = 1 victim + k) and its GB/s the victim's.
    const bool victim = std::get<1>(c) == "victim";
    const std::string against_threads = victim ? "the victim's GB/s against aggressor threads k" : "GB/s against threads";
    const std::string against_size = victim ? "the victim's GB/s against size" : "GB/s against size";
    // Against threads first: the scaling is what a report is read for.
    if (threads.size() >= 2) {
      std::set<std::uint64_t> chosen{*sizes.begin(), *sizes.rbegin()};
      for (std::uint64_t size : chosen)
        spec(fmt::format("{}, {} per thread ({})", against_threads, format_bytes(size), context_label(c)), false,
             [size](const Point& p) { return p.size_bytes == size; });
      // The sizes between the two drawn, named when few ("at the 1 sizes between ..." read oddly).
      std::vector<std::string> between;
      for (auto it = std::next(sizes.begin()); sizes.size() > 2 && it != std::prev(sizes.end()); ++it)
        between.push_back(format_bytes(*it));
      if (between.size() > 3)
        omitted.push_back(fmt::format("{} at the {} sizes between {} and {} ({})", against_threads, between.size(),
                                      format_bytes(*sizes.begin()), format_bytes(*sizes.rbegin()), context_label(c)));
      else if (!between.empty())
        omitted.push_back(fmt::format("{} at {} ({})", against_threads, fmt::join(between, ", "), context_label(c)));
    }
    if (sizes.size() >= 2) {
      const std::vector<int> drawn = size_chart_threads(threads);
      for (int t : drawn)
        spec(victim ? fmt::format("{}, k = {} ({})", against_size, t - 1, context_label(c))
                    : fmt::format("{}, {} thread{}{} ({})", against_size, t, t == 1 ? "" : "s",
                                  std::all_of(pts.begin(), pts.end(), [](const Point* p) { return threads_assumed(*p); })
                                      ? " (assumed: the source states no thread count)"
                                      : "",
                                  context_label(c)),
             true,
             [t](const Point& p) { return p.threads == t; });
      if (drawn.size() < threads.size()) {
        std::vector<int> shown = drawn;  // a victim chart names aggressor counts k = threads - 1
        if (victim)
          for (int& t : shown) --t;
        omitted.push_back(fmt::format("{} at {} of the {} {} (drawn: {}{}; {})", against_size,
                                      threads.size() - drawn.size(), threads.size(),
                                      victim ? "aggressor counts" : "thread counts", victim ? "k = " : "",
                                      fmt::join(shown, ", "), context_label(c)));
      }
    }
  }
  if (charts.size() > kMaxCharts) {
    omitted.push_back(fmt::format("{} more charts past the first {}", charts.size() - kMaxCharts, kMaxCharts));
    charts.resize(kMaxCharts);
  }
  if (left_out) *left_out = std::move(omitted);
  return charts;
}

std::string render_html_report(const RunInfo& run, std::span<const Point> points, std::string_view source_name,
                               std::string_view verdict_text, std::span<const RenderedChart> charts,
                               std::span<const std::string> charts_left_out) {
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  const std::string host = host_label(run, points);
  h += fmt::format("<title>bwlab report: {}</title>\n", xml_escape(host.empty() ? "unknown host" : host));
  h += "<style>body{font-family:sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse}"
       "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left}td.n{text-align:right}"
       "pre{background:#f6f6f6;padding:1em;white-space:pre-wrap}img{display:block;margin:1em 0;max-width:100%;height:auto}</style>\n";
  h += "</head>\n<body>\n";
  h += fmt::format("<h1>bwlab report: {}{}</h1>\n", xml_escape(host.empty() ? "unknown host" : host),
                   run.partial ? " (partial run)" : "");
  if (run.partial)  // above the fold: the row in the Run table alone was easy to miss
    h += fmt::format("<p><strong>Partial run: {}. Only the finished points are here.</strong></p>\n",
                     xml_escape(run.partial_reason.empty() ? "interrupted" : run.partial_reason));
  std::string meaning = gbps_meaning(points);  // "aggregate over threads", maybe with the victim rows' note
  meaning.insert(std::string("aggregate over threads").size(), " (sum of per-thread rates)");
  const bool tlbflush = std::any_of(points.begin(), points.end(), [](const Point& p) { return p.scenario == "tlbflush"; });
  const bool only_tlbflush =
      tlbflush && std::all_of(points.begin(), points.end(), [](const Point& p) { return p.scenario == "tlbflush"; });
  // A tlbflush run has no GB/s: its preamble said "GB = 1e9 bytes, aggregate over threads" first.
  h += only_tlbflush ? fmt::format("<p>From {}. {} point{}; figures are {}.</p>\n", xml_escape(source_name), points.size(),
                                   points.size() == 1 ? "" : "s", xml_escape(points.front().source))
                     : fmt::format("<p>From {}. {} point{}; figures are {}: GB = 1e9 bytes, {}, {}.</p>\n",
                                   xml_escape(source_name), points.size(), points.size() == 1 ? "" : "s",
                                   points.empty() ? "none" : xml_escape(points.front().source), xml_escape(meaning),
                                   what_figures_are(points));
  if (tlbflush)
    h += "<p>tlbflush points carry no GB/s: their figures are ns per munmap call and per reader access "
         "(median of the repetitions, +- population stdev); alone = the readers with the unmapper idle, same run; "
         "cost = reader - alone.</p>\n";
  h += "<h2>Run</h2>\n<table>\n";
  h += row("bwlab version", run.bwlab_version);
  h += row("date (UTC)", run.date);
  h += row("command line", run.command_line);
  h += row("host", host);
  h += row("CPU", cpu_label(run, points));
  const std::string stated_microcode = distinct(points, &Point::origin_microcode);
  h += row("microcode", !run.microcode.empty() || stated_microcode.empty()
                            ? run.microcode
                            : stated_microcode + " (as stated above the imported table)");
  h += row("CPU features used", fmt::format("{}", fmt::join(run.cpu_flags_used, " ")));
  h += row("kernel", run.kernel_release);
  h += row("THP", run.thp);
  h += row("glibc", run.glibc_version);
  h += row("topology", run.topology);
  h += row("partial", run.partial ? "yes: " + run.partial_reason : "no");
  h += "</table>\n";
  if (!run.warnings.empty()) {
    h += "<h2>Warnings</h2>\n<ul>\n";
    for (const std::string& w : run.warnings) h += fmt::format("<li>{}</li>\n", xml_escape(w));
    h += "</ul>\n";
  }
  h += "<h2>Verdict</h2>\n";
  h += fmt::format("<pre>{}</pre>\n", xml_escape(verdict_text));
  // What a plotted point and its bars are, where something is plotted ("Measured points: the median
  // GB/s ..." stood above "Nothing to plot").
  h += "<h2>Plots</h2>\n";
  if (!charts.empty()) h += fmt::format("<p>{}</p>\n", what_bars_are(points));
  if (charts.empty()) h += fmt::format("<p>Nothing to plot: {}; see the Points table.</p>\n", no_chart_reason(points));
  for (const RenderedChart& c : charts)
    h += fmt::format("<h3>{}</h3>\n<img alt=\"{}\" src=\"data:image/svg+xml;base64,{}\"/>\n", xml_escape(c.title),
                     xml_escape(c.title), base64_encode(c.svg));
  if (!charts_left_out.empty()) {
    h += "<p>Not charted (every point is in the Points table):</p>\n<ul>\n";
    for (const std::string& l : charts_left_out) h += fmt::format("<li>{}</li>\n", xml_escape(l));
    h += "</ul>\n";
  }
  h += "<h2>Points</h2>\n";
  h += points_tables(points);
  h += "</body>\n</html>\n";
  return h;
}

}  // namespace bwlab
