// SPDX-License-Identifier: MIT
#include "core/insight/html_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/report/table.hpp"

namespace bwlab {

namespace {

constexpr std::size_t kMaxCharts = 24;

using Context = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string>;

std::string context_label(const Context& c) {
  const auto& [source, scenario, fill, placement, membind, pages] = c;
  return fmt::format("{}, {}, fill {}, {} {} {}", source, scenario, fill, placement, membind, pages);
}

std::string row(std::string_view key, std::string_view value) {
  return fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", xml_escape(key), xml_escape(value));
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

std::vector<ReportChartSpec> report_chart_specs(std::span<const Point> points) {
  std::map<Context, std::vector<const Point*>> groups;
  std::vector<Context> order;
  for (const Point& p : points) {
    if (p.scenario == "tlbflush") continue;  // ns per call and per read, not GB/s
    const Context c{p.source, p.scenario, p.fill, p.placement, p.membind, p.pages};
    if (!groups.count(c)) order.push_back(c);
    groups[c].push_back(&p);
  }
  std::vector<ReportChartSpec> charts;
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
    if (sizes.size() >= 2)
      for (int t : threads)
        spec(fmt::format("GB/s against size, {} thread{} ({})", t, t == 1 ? "" : "s", context_label(c)), true,
             [t](const Point& p) { return p.threads == t; });
    if (threads.size() >= 2) {
      std::set<std::uint64_t> chosen{*sizes.begin(), *sizes.rbegin()};
      for (std::uint64_t size : chosen)
        spec(fmt::format("GB/s against threads, {} per thread ({})", format_bytes(size), context_label(c)), false,
             [size](const Point& p) { return p.size_bytes == size; });
    }
  }
  if (charts.size() > kMaxCharts) charts.resize(kMaxCharts);
  return charts;
}

std::string render_html_report(const RunInfo& run, std::span<const Point> points, std::string_view source_name,
                               std::string_view verdict_text, std::span<const RenderedChart> charts) {
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  h += fmt::format("<title>bwlab report: {}</title>\n", xml_escape(run.host));
  h += "<style>body{font-family:sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse}"
       "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left}td.n{text-align:right}"
       "pre{background:#f6f6f6;padding:1em;white-space:pre-wrap}img{display:block;margin:1em 0;max-width:100%;height:auto}</style>\n";
  h += "</head>\n<body>\n";
  h += fmt::format("<h1>bwlab report: {}</h1>\n", xml_escape(run.host));
  h += fmt::format("<p>From {}. {} point{}; figures are {}: GB = 1e9 bytes, aggregate over threads (sum of per-thread "
                   "rates), median of the repetitions with min..max and population stdev.</p>\n",
                   xml_escape(source_name), points.size(), points.size() == 1 ? "" : "s",
                   points.empty() ? "none" : xml_escape(points.front().source));
  h += "<h2>Run</h2>\n<table>\n";
  h += row("bwlab version", run.bwlab_version);
  h += row("date (UTC)", run.date);
  h += row("command line", run.command_line);
  h += row("host", run.host);
  h += row("CPU", fmt::format("{} {} (family {} model {} stepping {})", run.cpu_vendor, run.cpu_model_name,
                              run.cpu_family, run.cpu_model, run.cpu_stepping));
  h += row("microcode", run.microcode.empty() ? "unknown" : run.microcode);
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
  h += "<h2>Plots</h2>\n<p>Median GB/s per point; the vertical bars span min..max over the repetitions.</p>\n";
  if (charts.empty()) h += "<p>Nothing to plot: every context has one size and one thread count.</p>\n";
  for (const RenderedChart& c : charts)
    h += fmt::format("<h3>{}</h3>\n<img alt=\"{}\" src=\"data:image/svg+xml;base64,{}\"/>\n", xml_escape(c.title),
                     xml_escape(c.title), base64_encode(c.svg));
  h += "<h2>Points</h2>\n<table>\n<tr><th>source</th><th>scenario</th><th>kernel</th><th>traffic</th><th>fill</th>"
       "<th>threads</th><th>size per thread</th><th>reps</th><th>GB/s median</th><th>min</th><th>max</th>"
       "<th>pstdev %</th><th>flags</th></tr>\n";
  for (const Point& p : points)
    h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td>"
                     "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.2f}</td><td class=\"n\">{:.2f}"
                     "</td><td class=\"n\">{:.2f}</td><td class=\"n\">{:.1f}</td><td>{}</td></tr>\n",
                     xml_escape(p.source), xml_escape(p.scenario), xml_escape(p.kernel), xml_escape(p.traffic_class),
                     xml_escape(p.fill), p.threads, xml_escape(format_bytes(p.size_bytes)), p.reps, p.gbps_median,
                     p.gbps_min, p.gbps_max, p.gbps_pstdev_pct, xml_escape(fmt::format("{}", fmt::join(p.flags, "; "))));
  h += "</table>\n</body>\n</html>\n";
  return h;
}

}  // namespace bwlab
