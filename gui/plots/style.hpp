// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <utility>
#include <vector>

// bwlab's one visual language, as plain data (no Qt): every plot (the GUI, `bwlab plot`, the HTML
// report's SVG charts through PlotPanel) takes its colours and line styles from here.
//  colour         = the kernel (fixed per known kernel name, stable across runs and files)
//  marker + dash  = the variant of that kernel (size, thread count, aggressor, file ...)
//  solid / dashed = measured (or imported) / simulated; simulated curves also draw their band
namespace bwlab::gui {

// The fixed colour of every known kernel, "#rrggbb", in a colour-blind-aware palette (Okabe-Ito
// and Paul Tol's muted/bright sets): {"stosb", "#0072b2"}, {"movnti", "#d55e00"}, ...
const std::vector<std::pair<std::string, std::string>>& kernel_palette();

// The colour of a kernel (or any curve key such as "pagefault 2M"): the palette entry for a
// known name, else a deterministic pick (FNV-1a hash of the name) from the fallback colours.
std::string kernel_color_hex(const std::string& kernel);

enum class LineStyle { solid, dashed, dotted, dash_dot };
enum class Marker { circle, square, triangle, diamond, triangle_down, cross, plus, star, plus_circle, none };

// How one curve is drawn.
struct CurveStyle {
  std::string color_hex;   // "#rrggbb" (the kernel's, lightened or darkened for variants)
  LineStyle line = LineStyle::solid;
  Marker marker = Marker::circle;
  bool filled_marker = true;  // measured: filled; simulated: hollow
  bool band = false;          // draw min..max as a translucent band (simulated)
};

// What identifies a curve for styling.
struct CurveKeyForStyle {
  std::string kernel;   // colour
  std::string variant;  // everything else that separates curves of one kernel ("16 MiB", "4T [a.csv]")
  bool simulated = false;
  std::string run;      // the file the curve came from ("a.csv"), empty for a live run
  std::string setup;    // the variant without the run ("16 MiB", "4T"): what a run's curves share with another's
};

// Styles for a set of curves, in the same order. Curves of one kernel share its hue; their
// variants get distinct markers (then dash patterns and shades); a measured curve and its
// simulated twin (same kernel and variant) share colour and marker and differ in solid/dashed.
// Two or three measured runs (files) beside at most one simulated one: a curve's colour and marker
// come from its setup, its line from its run (solid, dotted, dash-dot; simulated dashed), so the
// same size in two files looks alike but for the line, and two sizes never share a colour by chance.
// No two curves with different (kernel, variant, simulated) share colour + line + marker.
std::vector<CurveStyle> assign_styles(const std::vector<CurveKeyForStyle>& curves);

// Heat maps: a diverging colour for a change in percent, centred on a neutral grey-white at 0.
// `pct` > 0 = slower (warm, orange to dark red), < 0 = faster (cool, blue); `span` is the
// magnitude that gets the darkest colour (the scale of one run: the largest |pct| in it).
std::string diverging_color_hex(double pct, double span);

}  // namespace bwlab::gui
