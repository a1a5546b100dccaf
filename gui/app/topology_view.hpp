// SPDX-License-Identifier: MIT
#pragma once
#include <map>
#include <vector>

#include <QFont>
#include <QFontMetrics>
#include <QPointF>
#include <QRectF>
#include <QWidget>

#include "core/report/record.hpp"
#include "gui/app/topo_tree.hpp"

class QToolButton;

namespace bwlab::gui {

// Draws a topology as nested boxes (packages, NUMA nodes, LLC groups, cores, PUs), laid out to
// fill the widget (the grid's column count and the packages' direction are chosen for the
// largest scale, so 256 PUs stay readable). Ctrl+wheel zooms around the cursor, dragging pans,
// the Fit button (or a double click) fits again. During a run each PU is coloured by the GB/s
// of the thread pinned there (idle PUs stay grey); in a victim run the victim's PU gets a red
// frame and "V", the aggressors' an orange frame and "A".
// The points at the end of `points` that ran at once: the trailing parts of one mix (same size and
// fill, distinct kernels), else the last point alone. Empty for no points.
std::vector<Point> last_point_group(const std::vector<Point>& points);
// The most one thread got among `points` (its per-thread median, or a thread's own figure): the top
// of the PU colour scale for a run or a file (a scale set by the last point alone made every PU
// its darkest colour).
double max_thread_gbps(const std::vector<Point>& points, double at_least = 0);
// The kernels a point ran, as the tab's caption and the log name them: "stosb", and for a victim
// point with aggressors "victim avx512-nt + 79 aggressors stosb".
std::string kernels_run(const Point& p);

class TopologyView : public QWidget {
  Q_OBJECT
 public:
  enum class Role { victim, aggressor };

  explicit TopologyView(QWidget* parent = nullptr);
  void set_tree(const TopoNode& tree);  // also clears values and roles, and fits
  // GB/s per PU OS index, what they are ("stosb 16 MiB 2T, measured"), and the top of the
  // colour scale (0: the largest value given; a run passes its maximum so far, so colours
  // compare across points).
  void set_pu_values(const std::map<int, double>& gbps, const QString& caption, double scale_max = 0);
  void set_pu_roles(const std::map<int, Role>& roles);
  // Shows one finished point: the GB/s of each thread's PU (per-thread figures when the point has
  // them), its caption, and the victim/aggressor roles of a victim point (per_thread slot 0, or
  // the first PU, is the victim). Returns the new top of the colour scale (max of scale_max and
  // the point's values).
  // `scale_note` is added to the caption when the scale's top is not the largest value
  // ("scale: up to one thread alone").
  double show_point(const Point& p, double scale_max, const QString& scale_note = {});
  // Shows points that ran at once (the parts of one mix, from last_point_group): every part's
  // PUs are coloured, and framed in their part's colour (green, orange, ...; named in the
  // legend). One point is show_point.
  double show_points(const std::vector<Point>& group, double scale_max, const QString& scale_note = {});
  const std::map<int, int>& pu_parts() const { return parts_; }  // PU -> its mix part (0, 1, ...)
  QString legend_text() const;  // the legend's words, right of the colour scale
  double legend_height() const;  // the legend strip under the drawing: its words fit, wrapped
  const std::map<int, double>& pu_values() const { return values_; }
  double colour_scale_max() const { return scale_max_; }  // the top of the colour scale (0: the largest value)
  const std::map<int, Role>& pu_roles() const { return roles_; }
  const TopoNode& tree() const { return tree_; }
  // What the view shows (tree, colours, roles, parts, caption, scale), to show again later: a run
  // refused before its first point put back what the tab showed (it was left blank).
  struct Shown {
    TopoNode tree;
    std::map<int, double> values;
    std::map<int, Role> roles;
    std::map<int, int> parts;
    QString caption;
    double scale_max = 0;
  };
  Shown shown() const { return {tree_, values_, roles_, parts_, caption_, scale_max_}; }
  void show_again(const Shown& s);
  QSize sizeHint() const override { return {720, 420}; }

  // Zoom: 1 = the whole topology fits. Where PU `os_index` is drawn, in widget pixels (empty when
  // the tree has no such PU), and the font scale of the PU labels (1 = 9 pt), for tests.
  void set_zoom(double zoom);
  double zoom() const { return zoom_; }
  void fit();
  QRectF pu_rect(int os_index) const;
  QRectF machine_rect() const;  // the outer box, whose label is the title, in widget pixels
  QRectF title_rect() const;    // the title's lines (wrapped when long) in that box, in widget pixels
  QString title_text() const;   // the title as drawn: the tree's label, with places a long word may break
  double label_scale() const;
  // The labels of the boxes other than PUs and the machine, as drawn (shortened where narrow), for tests.
  QStringList box_labels() const;

 protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;


 private:
  struct Geometry;
  QFont label_font() const;    // the boxes' labels, unscaled (the drawing is scaled as a whole)
  double title_width() const;  // the machine box's least width for its label, in unscaled drawing units
  struct Layout {
    int cols = 8;               // grid columns of cores (or PUs) inside their container
    bool stack_top = false;     // the machine's children (packages) one above the other
    bool stack_pus = false;     // the PUs of a core one above the other
  };
  Geometry geometry(const Layout& l) const;  // the boxes' sizes and places under a layout
  // A box's label shortened to `level` (0 whole, 1 "Core 10", 2 "#10"), and the level each kind of
  // box needs for every box of it to fit its label (kind -> level).
  static QString short_label(const QString& label, int level);
  std::map<int, int> short_levels(const Geometry& geo, const QFontMetrics& fm) const;
  QRectF drawing_area() const;
  void choose_layout();
  // Scale and top-left of the drawing (fit x zoom, plus pan).
  double scale() const;
  QPointF origin() const;

  TopoNode tree_;
  std::map<int, double> values_;
  std::map<int, Role> roles_;
  std::map<int, int> parts_;  // a mix part's index per PU
  void relayout();  // the legend's height changed with its words: move Fit, choose the layout again
  QString caption_;
  double scale_max_ = 0;
  Layout layout_;
  double fit_scale_ = 1;
  double zoom_ = 1;
  QPointF pan_;
  QPoint drag_from_;
  QToolButton* fit_button_;
};

}  // namespace bwlab::gui
