// SPDX-License-Identifier: MIT
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/insight/svg_chart.hpp"
#include "core/report/record.hpp"

namespace bwlab {

std::string base64_encode(std::string_view bytes);

// The charts of a run: per context (source, scenario, fill, placement, membind, pages) GB/s
// vs size per kernel (one chart per thread count, when >= 2 sizes) and GB/s vs threads per
// kernel (at the smallest and the largest size, when >= 2 thread counts). At most 24.
std::vector<Chart> report_charts(std::span<const Point> points);

// One self-contained HTML page (no external resources; well-formed, every tag closed): the
// run's metadata and warnings, the verdict text (`verdict_text`, preformatted), the charts as
// <img> elements whose src is an SVG data: URI (base64), and every point in a table. All text
// from the run and the points is escaped.
std::string render_html_report(const RunInfo& run, std::span<const Point> points, std::string_view source_name,
                               std::string_view verdict_text);

}  // namespace bwlab
