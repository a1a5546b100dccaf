// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace bwlab {

struct ChartPoint {
  double x = 0, y = 0;
  double y_lo = 0, y_hi = 0;  // error bar (e.g. min..max over repetitions); equal to y for none
};
struct ChartSeries {
  std::string name;
  std::vector<ChartPoint> points;  // drawn in x order
};
struct Chart {
  std::string title, x_label, y_label;
  bool log2_x = false;    // x on a log2 axis
  bool x_is_bytes = false;  // tick labels as byte sizes (4MiB) instead of numbers
  std::vector<ChartSeries> series;
};

// Escapes & < > " ' for XML/HTML text and attribute values.
std::string xml_escape(std::string_view text);

// A standalone SVG document (with xmlns, no external resources): labelled axes with ticks,
// one line with markers and min..max error bars per series, and a legend. Every text escaped.
std::string render_svg(const Chart& chart);

}  // namespace bwlab
