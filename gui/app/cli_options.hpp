// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

// bwlab-gui's command line, parsed before any QApplication exists (so --help, --version and bad
// options need no display). No Qt here.
namespace bwlab::gui {

struct GuiOptions {
  std::vector<std::string> files;  // CSV/JSON opened as runs
  std::string session;             // a session file (--session)
  std::string view;                // threads|size|heatmap|topology|table|runs, empty = as last time
  std::string screenshot;          // render off-screen to this PNG and exit
  int width = 1400, height = 860;  // --size WxH
  bool demo = false;               // --demo: Help > Open demo at start
  double text_scale = 0;           // --text-scale: View > Larger text at start (0: as last time)
};

// The views --view accepts, in tab order.
const std::vector<std::string>& gui_views();

enum class ParseOutcome { run, exit_ok, exit_usage };
struct ParsedCommandLine {
  GuiOptions options;
  ParseOutcome outcome = ParseOutcome::run;
  std::string text;  // exit_ok: what to print on stdout (--help, --version); exit_usage: the one-line error
};

// Parses argv (argv[0] is the program). Never exits, never touches Qt.
ParsedCommandLine parse_gui_command_line(int argc, const char* const* argv);

}  // namespace bwlab::gui
