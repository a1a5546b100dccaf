// SPDX-License-Identifier: MIT
#include "gui/app/hint_table_view.hpp"

#include <QPainter>

namespace bwlab::gui {

void HintTableView::set_empty_hint(const QString& hint) {
  if (hint == hint_) return;
  hint_ = hint;
  viewport()->update();
}

QString HintTableView::shown_hint() const {
  return model() != nullptr && model()->rowCount() == 0 ? hint_ : QString();
}

void HintTableView::paintEvent(QPaintEvent* event) {
  QTableView::paintEvent(event);
  const QString hint = shown_hint();
  if (hint.isEmpty()) return;
  QPainter p(viewport());
  p.setPen(palette().color(QPalette::PlaceholderText));
  p.drawText(viewport()->rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, hint);
}

}  // namespace bwlab::gui
