// SPDX-License-Identifier: MIT
#pragma once
#include <QComboBox>

namespace bwlab::gui {

// A combo box that shows its current text elided in the middle when the box is narrower than it
// ("zen4-guest-mea…2026-12-01.csv"): QComboBox clips it at the right edge, mid-word and without a
// mark ("zen4-guest-measurement-run-on-tl"), which dropped the part that told runs apart. Its
// size hint is that of `least_chars` characters, so two such boxes in a row share the row; the
// list it opens shows every item whole, and the tooltip the current one.
class ElidedComboBox : public QComboBox {
 public:
  explicit ElidedComboBox(int least_chars = 16, QWidget* parent = nullptr);
  QString shown_text() const;  // the current text as drawn (elided when the box is too narrow)
  // The size hint holds the longest item whole, the minimum stays `least_chars`: a box alone in a
  // bar is as wide as its items where there is room and elides them where there is not (the heat
  // map's "aggressor avx512-nt, 256 MiB, fi" was clipped at 1024 px with larger text).
  void set_hint_holds_items(bool on);
  // Where a too-long text is cut: the middle by default (file names: their dates at the end tell
  // runs apart); the right for items whose start says most ("avx512-nt, 1 GiB, fill zero ...").
  void set_elide_mode(Qt::TextElideMode mode);
  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* e) override;
  bool event(QEvent* e) override;  // a tooltip: the current item's own, else its whole text

 private:
  bool hint_holds_items_ = false;
  Qt::TextElideMode elide_ = Qt::ElideMiddle;
};

}  // namespace bwlab::gui
