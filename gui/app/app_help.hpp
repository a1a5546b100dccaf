// SPDX-License-Identifier: MIT
#pragma once
#include <QString>

// The Help menu's texts (rich text for message boxes). One place, so the menu, the About box and
// the README say the same.
namespace bwlab::gui {

QString views_help();      // what each view shows
QString shortcuts_help();  // every keyboard shortcut of the window
QString about_text();      // version and what bwlab-gui is

}  // namespace bwlab::gui
