// SPDX-License-Identifier: MIT
#pragma once
#include <QObject>

class QWidget;

namespace bwlab::gui {

// Spin boxes and combo boxes that are not focused let the mouse wheel scroll the panel instead
// of changing their value: guard_wheel(root) gives every one under root Qt::StrongFocus (a click
// or Tab focuses it, the wheel does not) and filters its wheel events.
class WheelGuard : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;
  bool eventFilter(QObject* watched, QEvent* event) override;
};

void guard_wheel(QWidget* root);

}  // namespace bwlab::gui
