// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include <QWidget>

#include "gui/plots/series.hpp"

class QPlainTextEdit;

namespace bwlab::gui {

// The text of `bwlab verdict` (core's compute_verdicts + print_verdicts) for each run given, one
// section per run (two runs of the same host would otherwise be ambiguous to core), in the
// control panel's words (form_wording). Runs without a write-allocate and an NT kernel at >= 2
// sizes are named with the reason. No Qt.
std::string verdict_text(const std::vector<Dataset>& runs);

// The Runs tab's verdict pane: crossover and recommendation for the visible (checked) runs.
class VerdictPanel : public QWidget {
  Q_OBJECT
 public:
  explicit VerdictPanel(QWidget* parent = nullptr);
  void set_runs(const std::vector<Dataset>& visible);
  QString text() const;

 private:
  QPlainTextEdit* text_;
};

}  // namespace bwlab::gui
