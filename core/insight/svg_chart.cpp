// SPDX-License-Identifier: MIT
#include "core/insight/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/report/table.hpp"

namespace bwlab {

namespace {

constexpr double kWidth = 720, kHeight = 400;
constexpr double kLeft = 70, kRight = 170, kTop = 40, kBottom = 60;
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

double nice_step(double range, int target_ticks) {
  const double raw = range / target_ticks;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

std::string number(double v) { return fmt::format("{:g}", v); }

}  // namespace

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

std::string render_svg(const Chart& chart) {
  auto fx = [&](double x) { return chart.log2_x ? std::log2(std::max(x, 1e-300)) : x; };
  double x_min = INFINITY, x_max = -INFINITY, y_max = 0;
  std::set<double> xs;
  for (const ChartSeries& s : chart.series)
    for (const ChartPoint& p : s.points) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      x_min = std::min(x_min, fx(p.x));
      x_max = std::max(x_max, fx(p.x));
      y_max = std::max({y_max, p.y, std::isfinite(p.y_hi) ? p.y_hi : 0.0});
      xs.insert(p.x);
    }
  if (xs.empty()) x_min = 0, x_max = 1;
  if (x_max == x_min) x_min -= 1, x_max += 1;
  if (y_max <= 0) y_max = 1;
  const double step = nice_step(y_max, 5);
  const double y_top = std::ceil(y_max * 1.05 / step) * step;
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double x) { return kLeft + (fx(x) - x_min) / (x_max - x_min) * plot_w; };
  auto py = [&](double y) { return kTop + plot_h - y / y_top * plot_h; };

  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      kWidth, kHeight);
  s += fmt::format("<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n", kLeft + plot_w / 2,
                   xml_escape(chart.title));
  // Axes and grid.
  s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>\n", kLeft, kTop, kTop + plot_h);
  s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"black\"/>\n", kLeft, kTop + plot_h,
                   kLeft + plot_w);
  for (double y = 0; y <= y_top + step / 2; y += step) {
    s += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#dddddd\"/>\n", kLeft, py(y),
                     kLeft + plot_w, py(y));
    s += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6, py(y) + 4, number(y));
  }
  // X ticks at the measured x values, thinned to at most 10 labels.
  const std::vector<double> xv(xs.begin(), xs.end());
  const std::size_t every = xv.size() <= 10 ? 1 : (xv.size() + 9) / 10;
  for (std::size_t i = 0; i < xv.size(); i += every) {
    const std::string label = chart.x_is_bytes ? format_bytes(static_cast<std::uint64_t>(xv[i])) : number(xv[i]);
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"black\"/>\n", px(xv[i]),
                     kTop + plot_h, kTop + plot_h + 5);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", px(xv[i]), kTop + plot_h + 19,
                     xml_escape(label));
  }
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", kLeft + plot_w / 2, kHeight - 14,
                   xml_escape(chart.x_label));
  s += fmt::format("<text x=\"16\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {0})\">{1}</text>\n",
                   kTop + plot_h / 2, xml_escape(chart.y_label));
  // Series.
  for (std::size_t si = 0; si < chart.series.size(); ++si) {
    const ChartSeries& series = chart.series[si];
    const char* color = kColors[si % std::size(kColors)];
    std::vector<ChartPoint> pts;
    for (const ChartPoint& p : series.points)
      if (std::isfinite(p.x) && std::isfinite(p.y)) pts.push_back(p);
    std::sort(pts.begin(), pts.end(), [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
    std::string poly;
    for (const ChartPoint& p : pts) poly += fmt::format("{:.1f},{:.1f} ", px(p.x), py(p.y));
    if (pts.size() > 1)
      s += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", color, poly);
    for (const ChartPoint& p : pts) {
      if (std::isfinite(p.y_lo) && std::isfinite(p.y_hi) && p.y_hi > p.y_lo)
        s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>\n", px(p.x),
                         py(p.y_lo), py(p.y_hi), color);
      s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n", px(p.x), py(p.y), color);
    }
    const double ly = kTop + 10 + static_cast<double>(si) * 18;
    s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"2\"/>\n",
                     kLeft + plot_w + 12, ly, kLeft + plot_w + 32, color);
    s += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", kLeft + plot_w + 38, ly + 4, xml_escape(series.name));
  }
  s += "</svg>\n";
  return s;
}

}  // namespace bwlab
