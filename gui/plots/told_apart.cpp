// SPDX-License-Identifier: MIT
#include "gui/plots/told_apart.hpp"

#include <algorithm>

namespace bwlab::gui {

QString told_apart(const QString& name, const QStringList& names) {
  qsizetype shared = 0;
  bool self = false;
  for (const QString& other : names) {
    if (other == name && !self) {
      self = true;
      continue;
    }
    qsizetype n = 0;
    while (n < name.size() && n < other.size() && name[n] == other[n]) ++n;
    shared = std::max(shared, n);
  }
  if (shared < 12 || shared >= name.size()) return name;
  const auto separator = [&](qsizetype i) { return QString("-_. ").contains(name[i]); };
  qsizetype from = shared;
  while (from > 0 && !separator(from - 1)) --from;
  qsizetype head = 0;
  while (head < from && head < 10 && !separator(head)) ++head;
  if (head == 0 || from <= head + 1) return name;
  return name.left(head) + QChar(u'…') + name.mid(from);
}

}  // namespace bwlab::gui
