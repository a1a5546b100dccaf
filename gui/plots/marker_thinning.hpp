// SPDX-License-Identifier: MIT
#pragma once
#include <vector>

#include <QPointF>
#include <QVector>

namespace bwlab::gui {

// Which of a curve's markers to draw, given their pixel positions in drawing order: the first, the
// last, and between them each one at least `min_px` from the last one kept (and from the last
// point). A 1..104-thread curve on a log2 axis put 40 markers in the last 100 pixels, a solid smear
// that hid the curves beneath; the line still passes through every point and hovering any point
// still gives its figures. Indices into `px`, ascending.
std::vector<int> thinned_markers(const QVector<QPointF>& px, double min_px);

}  // namespace bwlab::gui
