// SPDX-License-Identifier: MIT
#include "gui/plots/svg_chart.hpp"

#include <stdexcept>

#include <QBuffer>

#include "gui/plots/plot_panel.hpp"

namespace bwlab::gui {

std::string render_svg_chart(const std::vector<Point>& points, bool against_size, const std::string& scenario,
                             int width, int height) {
  PlotPanel panel(against_size ? PlotKind::size : PlotKind::threads);
  panel.resize(width, height);
  panel.set_interactive(false);  // a static page: no legend entry to click
  panel.set_scenario(scenario);
  panel.set_datasets({Dataset{"report", points, false}});
  QBuffer buffer;
  buffer.open(QIODevice::WriteOnly);
  if (!panel.write_svg(&buffer, width, height) || buffer.data().isEmpty())
    throw std::runtime_error("cannot draw the report's chart as SVG");
  return buffer.data().toStdString();
}

}  // namespace bwlab::gui
