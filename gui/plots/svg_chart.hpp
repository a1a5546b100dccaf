// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include "core/report/record.hpp"

namespace bwlab::gui {

// Draws `points` (one scenario's rows) the way the GUI and `bwlab plot` do (PlotPanel:
// GB/s against size, log2, or against threads, min..max bars, the same palette) and returns
// the plot as a standalone SVG document of width x height pixels. Needs a QApplication
// (OffscreenApp for headless callers). Throws std::runtime_error when Qt cannot paint.
std::string render_svg_chart(const std::vector<Point>& points, bool against_size, const std::string& scenario,
                             int width = 900, int height = 540);

}  // namespace bwlab::gui
