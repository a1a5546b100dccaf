// SPDX-License-Identifier: MIT
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "gui/plots/series.hpp"

// The GUI's kept runs and view as one JSON file (File > Save session / Open session,
// bwlab-gui --session). The points are embedded (core's JSON point format), never a path to
// another file, so a session opens on any machine. No Qt.
namespace bwlab::gui {

// One run the window keeps: measured, simulated or opened from a file. checked = drawn.
struct KeptRun {
  Dataset data;
  std::string origin;  // "measured", "simulated", "file", "demo"
  bool checked = true;
};

struct Session {
  std::vector<KeptRun> runs;
  std::string view = "threads";   // one of gui_views()
  std::string rows = "scaling";   // which scenario's rows the GB/s plots draw
  bool per_thread = false;        // per-thread GB/s instead of the aggregate
  bool log_y = false;             // GB/s on a log10 axis
  // The Size / Threads box of each GB/s plot: the one size (bytes) the threads plot draws, the one
  // thread count the size plot draws; empty: every curve.
  std::optional<double> threads_plot_size;
  std::optional<double> size_plot_threads;
};

std::string session_to_json(const Session& s);
// Throws InputError naming what is wrong (not a session, unknown version, bad points).
Session session_from_json(const std::string& text);

void save_session(const std::string& path, const Session& s);  // atomically; throws on I/O errors
Session load_session(const std::string& path);                  // throws InputError naming the file

}  // namespace bwlab::gui
