// SPDX-License-Identifier: MIT
#pragma once
#include <QObject>
#include <QStringList>

class QTabWidget;

namespace bwlab::gui {

// Gives a QTabWidget's tabs short labels ("Threads", "Size", "Heat map") when their whole labels
// ("GB/s vs threads", "GB/s vs size", "Victim heat map") do not fit its width, and the whole ones
// back when they do: at 1024x768 with 1.5x text, "Table" was cut and "Runs" hidden behind the
// tab bar's scroll arrows. A tab whose label is short has its whole label as its tooltip. It
// refits on a resize and on a font change (View > Larger text). Tabs must be added first.
class TabLabelFitter : public QObject {
 public:
  // One short label per tab, in tab order.
  TabLabelFitter(QTabWidget* tabs, QStringList short_labels);
  bool shortened() const { return shortened_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void fit();
  QTabWidget* tabs_;
  QStringList whole_, short_;
  bool shortened_ = false;
};

}  // namespace bwlab::gui
