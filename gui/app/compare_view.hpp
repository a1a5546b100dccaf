// SPDX-License-Identifier: MIT
#pragma once
#include <optional>
#include <vector>

#include <QWidget>

#include "core/insight/compare.hpp"
#include "gui/app/session.hpp"

class QComboBox;
class QLabel;
class QScrollArea;
class QTableWidget;

namespace bwlab::gui {

// Two kept runs compared point by point as NEW / BASE ratios, matched and judged by core's
// compare_points (the rule of `bwlab compare`: same point key, min..max ranges must not overlap).
class CompareView : public QWidget {
  Q_OBJECT
 public:
  explicit CompareView(QWidget* parent = nullptr);
  void set_runs(const std::vector<KeptRun>& runs);  // the choices; keeps the chosen names when present
  void choose(int base, int now);                    // indexes into the runs
  const std::optional<Comparison>& comparison() const { return comparison_; }
  QTableWidget* table() const { return table_; }
  QString summary() const;

 protected:
  void resizeEvent(QResizeEvent* e) override;
  void changeEvent(QEvent* e) override;

 private:
  void recompute();
  void set_summary(const QString& text);
  void fit_summary();  // the summary's height: its text, at most kSummaryLines lines (then it scrolls)

  std::vector<KeptRun> runs_;
  QComboBox* base_;
  QComboBox* now_;
  QTableWidget* table_;
  QLabel* summary_;
  QScrollArea* summary_area_;
  std::optional<Comparison> comparison_;
};

}  // namespace bwlab::gui
