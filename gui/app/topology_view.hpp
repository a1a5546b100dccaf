// SPDX-License-Identifier: MIT
#pragma once
#include <map>

#include <QWidget>

#include "gui/app/topo_tree.hpp"

namespace bwlab::gui {

// Draws a topology as nested boxes (packages, NUMA nodes, LLC groups, cores, PUs). During a
// run each PU is coloured by the GB/s of the thread pinned there; idle PUs stay grey.
class TopologyView : public QWidget {
  Q_OBJECT
 public:
  explicit TopologyView(QWidget* parent = nullptr);
  void set_tree(const TopoNode& tree);
  // GB/s per PU OS index, what they are ("stosb 16 MiB 2T, measured"), and the top of the
  // colour scale (0: the largest value given; a run passes its maximum so far, so colours
  // compare across points).
  void set_pu_values(const std::map<int, double>& gbps, const QString& caption, double scale_max = 0);
  const std::map<int, double>& pu_values() const { return values_; }
  const TopoNode& tree() const { return tree_; }
  QSize sizeHint() const override { return {720, 420}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  TopoNode tree_;
  std::map<int, double> values_;
  QString caption_;
  double scale_max_ = 0;
};

}  // namespace bwlab::gui
