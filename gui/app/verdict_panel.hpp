// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include <QWidget>

#include "core/insight/verdict.hpp"
#include "gui/plots/series.hpp"

class QLabel;
class QTextEdit;

namespace bwlab::gui {

// The text of `bwlab verdict` (core's compute_verdicts + print_verdicts) for each run given, one
// section per run (two runs of the same host would otherwise be ambiguous to core), in the
// control panel's words (form_wording). Runs without a write-allocate and an NT kernel at >= 2
// sizes are named with the reason. No Qt.
std::string verdict_text(const std::vector<Dataset>& runs);
// The same text and, per run and pair, its call in one line ("vm: stosb vs avx512-nt: NT slow",
// "... (predicted)"): the Recommendation lines sat below the fold of the pane, under the preamble
// and the per-thread tables.
struct VerdictView {
  std::string text;
  std::vector<std::string> calls;
};
VerdictView verdict_view(const std::vector<Dataset>& runs);
// This host's name and last-level caches as the verdict judges calls by them (a measured call of
// this host from cached clears only says so), read once: the Runs tab and the demo story alike.
const VerdictOptions& verdict_options_here();

// A line of a column table in that text (the per-thread rows and their header): after its
// "[prediction]" tag and its indent it holds a run of two spaces, which no sentence does.
bool verdict_table_row(const std::string& line);

// The Runs tab's verdict pane: crossover and recommendation for the visible (checked) runs. Its
// sentences wrap to the pane's width (a recommendation ran 900 characters past the edge of a
// 1280x800 window); the per-thread tables keep their columns and scroll sideways.
// verdict_table_row tells the two apart.
class VerdictPanel : public QWidget {
  Q_OBJECT
 public:
  explicit VerdictPanel(QWidget* parent = nullptr);
  void set_runs(const std::vector<Dataset>& visible);
  QString text() const;
  QString calls() const;  // the one-line calls above the text

 protected:
  void changeEvent(QEvent* e) override;

 private:
  void follow_font();  // the fixed-width font at the panel's (the application's) size
  QTextEdit* text_;
  QLabel* calls_;
};

}  // namespace bwlab::gui
