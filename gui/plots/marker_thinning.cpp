// SPDX-License-Identifier: MIT
#include "gui/plots/marker_thinning.hpp"

#include <QLineF>

namespace bwlab::gui {

std::vector<int> thinned_markers(const QVector<QPointF>& px, double min_px) {
  std::vector<int> keep;
  const int n = static_cast<int>(px.size());
  if (n == 0) return keep;
  auto far = [&](int a, int b) { return QLineF(px[a], px[b]).length() >= min_px; };
  keep.push_back(0);
  for (int i = 1; i + 1 < n; ++i)
    if (far(keep.back(), i) && far(i, n - 1)) keep.push_back(i);
  if (n > 1) keep.push_back(n - 1);
  return keep;
}

}  // namespace bwlab::gui
