// SPDX-License-Identifier: MIT
#include "gui/app/wheel_guard.hpp"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace bwlab::gui {

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::Wheel) return false;
  auto* w = qobject_cast<QWidget*>(watched);
  if (!w || w->hasFocus()) return false;
  // Not focused: the widget keeps its value; the parents (the scroll area) get the wheel.
  event->ignore();
  if (QWidget* parent = w->parentWidget()) QApplication::sendEvent(parent, event);
  return true;
}

void guard_wheel(QWidget* root) {
  auto* guard = new WheelGuard(root);
  const auto add = [&](QWidget* w) {
    w->setFocusPolicy(Qt::StrongFocus);
    w->installEventFilter(guard);
  };
  for (auto* w : root->findChildren<QAbstractSpinBox*>()) add(w);
  for (auto* w : root->findChildren<QComboBox*>()) add(w);
}

}  // namespace bwlab::gui
