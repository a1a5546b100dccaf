// SPDX-License-Identifier: MIT
#include "gui/app/tab_labels.hpp"

#include <QEvent>
#include <QTabBar>
#include <QTabWidget>

namespace bwlab::gui {

TabLabelFitter::TabLabelFitter(QTabWidget* tabs, QStringList short_labels)
    : QObject(tabs), tabs_(tabs), short_(std::move(short_labels)) {
  for (int i = 0; i < tabs_->count(); ++i) whole_ << tabs_->tabText(i);
  while (short_.size() < whole_.size()) short_ << whole_[short_.size()];
  tabs_->installEventFilter(this);
  fit();
}

bool TabLabelFitter::eventFilter(QObject* watched, QEvent* event) {
  if (watched == tabs_ && (event->type() == QEvent::Resize || event->type() == QEvent::FontChange ||
                           event->type() == QEvent::Show))
    fit();
  return QObject::eventFilter(watched, event);
}

void TabLabelFitter::fit() {
  QTabBar* bar = tabs_->tabBar();
  const QFontMetrics fm(bar->font());
  // A tab is its text plus the style's padding, measured on the tab as it is laid out now (not
  // yet laid out: at the next resize or show).
  int whole = 0;
  for (int i = 0; i < tabs_->count() && i < whole_.size(); ++i) {
    const QRect tab = bar->tabRect(i);
    if (tab.isEmpty()) return;
    whole += tab.width() - fm.horizontalAdvance(tabs_->tabText(i)) + fm.horizontalAdvance(whole_[i]);
  }
  const bool cut = whole > tabs_->width() - 8;  // the bar starts a few pixels in; a tab flush with the edge scrolls
  if (cut == shortened_ && tabs_->count() > 0 && tabs_->tabText(0) == (cut ? short_[0] : whole_[0])) return;
  shortened_ = cut;
  for (int i = 0; i < tabs_->count() && i < whole_.size(); ++i) {
    tabs_->setTabText(i, cut ? short_[i] : whole_[i]);
    tabs_->setTabToolTip(i, cut && short_[i] != whole_[i] ? whole_[i] : QString());
  }
}

}  // namespace bwlab::gui
