// SPDX-License-Identifier: MIT
#include "gui/app/elided_combo.hpp"

#include <algorithm>

#include <QAbstractItemModel>
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
  return fontMetrics().elidedText(currentText(), elide_, field.width());
}

void ElidedComboBox::set_hint_holds_items(bool on) {
  hint_holds_items_ = on;
  updateGeometry();
  // QComboBox tells its layout of new items only when it adjusts to its contents.
  if (on)
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
      connect(model(), signal, this, [this] { updateGeometry(); });
}

void ElidedComboBox::set_elide_mode(Qt::TextElideMode mode) {
  elide_ = mode;
  update();
}

QSize ElidedComboBox::sizeHint() const {
  QSize size = QComboBox::sizeHint();  // room for minimumContentsLength() characters
  if (!hint_holds_items_) return size;
  int widest = 0;
  for (int i = 0; i < count(); ++i) widest = std::max(widest, fontMetrics().horizontalAdvance(itemText(i)));
  const int held = fontMetrics().horizontalAdvance(QLatin1Char('x')) * minimumContentsLength();
  if (widest > held) size.rwidth() += widest - held;
  return size;
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
