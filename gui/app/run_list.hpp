// SPDX-License-Identifier: MIT
#pragma once
#include <vector>

#include <QWidget>

#include "gui/app/session.hpp"

class QListWidget;
class QPushButton;

namespace bwlab::gui {

// Every run the window keeps (measured, simulated, opened), one checkbox each: checked = drawn
// in the plots, the table and the verdict. Runs go only by Remove (the selected one). A row
// longer than the list has its name elided in the middle, its tag whole; its tooltip holds the full name.
class RunList : public QWidget {
  Q_OBJECT
 public:
  explicit RunList(QWidget* parent = nullptr);

  void set_runs(const std::vector<KeptRun>& runs);  // rebuilds the items (no signals)
  QListWidget* list() const { return list_; }
  int count() const;
  // A row's text as drawn at the list's width: the name elided in its middle, the tag
  // ("[file, simulated, 864 points]") whole.
  QString shown_text(int row) const;
  // Whether that text, laid out in the row's font as the style lays it out (fractional widths),
  // fits the room the style gives it: else the style elides it again, in its middle.
  bool shown_text_fits(int row) const;
  // How many more pixels the list needs to show every row whole (0: none is elided).
  int width_short() const;
  bool checked(int row) const;
  void set_checked(int row, bool on);  // as a click on the box would (emits checkedChanged)

 signals:
  void checkedChanged(int row, bool checked);
  void removeRequested(int row);

 private:
  QListWidget* list_;
  QPushButton* remove_;
  bool filling_ = false;
};

}  // namespace bwlab::gui
