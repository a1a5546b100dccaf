// SPDX-License-Identifier: MIT
#pragma once
#include <QString>
#include <QTableView>

namespace bwlab::gui {

// A table view that says, over its empty grid, why it is empty and what to do (as the plot tabs
// say "No points yet: press Run, or open a CSV"): column headers over a blank grid said nothing.
class HintTableView : public QTableView {
  Q_OBJECT
 public:
  using QTableView::QTableView;
  void set_empty_hint(const QString& hint);
  // What the empty grid shows: the hint while the model has no rows, else nothing.
  QString shown_hint() const;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QString hint_;
};

}  // namespace bwlab::gui
