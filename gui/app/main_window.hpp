// SPDX-License-Identifier: MIT
#pragma once
#include <map>
#include <utility>
#include <memory>
#include <optional>
#include <string>
#include <set>
#include <vector>

#include <QMainWindow>
#include <QStringList>
#include <QElapsedTimer>
#include <QTimer>

#include "gui/app/elided_combo.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/model/simulate.hpp"
#include "core/report/record.hpp"
#include "core/topology/topology.hpp"
#include "gui/app/run_controller.hpp"
#include "gui/app/session.hpp"
#include "gui/app/topology_view.hpp"
#include "gui/plots/ceilings.hpp"
#include "gui/plots/series.hpp"
#include "gui/app/hint_table_view.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;
class QPlainTextEdit;
class QProgressBar;
class QSplitter;
class QSortFilterProxyModel;
class QTabWidget;
class QThread;

namespace bwlab::gui {

class CompareView;
class ControlPanel;
class PlotPanel;
class ResultsModel;
class RunList;
class TabLabelFitter;
class VerdictPanel;
class WhatIf;

// The window: control panel and run list, plots, topology, table, runs (verdict and compare) and
// log. Every run is kept (measured, simulated, opened) until the user removes it; checked runs
// are drawn. Runs go through one RunController on a worker thread; finished points are queued
// and drawn by a 25 Hz timer.
class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  ControlPanel* panel() const { return panel_; }
  // The GB/s plots, brought up to date first (a plot on a hidden tab is rebuilt when shown).
  PlotPanel* threads_plot() const { return fresh_plot(threads_plot_); }
  PlotPanel* size_plot() const { return fresh_plot(size_plot_); }
  PlotPanel* heatmap() const { return heatmap_; }
  TopologyView* topology_view() const { return topology_; }
  ResultsModel* results() const { return model_; }
  QPlainTextEdit* log() const { return log_; }
  QTabWidget* tabs() const { return tabs_; }
  RunList* run_list() const { return run_list_; }
  VerdictPanel* verdict_panel() const { return verdict_; }
  CompareView* compare_view() const { return compare_; }
  HintTableView* results_table() const { return table_; }
  // The visible (checked) runs, as drawn.
  const std::vector<Dataset>& datasets() const { return datasets_; }
  // Every kept run, checked or not, in the run list's order.
  const std::vector<KeptRun>& runs() const { return runs_; }
  bool running() const { return running_; }
  // The last error shown in a dialog ("Cannot open x.csv: ..."), for --screenshot's exit line.
  const QString& last_error() const { return last_error_; }
  QString status_text() const;  // the status bar's message
  QComboBox* plot_scenario_box() const { return plot_scenario_; }  // which scenario's rows the GB/s plots show
  // Above the GB/s plots: draw only one buffer size (threads tab, "Size:") or thread count (size
  // tab, "Threads:"), or all; each plot keeps its own choice (PlotPanel::set_only).
  QComboBox* curve_filter_box() const { return curve_filter_; }
  QComboBox* heat_map_box() const { return heat_select_; }         // which victim heat map is shown
  // Milliseconds from Run to the first window reported in the status bar and to the first point
  // drawn (-1: not yet), for the last run.
  qint64 first_window_ms() const { return first_window_ms_; }
  qint64 first_point_ms() const { return first_point_ms_; }

  void start_run();
  void stop_run();
  // Opens CSV/JSON files as overlays. On a malformed file shows an error dialog naming the
  // line (and returns false); the files before it stay open.
  bool open_files(const QStringList& paths);
  bool save_points(const QString& path);  // .csv or .json, every point in the table
  bool export_plot(const QString& path);  // the current plot as .png, .pdf or .svg
  void set_per_thread(bool per_thread);
  void set_log_y(bool log);  // the "log GB/s axis" box: both GB/s plots

