// SPDX-License-Identifier: MIT
#include "gui/app/elided_combo.hpp"

#include <QHelpEvent>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QToolTip>

namespace bwlab::gui {

ElidedComboBox::ElidedComboBox(int least_chars, QWidget* parent) : QComboBox(parent) {
  setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  setMinimumContentsLength(least_chars);
}

QString ElidedComboBox::shown_text() const {
  QStyleOptionComboBox opt;
  initStyleOption(&opt);
  const QRect field = style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
  return fontMetrics().elidedText(currentText(), Qt::ElideMiddle, field.width());
}

void ElidedComboBox::paintEvent(QPaintEvent*) {
  QStylePainter painter(this);
  QStyleOptionComboBox opt;
  initStyleOption(&opt);
  painter.drawComplexControl(QStyle::CC_ComboBox, opt);
  opt.currentText = shown_text();
  painter.drawControl(QStyle::CE_ComboBoxLabel, opt);
}

bool ElidedComboBox::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip && currentIndex() >= 0) {
    const QString own = itemData(currentIndex(), Qt::ToolTipRole).toString();
    QToolTip::showText(static_cast<QHelpEvent*>(e)->globalPos(), own.isEmpty() ? currentText() : own, this);
    return true;
  }
  return QComboBox::event(e);
}

}  // namespace bwlab::gui
