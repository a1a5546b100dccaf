// SPDX-License-Identifier: MIT
#pragma once

// The range of the window's text scale (View > Larger text, --text-scale): one place for the GUI
// and its command line. No Qt here.
namespace bwlab::gui::text_scale {

constexpr double kMin = 0.8;   // below it the 10 pt axes become hard to read
constexpr double kMax = 2.0;   // a 1280x800 projector still holds the window at 1.5
constexpr double kStep = 1.15; // one Ctrl++ press

}  // namespace bwlab::gui::text_scale