  // Keeps a run (its name made unique) and draws it when checked; returns its index.
  int add_run(KeptRun run);
  void set_run_checked(int index, bool checked);
  bool remove_run(int index);  // false (and a message) for the run in progress
  // The view by the names of --view (threads, size, heatmap, topology, table, runs).
  QString view() const;
  bool set_view(const QString& name);
  // Runs plus view state (which view, checked runs, per-thread, rows) as one JSON file.
  Session session() const;
  bool save_session(const QString& path);
  bool open_session(const QString& path);  // adds the session's runs to the kept ones, applies its view
  // Help > Open demo: this machine's measured curves beside a simulated 2-socket server.
  bool open_demo(const QString& results_dir = "results");
  // The machine's ceilings (DRAM peak per node and in total, inter-socket link, LLC and its share
  // per thread) on the GB/s plots, and its topology in the topology view: called with the
  // simulated machine the demo shows (the what-if panel sets its own machine's ceilings).
  void show_machine_ceilings(const MachineParams& machine, const Topology& topology);
  // View > Larger text / Smaller text / Normal text (Ctrl++, Ctrl+-, Ctrl+0) and --text-scale:
  // every text of the window, the plots' included (not the topology drawing: it is scaled to fit
  // its tab, and Ctrl+wheel zooms it), at `scale` x its usual size, clamped to
  // text_scale::kMin..kMax (a lecture room's projector); kept for the next start.
  void set_text_scale(double scale);
  double text_scale() const { return text_scale_; }

 signals:
  void runFinished(bool stopped, const QString& error);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void build_menus();
  void sync_runs();       // run list, table, plots, compare and verdict from runs_
  void rebuild_visible(); // datasets_ from the checked runs_
  std::string unique_name(const std::string& name) const;
  void drain();
  void refresh_plots();
  void refresh_curve_filter();  // the Size/Threads box's choices for the current plot tab
  bool size_tab_shown() const;  // the GB/s vs size tab is the current one (the box then says Threads)
  void refresh_marks();  // the plots' ceilings and marks, for the plotted scenario
  void refresh_heat_map();
  // Gives a GB/s plot the visible runs now, or marks it stale when its tab is hidden: a what-if
  // change with 3 kernels x 256 thread counts makes 768 size-plot curves (about a second to
  // build), which only matters when that tab is shown.
  void update_plot(PlotPanel* plot) const;
  PlotPanel* fresh_plot(PlotPanel* plot) const;
  void show_error(const QString& title, const QString& text);
  void append_log(const QString& line, bool warning = false);
  void on_point_ready(const Point& p);
  void on_finished(bool stopped, const QString& error);
  void shutdown_worker();

  CpuFeatures cpu_;
  WhatIf* whatif_ = nullptr;  // the what-if dock's driver (Run can simulate its machine)
  double text_scale_ = 1;
  ControlPanel* panel_;
  QScrollArea* panel_scroll_;  // holds panel_: as wide as panel_ needs at the text scale (fit_panel_width)
  void fit_panel_width();
  void widen_for_run_names();
  void fit_table_columns();
  int dataset_width_set_ = 0;  // the run/file column's width fit_table_columns last set
  int usual_panel_width_ = 0;  // panel_scroll_'s width at the usual text size
  QSplitter* split_ = nullptr;  // the left column (panel, runs) beside the tabs and the log
  bool split_dragged_ = false;  // the user moved it: widen_for_run_names leaves it
  PlotPanel* threads_plot_;
  PlotPanel* size_plot_;
  PlotPanel* heatmap_;
  TopologyView* topology_;
  ResultsModel* model_;
  QSortFilterProxyModel* proxy_;
  HintTableView* table_;
  QPlainTextEdit* log_;
  QTabWidget* tabs_;
  QCheckBox* per_thread_;
  QCheckBox* log_y_;
  QComboBox* plot_scenario_;
  QComboBox* curve_filter_;
  QLabel* curve_filter_label_;
  // The plots whose Size / Threads box the user (or a session) set: opening a file no longer
  // picks their start (start_readable_plots).
  std::set<const PlotPanel*> filter_chosen_;
  void start_readable_plots();
  ElidedComboBox* heat_select_;
  TabLabelFitter* tab_labels_ = nullptr;  // short tab labels where the whole ones do not fit
  RunList* run_list_;
  VerdictPanel* verdict_;
  CompareView* compare_;
  std::vector<HeatMap> heat_maps_;
  QElapsedTimer run_clock_;
  qint64 first_window_ms_ = -1;
  qint64 first_point_ms_ = -1;
  QProgressBar* progress_;
  QLabel* status_;
  void show_status(const QString& text);  // a message of its own: no left-out labels' tooltip
  QString left_out_message_, status_before_left_out_;  // the plots' labels left out for room (status bar)
  QThread* worker_;
  RunController* controller_;
  QTimer timer_;

