// SPDX-License-Identifier: MIT
#pragma once
#include <string>

namespace bwlab::gui {

// Core words its advice for the CLI ("try --reps 11 or a longer --duration"); the GUI's log and
// dialogs say the same in the control panel's words ("raise Repetitions to 11 or lengthen the
// Window"). Text without CLI options comes back unchanged. No Qt.
std::string form_wording(const std::string& cli_text);

}  // namespace bwlab::gui
