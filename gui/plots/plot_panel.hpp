// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <QString>
#include <QWidget>

#include "gui/plots/series.hpp"

class QCustomPlot;
class QIODevice;

namespace bwlab::gui {

// One plot (QCustomPlot inside; this is the only place that includes qcustomplot.h):
// GB/s against threads or size, or the victim heat map. Used live by the GUI and offscreen
// by `bwlab plot`. Setting data rebuilds the plot and queues one replot.
class PlotPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PlotPanel(PlotKind kind, QWidget* parent = nullptr);
  ~PlotPanel() override;

  PlotKind kind() const { return kind_; }
  void set_per_thread(bool per_thread);  // threads/size plots: per-thread median instead of aggregate
  bool per_thread() const { return per_thread_; }
  // The LLC size to mark on the size plot (0: none) and where it comes from ("this machine").
  void set_llc(std::uint64_t bytes, const QString& origin);
  void set_datasets(const std::vector<Dataset>& datasets);
  // Threads/size plots: which scenario's rows to draw (see build_series); "scaling" by default.
  void set_scenario(const std::string& scenario);
  const std::string& scenario() const { return scenario_; }
  QString title() const;
  void set_heat_cells(const std::vector<HeatCell>& cells, const QString& subtitle);

  // What is drawn, for tests and the status bar.
  int curve_count() const;
  int data_point_count() const;
  QStringList legend_labels() const;
  // The exact figures of the point under `pixel` (within 12 px), or empty.
  QString details_at(QPoint pixel) const;
  // Where point `index` of curve `curve` is drawn (after replot_now()), in widget pixels.
  QPoint pixel_of(int curve, int index) const;
  void replot_now();

  // Writes the plot as PNG, PDF or SVG (by suffix) at width x height pixels.
  // Returns false and sets *error when the file cannot be written.
  bool save(const QString& path, int width, int height, QString* error) const;
  // Writes the plot as an SVG document to `device` (open for writing); false when Qt cannot paint.
  bool write_svg(QIODevice* device, int width, int height) const;

 private:
  void rebuild();
  void show_empty(const QString& message);
  void set_title(const QString& title, const QString& subtitle);
  void on_mouse_move(QPoint pos);

  PlotKind kind_;
  QCustomPlot* plot_;
  bool per_thread_ = false;
  std::string scenario_ = "scaling";
  std::uint64_t llc_bytes_ = 0;
  QString llc_origin_;
  std::vector<Dataset> datasets_;
  std::vector<Series> series_;
  std::vector<HeatCell> cells_;
  QString heat_subtitle_;
  int data_points_ = 0;
};

}  // namespace bwlab::gui
