// SPDX-License-Identifier: MIT
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/report/record.hpp"

namespace bwlab {

std::string base64_encode(std::string_view bytes);

// Escapes & < > " ' for XML/HTML text and attribute values.
std::string xml_escape(std::string_view text);

// One chart of the report, before drawing: which points, against what. Core draws nothing
// (it knows no Qt): headless renders each spec with the GUI's plot (gui/plots) and hands the
// SVG back to render_html_report, so the report, `bwlab plot` and the GUI share one style.
struct ReportChartSpec {
  std::string title;      // "GB/s against size, 2 threads (measured, scaling, fill zero, compact local 4k)"
  bool against_size = false;  // x: bytes per thread (log2); else threads
  std::string scenario;   // the points' scenario (scaling, victim, mix, pagefault)
  std::vector<Point> points;
};

// The charts of a run: per context (source, scenario, fill, placement, membind, pages; tlbflush,
// which has no GB/s, is left out) GB/s against size per kernel (one chart per thread count,
// when >= 2 sizes) and GB/s against threads per kernel (at the smallest and the largest size,
// when >= 2 thread counts), the charts against threads first. Against size: at most 6 thread
// counts per context (the fewest, powers of two, the most, thinned evenly). At most 24 in all.
// `left_out`, when given, receives one line per chart family not drawn (said in the report).
std::vector<ReportChartSpec> report_chart_specs(std::span<const Point> points,
                                                std::vector<std::string>* left_out = nullptr);

// Why report_chart_specs drew no chart: "tlbflush points hold ns per call and per read, not
// GB/s" when every point is a tlbflush one, else "no context has two sizes or two thread counts".
std::string no_chart_reason(std::span<const Point> points);

// A chart drawn: its title and a standalone SVG document.
struct RenderedChart {
  std::string title;
  std::string svg;
};

// One self-contained HTML page (no external resources; well-formed, every tag closed): the
// run's metadata and warnings, the verdict text (`verdict_text`, preformatted), the charts as
// <img> elements whose src is an SVG data: URI (base64), and every point in a table. All text
// from the run and the points is escaped.
std::string render_html_report(const RunInfo& run, std::span<const Point> points, std::string_view source_name,
                               std::string_view verdict_text, std::span<const RenderedChart> charts,
                               std::span<const std::string> charts_left_out = {});

}  // namespace bwlab
