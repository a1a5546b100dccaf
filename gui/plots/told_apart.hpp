// SPDX-License-Identifier: MIT
#pragma once
#include <QString>
#include <QStringList>

namespace bwlab::gui {

// `name` shortened so that names beginning alike stay told apart where a box or a legend cuts
// them: where it shares its first 12 characters or more with another of `names`, its first word,
// "…", and the rest from the word where they part ("measured…after-the-kernel-upgrade.csv" for
// measured-on-the-zen4-guest-after-the-kernel-upgrade.csv beside ...-before-...); else `name`.
// `names` may hold `name` itself (once).
QString told_apart(const QString& name, const QStringList& names);

}  // namespace bwlab::gui