  std::vector<KeptRun> runs_;      // every run kept, in the order they came
  std::vector<Dataset> datasets_;  // the checked ones, as drawn
  int run_counter_ = 0;
  QString last_error_;
  std::vector<Point> pending_;     // finished points not yet drawn
  int live_index_ = -1;            // the run in runs_ the running run fills
  bool running_ = false;
  bool dirty_ = false;
  bool simulating_ = false;
  double pu_scale_max_ = 0;
  // The Topology tab as it was when the live run started: shown again if the run gives no point.
  TopologyView::Shown topology_before_run_;
  double pu_scale_max_before_run_ = 0;
  // The demo's or the what-if machine, whose lines go on both GB/s plots (machine_ceilings: the size
  // plot's LLC share line is of the thread count it draws).
  std::optional<MachineParams> ceilings_machine_;
  // Its lines per thread count, made once (machine_ceilings builds an hwloc topology: not on every
  // refresh of a live run, on the GUI thread); emptied when the machine changes (set_ceilings_machine).
  std::map<std::pair<int, std::string>, std::vector<Ceiling>> machine_lines_;  // by threads and placement
  void set_ceilings_machine(const MachineParams& m);
  const std::vector<Ceiling>& machine_lines(int threads);
  // That machine's topology and host ("model:<name>"): its points' PUs mark on the threads plot
  // where socket 2 joins and where SMT siblings start (placement_marks).
  std::shared_ptr<const Topology> marks_topology_;
  std::string marks_host_;
  void set_marks_machine(const MachineParams& machine);
  // The plots' machine lines follow the drawn runs: when no drawn run was simulated on the machine
  // they show, the first drawn run simulated on a known machine (a preset, or the machine its run
  // recorded) brings its ceilings, LLC and socket marks. The Topology tab is left as it is.
  void follow_drawn_machine();
  // The shown machine (its topology tab, ceilings, LLC and socket/SMT marks), without redrawing.
  // Shows the machine an opened file or session run was simulated on (model_machine_of), if known;
  // false when none is. A machine that cannot be shown here (its topology file is elsewhere) is
  // logged, not an error.
  bool show_machine_of(const Dataset& d);
  // A file measured on this computer colours the Topology tab with its last point, as a live run
  // does (opened files left every PU idle); a file of another host leaves it, said in the log.
  // The Topology tab shows this computer titled "This machine (local), not " + `not_what`: for
  // `file`, of another machine, whose topology it does not hold. Files of other machines opened
  // one after another are all named ("not the machines of a.csv and b.csv": it named the last
  // one). A file measured here, shown first, keeps the tab: what the tab showed depended on the
  // order the files were opened in.
  void show_this_machine_not(const std::string& file, const std::string& not_what);
  void show_file_on_topology(const Dataset& d);
  std::vector<std::string> topology_elsewhere_;  // files the tab's "This machine (local), not ..." names
  std::string topology_local_file_;               // the file measured here whose last point the tab shows
  void set_machine(const MachineParams& machine, const Topology& topology);
  mutable std::set<PlotPanel*> stale_plots_;  // GB/s plots whose runs changed while their tab was hidden  // highest per-thread GB/s of the current run, top of the PU colour scale

 signals:
  void startRequested(const bwlab::gui::RunRequest& request);
};

}  // namespace bwlab::gui
