// SPDX-License-Identifier: MIT
#include "gui/app/main_window.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTimer>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include <fmt/format.h>

#include "core/insight/point_key.hpp"
#include "core/insight/usable_median.hpp"
#include "core/insight/verdict.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/csv.hpp"
#include "core/report/plural.hpp"
#include "core/report/units.hpp"
#include "core/report/json.hpp"
#include "core/report/scenario_table.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/topology/topology.hpp"
#include "core/model/machine.hpp"
#include "core/version.hpp"
#include "gui/app/app_help.hpp"
#include "gui/app/tab_labels.hpp"
#include "gui/app/cli_options.hpp"
#include "gui/app/compare_view.hpp"
#include "gui/app/control_panel.hpp"
#include "gui/plots/plot_marks.hpp"
#include "gui/app/demo.hpp"
#include "gui/app/form_wording.hpp"
#include "gui/app/machine_panel.hpp"
#include "gui/app/whatif.hpp"
#include "gui/app/results_model.hpp"
#include "gui/app/run_list.hpp"
#include "gui/app/topology_view.hpp"
#include "gui/app/text_scale.hpp"
#include "gui/app/verdict_panel.hpp"
#include "gui/app/wheel_guard.hpp"
#include "core/model/simulate.hpp"
#include "core/model/uarch.hpp"
#include "gui/plots/ceilings.hpp"
#include "gui/plots/plot_panel.hpp"
#include "gui/plots/render.hpp"

namespace bwlab::gui {
namespace {

// The empty Table tab's words, as the plot tabs say them.
constexpr const char* kNoPointsHint = "No points yet: press Run, or open a CSV (File > Open)";

// A point as the log names it where the Topology tab shows it: "stosb 16 MiB 1T"; a victim point
// names its aggressors too, as the tab's caption does ("avx512-nt 1 GiB 80T" named the victim's
// kernel alone).
std::string point_words(const Point& p) {
  return kernels_run(p) + " " + size_text(double(p.size_bytes)) + " " + std::to_string(p.threads) + "T";
}

// A file's PUs are coloured on one scale for all its points, the fastest thread of any of them
// (a slow point of a fast file reads pale): the caption says so, as the demo's names its rule.
const QString kFileScaleNote = "scale: up to the fastest thread at any of the file's points";

QString qs(const std::string& s) { return QString::fromStdString(s); }

// A one-line hint that never widens the window nor wraps: a narrow window elides it (the
// tooltip holds it whole). It wrapped to five lines at the window's minimum width, and the tab's
// layout, which does not follow a wrapped label's height, drew it over the plot's top.
class HintLabel : public QLabel {
 public:
  // `forms`: the hint whole, then shorter ways to say it. The longest that fits is shown, or none:
  // elided at its end it read "hover…" at 1.5x text, which tells nothing. The tooltip is whole.
  explicit HintLabel(const QStringList& forms) : forms_(forms) {
    setToolTip(forms.front());
    setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setText(forms.front());
  }

 protected:
  void resizeEvent(QResizeEvent* e) override {
    QLabel::resizeEvent(e);
    fit();
  }
  void changeEvent(QEvent* e) override {  // View > Larger text: the form that fitted may not
    QLabel::changeEvent(e);
    if (e->type() == QEvent::FontChange) fit();
  }

 private:
  void fit() {
    QString shown;
    for (const QString& form : forms_)
      if (fontMetrics().horizontalAdvance(form) <= contentsRect().width()) {
        shown = form;
        break;
      }
    if (shown != text()) setText(shown);
  }

  QStringList forms_;
};

// The control panel's scroll area prefers the panel's full width (its combo boxes showing their
// items) beside its vertical scroll bar; its minimum is the panel's (fit_panel_width). QScrollArea's
// own hint left the panel at its minimum in a 1920 px window ("what-if machine)" cut).
class PanelScroll : public QScrollArea {
 public:
  QSize sizeHint() const override {
    QSize s = QScrollArea::sizeHint();
    if (widget())
      s.setWidth(widget()->sizeHint().width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth());
    return s;
  }
};

QWidget* with_toolbar(QWidget* plot, QWidget* bar) {
  auto* w = new QWidget;
  auto* l = new QVBoxLayout(w);
  l->setContentsMargins(0, 0, 0, 0);
  if (bar) l->addWidget(bar);
  l->addWidget(plot, 1);
  return w;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), cpu_(detect_cpu_features()) {
  register_run_types();
  setWindowTitle("bwlab: memory-bandwidth contention lab");

  panel_ = new ControlPanel(cpu_);
  guard_wheel(panel_);  // the wheel scrolls the panel, not an unfocused spin box under the pointer
  auto* scroll = panel_scroll_ = new PanelScroll;
  scroll->setWidget(panel_);
  scroll->setWidgetResizable(true);
  fit_panel_width();
  run_list_ = new RunList;
  auto* left = new QSplitter(Qt::Vertical);
  left->addWidget(scroll);
  left->addWidget(run_list_);
  left->setStretchFactor(0, 3);
  left->setStretchFactor(1, 1);

  threads_plot_ = new PlotPanel(PlotKind::threads);
  size_plot_ = new PlotPanel(PlotKind::size);
  heatmap_ = new PlotPanel(PlotKind::heatmap);
  heatmap_->set_heat_cells({}, "fills in from victim rows: a victim run, or an opened CSV/JSON that holds some");
  topology_ = new TopologyView;
  // A plot's own minimum follows its legend; the window may still be made small (screenshots,
  // laptops): the plot then shrinks with it, to 340 px high (at 200 px the title, the wrapped
  // subtitle and the legend left the axes ~30 px).
  for (PlotPanel* p : {threads_plot_, size_plot_, heatmap_}) p->setMinimumSize(300, 340);
  model_ = new ResultsModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(ResultsModel::RawValueRole);
  auto* table = table_ = new HintTableView;
  table->set_empty_hint(kNoPointsHint);
  table->setModel(proxy_);
  table->setSortingEnabled(true);
  // Rows in the order they came (run by run, point by point) until a header is clicked: enabling
  // sorting sorted by the run's name, descending, so the demo's 'vm' run came before 'victim'
  // and the server's scaling rows came last.
  table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  table->setAlternatingRowColors(true);
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  // Column widths from the first 100 rows, not all of them: a what-if machine re-simulates 768
  // points per change, and measuring every cell's text is what made that redraw slow.
  table->horizontalHeader()->setResizeContentsPrecision(100);
  table->verticalHeader()->setDefaultSectionSize(22);
  // What a reader looks for first (which kernel, fill, threads and size; measured or simulated; how
  // fast) comes first, then the run: at 1.3x text the GB/s column was off to the right, behind the run's name on every row
  // ("skylake-x-8270cl simulated, 2 sockets"), the source and the scenario. A victim or mix row's
  // scenario and peer (the aggressors' kernel and count, the slowdown) follow its GB/s: they were
  // off-screen, and a victim row read as a scaling row. Only the drawn order moves; the model
  // keeps the CSV's order for sorting and export.
  {
    QHeaderView* h = table->horizontalHeader();
    int to = 0;
    for (const int c : {ResultsModel::Kernel, ResultsModel::Fill, ResultsModel::Threads, ResultsModel::SizeBytes,
                        ResultsModel::Source, ResultsModel::GbpsMedian, ResultsModel::Scenario, ResultsModel::Peer,
                        ResultsModel::PeerThreads, ResultsModel::SlowdownPct, ResultsModel::GbpsMin, ResultsModel::GbpsMax,
                        ResultsModel::PstdevPct, ResultsModel::Dataset})
      h->moveSection(h->visualIndex(c), to++);
    // The run's name is capped (fit_table_columns); the row's tooltip names it whole.
    h->setSectionResizeMode(ResultsModel::Dataset, QHeaderView::Interactive);
  }

  per_thread_ = new QCheckBox("per thread");
  per_thread_->setToolTip("per-thread GB/s instead of the aggregate: aggregate = sum of the threads' rates; per "
                          "thread = their median");
  log_y_ = new QCheckBox("log GB/s");
  log_y_->setObjectName("log_y");
  log_y_->setToolTip("GB/s on a log10 axis: in-cache points at hundreds of GB/s beside DRAM-bound ones at a few "
                     "GB/s (a size sweep at many threads) no longer flatten the latter");
  auto* bar = new QWidget;
  auto* bar_l = new QHBoxLayout(bar);
  bar_l->setContentsMargins(6, 2, 6, 0);
  plot_scenario_ = new QComboBox;
  plot_scenario_->setObjectName("plot_scenario");
  plot_scenario_->addItem("scaling");
  // As wide as its longest scenario: at 1024x768 with 1.5x text the bar squeezed it to "scalir".
  plot_scenario_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  plot_scenario_->setSizePolicy(QSizePolicy::Fixed, plot_scenario_->sizePolicy().verticalPolicy());
  plot_scenario_->setToolTip("which scenario's rows the GB/s plots draw: rows of different scenarios are never "
                             "mixed into one curve (tlbflush rows hold ns, see the table)");
  bar_l->addWidget(new QLabel("Rows:"));
  bar_l->addWidget(plot_scenario_);
  curve_filter_label_ = new QLabel("Size:");
  curve_filter_ = new QComboBox;
  curve_filter_->setObjectName("curve_filter");
  curve_filter_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  curve_filter_->setToolTip("draw only the curves of one buffer size (GB/s vs threads) or one thread count (GB/s vs "
                            "size), or all of them; the table keeps every point");
  bar_l->addSpacing(8);
  bar_l->addWidget(curve_filter_label_);
  bar_l->addWidget(curve_filter_);
  bar_l->addSpacing(12);
  bar_l->addWidget(per_thread_);
  bar_l->addWidget(log_y_);
  auto* hint = new HintLabel({"hover a point for its exact figures; drag to pan, wheel to zoom",
                              "hover a point for its figures; drag: pan", "hover a point: figures", "hover: figures"});
  hint->setObjectName("plot_hint");
  bar_l->addWidget(hint, 1);

  tabs_ = new QTabWidget;
  // One bar for both GB/s plots (its boxes set both), shown above whichever of the two is the
  // current tab: on the size tab there was none, and no way to change the axis there.
  QWidget* threads_tab = with_toolbar(threads_plot_, bar);
  QWidget* size_tab = with_toolbar(size_plot_, nullptr);
  tabs_->addTab(threads_tab, "GB/s vs threads");
  tabs_->addTab(size_tab, "GB/s vs size");
  connect(tabs_, &QTabWidget::currentChanged, bar, [this, bar, threads_tab, size_tab](int) {
    for (QWidget* tab : {threads_tab, size_tab})
      if (tabs_->currentWidget() == tab && bar->parentWidget() != tab) {
        static_cast<QVBoxLayout*>(tab->layout())->insertWidget(0, bar);
        bar->show();
      }
  });
  heat_select_ = new ElidedComboBox(16);
  heat_select_->set_hint_holds_items(true);
  heat_select_->set_elide_mode(Qt::ElideRight);  // "avx512-nt, 1 GiB, fill z…": its kernel and size kept
  heat_select_->setObjectName("heat_map");
  heat_select_->setToolTip("one heat map per aggressor kernel (and size, fill, file)");
  auto* heat_bar = new QWidget;
  auto* heat_l = new QHBoxLayout(heat_bar);
  heat_l->setContentsMargins(6, 2, 6, 0);
  heat_l->addWidget(new QLabel("Aggressor:"));
  heat_l->addWidget(heat_select_);
  auto* baseline = new QCheckBox("k = 0 column (alone, 0%)");
  baseline->setObjectName("heat_baseline");
  connect(baseline, &QCheckBox::toggled, heatmap_, &PlotPanel::set_show_baseline);
  heat_l->addWidget(baseline);
  heat_l->addWidget(new HintLabel({"hover a cell for the victim's GB/s", "hover: GB/s"}), 1);
  tabs_->addTab(with_toolbar(heatmap_, heat_bar), "Victim heat map");
  tabs_->addTab(topology_, "Topology");
  tabs_->addTab(table, "Table");
  verdict_ = new VerdictPanel;
  compare_ = new CompareView;
  auto* runs_tab = new QSplitter(Qt::Vertical);
  runs_tab->addWidget(verdict_);
  runs_tab->addWidget(compare_);
  // 2:3: at 3:2 and 1.3x text the comparison's table showed 2 rows under its summary; the
  // verdict's calls stand in one line each above its text, which scrolls.
  runs_tab->setStretchFactor(0, 2);
  runs_tab->setStretchFactor(1, 3);
  tabs_->addTab(runs_tab, "Runs");
  tab_labels_ = new TabLabelFitter(tabs_, {"Threads", "Size", "Heat map", "Topology", "Table", "Runs"});
  connect(tabs_, &QTabWidget::currentChanged, this, [this] {
    for (PlotPanel* plot : {threads_plot_, size_plot_})
      if (plot->isVisibleTo(this)) fresh_plot(plot);
    refresh_curve_filter();
  });
  connect(threads_plot_, &PlotPanel::only_changed, this, [this] { refresh_marks(); });  // crossovers of its size
  connect(size_plot_, &PlotPanel::only_changed, this, [this] { refresh_marks(); });  // the LLC share of its threads
  connect(curve_filter_, &QComboBox::currentIndexChanged, this, [this](int i) {
    PlotPanel* plot = size_tab_shown() ? size_plot_ : threads_plot_;
    const QVariant v = i >= 0 ? curve_filter_->itemData(i) : QVariant();
    plot->set_only(v.isValid() ? std::optional<double>(v.toDouble()) : std::nullopt);
    filter_chosen_.insert(plot);
  });
  guard_wheel(bar);
  guard_wheel(heat_bar);
  guard_wheel(compare_);

  log_ = new QPlainTextEdit;
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(5000);
  log_->setPlaceholderText("Warnings and progress of the runs appear here.");

  auto* right = new QSplitter(Qt::Vertical);
  right->addWidget(tabs_);
  right->addWidget(log_);
  right->setStretchFactor(0, 5);
  right->setStretchFactor(1, 1);
  auto* split = split_ = new QSplitter(Qt::Horizontal);
  split->addWidget(left);
  split->addWidget(right);
  split->setStretchFactor(1, 1);
  setCentralWidget(split);
  // Only a drag by the user moves the handle this way (setSizes does not): that width is kept.
  connect(split, &QSplitter::splitterMoved, this, [this] { split_dragged_ = true; });
  // Once shown at its size: the control panel at its preferred width where the plots keep theirs.
  // The splitter shares a shortfall between the two, and the panel (whose combo boxes may give way
  // to 12 characters in a small window) came out at its minimum in a 1920 px window.
  QTimer::singleShot(0, split, [this, split, left, right] {
    const QList<int> sizes = split->sizes();
    if (sizes.size() != 2) return;
    const int give = std::min(left->sizeHint().width() - sizes[0], sizes[1] - right->minimumSizeHint().width());
    if (give > 0) split->setSizes({sizes[0] + give, sizes[1] - give});
    widen_for_run_names();
  });

  progress_ = new QProgressBar;
  progress_->setMaximumWidth(220);
  progress_->setVisible(false);
  status_ = new QLabel("Ready. Choose kernels and sizes, then Run.");
  status_->setObjectName("status_message");
  statusBar()->addWidget(status_, 1);
  statusBar()->addPermanentWidget(progress_);
  // A label the plot had no room for (large text, a small window) is said here, not drawn over another.
  for (PlotPanel* p : {threads_plot_, size_plot_})
    connect(p, &PlotPanel::labels_left_out, this, [this, p](const QStringList& texts) {
      if (!p->isVisible()) return;  // a tab not shown is laid out at another size
      const bool saying = !left_out_message_.isEmpty() && status_->text() == left_out_message_;
      if (texts.isEmpty()) {
        if (saying) {  // every label drawn again (a larger window)
          status_->setText(status_before_left_out_);
          status_->setToolTip({});
        }
        return;
      }
      if (!saying) status_before_left_out_ = status_->text();
      const QString plot = p == threads_plot_ ? "Threads" : "Size";
      left_out_message_ = plot + " plot: " +
                          PlotPanel::left_out_sentence(
                              texts, "hovering here lists them; View > Smaller text or a larger window");
      status_->setText(left_out_message_);
      // The bar cuts the sentence at the window's edge (1024 px: "inter-socket link 6"): the
      // tooltip names each label whole, one to a line.
      status_->setToolTip(QString("Left out of the %1 plot for room:\n%2").arg(plot.toLower(), texts.join("\n")));
    });

  build_menus();

  // The local machine's topology, until a simulation shows another, and again when the mode
  // goes back to Measure.
  auto show_local = [this] {
    try {
      const Topology local = Topology::local();
      topology_->set_tree(topo_tree(local));
      size_plot_->set_llc(local.llc_bytes(), "this machine", host_name(), local.llc_count(),
                          cpu_.model_name);  // only on curves measured here
    } catch (const std::exception& e) {
      append_log(QString("topology: %1").arg(e.what()), true);
    }
  };
  show_local();
  connect(panel_, &ControlPanel::modeChanged, this, [show_local](bool simulate) {
    if (!simulate) show_local();
  });

  worker_ = new QThread(this);
  worker_->setObjectName("bwlab-run");
  controller_ = new RunController;
  controller_->moveToThread(worker_);
  connect(worker_, &QThread::finished, controller_, &QObject::deleteLater);
  connect(this, &MainWindow::startRequested, controller_, &RunController::run, Qt::QueuedConnection);
  connect(controller_, &RunController::started, this, [this](const QString& d) { append_log(d); });
  connect(controller_, &RunController::warning, this, [this](const QString& w) { append_log(w, true); });
  connect(controller_, &RunController::topologyReady, this,
          [this](const TopoNode& tree, quint64 llc, const QString& summary) {
            topology_->set_tree(tree);
            topology_->set_pu_values({}, {});
            if (simulating_) size_plot_->set_llc(llc, "simulated machine, per package");
            else size_plot_->set_llc(llc, "this machine", host_name(), verdict_options_here().llc_count, cpu_.model_name);
            show_status(summary);
          });
  connect(controller_, &RunController::progress, this,
          [this](int done, int total, double eta, const QString& cur, double window_gbps) {
            if (first_window_ms_ < 0) first_window_ms_ = run_clock_.elapsed();
            progress_->setRange(0, total);
            progress_->setValue(done);
            // Every finished window shows at once, long before its point (all repetitions) is done.
            const QString figure = std::isnan(window_gbps)
                                       ? QString()
                                       : QString(": %1 GB/s in this window (one repetition, not yet the median)")
                                             .arg(window_gbps, 0, 'f', 2);
            show_status(QString("%1%2   (%3/%4 windows, about %5 s left)")
                                 .arg(cur, figure)
                                 .arg(done)
                                 .arg(total)
                                 .arg(eta, 0, 'f', 0));
          });
  connect(controller_, &RunController::pointReady, this, &MainWindow::on_point_ready);
  connect(controller_, &RunController::machineUsed, this, [this](const QString& machine_json) {
    if (live_index_ >= 0) runs_[static_cast<std::size_t>(live_index_)].data.machine = machine_json.toStdString();
  });
  connect(controller_, &RunController::finished, this, &MainWindow::on_finished);
  worker_->start();

  connect(panel_, &ControlPanel::runClicked, this, &MainWindow::start_run);
  connect(panel_, &ControlPanel::stopClicked, this, &MainWindow::stop_run);
  connect(per_thread_, &QCheckBox::toggled, this, &MainWindow::set_per_thread);
  connect(log_y_, &QCheckBox::toggled, this, &MainWindow::set_log_y);
  connect(plot_scenario_, &QComboBox::currentTextChanged, this, [this](const QString& scen) {
    refresh_marks();  // the marks of this scenario's rows (a victim plot's x is k)
    threads_plot_->set_scenario(scen.toStdString());
    size_plot_->set_scenario(scen.toStdString());
    refresh_curve_filter();  // the sizes or thread counts of this scenario's rows
  });
  connect(heat_select_, &QComboBox::currentIndexChanged, this, [this] { refresh_heat_map(); });
  connect(run_list_, &RunList::checkedChanged, this, [this](int row, bool on) { set_run_checked(row, on); });
  connect(run_list_, &RunList::removeRequested, this, [this](int row) { remove_run(row); });

  // A human refresh rate: points are drawn in bulk 25 times a second at most, never in a busy loop.
  timer_.setInterval(40);
  connect(&timer_, &QTimer::timeout, this, &MainWindow::drain);

  // --- what-if machine (branch gui-whatif; self-contained, merge as one block) ---
  // A dock, shown in Simulate mode, whose machine edits re-simulate the control panel's sweep
  // and replace the simulated run's points; hovering a simulated point adds the model's "why".
  {
    auto* machine = new MachinePanel;
    auto* dock = new QDockWidget("What-if machine (simulated runs)", this);
    dock->setObjectName("machine_dock");
    dock->setWidget(machine);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    auto* whatif = new WhatIf(machine, [this] { return panel_->request(); }, this);
    whatif->setObjectName("whatif");
    // The dock says the run follows the control panel's sweep: an edit there re-simulates (it kept
    // the old sizes on the plot until a dock field changed).
    connect(panel_, &ControlPanel::sweepEdited, whatif, [whatif] {
      if (whatif->active()) whatif->resimulate();
    });
    whatif_ = whatif;
    auto shown_llc = std::make_shared<quint64>(0);  // the LLC the size plot marks for the what-if machine
    connect(controller_, &RunController::topologyReady, this, [shown_llc] { *shown_llc = 0; });
    connect(whatif, &WhatIf::simulated, this,
            [this, whatif, shown_llc](const Dataset& run, quint64 llc, const QString& summary) {
      if (running_) return whatif->refused_busy();
      // The what-if run is one kept run (origin "what-if"), replaced on every change; its checkbox
      // in the run list is kept.
      auto it = std::find_if(runs_.begin(), runs_.end(), [](const KeptRun& r) { return r.origin == "what-if"; });
      if (it == runs_.end()) {
        const std::string name = unique_name(run.name);  // beside a session's saved what-if run
        runs_.push_back(KeptRun{run, "what-if", true});
        runs_.back().data.name = name;
      } else {
        const std::string name = it->data.name;
        it->data = run;
        it->data.name = name;
      }
      set_ceilings_machine(whatif->machine());
      set_marks_machine(whatif->machine());
      if (plot_scenario_->findText("scaling") < 0) plot_scenario_->addItem("scaling");
      plot_scenario_->setCurrentText("scaling");
      if (llc != *shown_llc) size_plot_->set_llc(*shown_llc = llc, "what-if machine, per socket");  // each set rebuilds
      sync_runs();
      show_status(summary);
    });
    for (PlotPanel* plot : {threads_plot_, size_plot_})
      plot->set_point_tooltip_provider([whatif](const Point& p) { return whatif->explain(p); });
    auto* simulate = panel_->findChild<QRadioButton*>("simulate");
    auto follow = [dock, whatif](bool on) {
      dock->setVisible(on);
      whatif->set_active(on);
    };
    follow(simulate && simulate->isChecked());
    if (simulate) {
      connect(simulate, &QRadioButton::toggled, this, follow);
      // Clicked by the user (not set by a session or a request): the dock opened on a blank plot
      // until a field was edited; its machine is drawn at once.
      connect(simulate, &QRadioButton::clicked, whatif, [whatif](bool on) {
        if (on) whatif->resimulate();
      });
    }
  }
  // --- end what-if machine ---

  QSettings settings;
  panel_->load(settings);
  // Started in Simulate mode (the last window quit in it): the dock's machine is drawn, not beside
  // an empty plot; once the event loop runs, and only into an empty window: files, a session or the
  // demo opened at start (main opens them before) keep their own runs without a what-if one beside.
  if (whatif_ && whatif_->active())
    QTimer::singleShot(0, this, [this] {
      if (whatif_->active() && runs_.empty()) whatif_->resimulate();
    });
  restoreGeometry(settings.value("window/geometry").toByteArray());
  per_thread_->setChecked(settings.value("plot/per_thread", false).toBool());
  log_y_->setChecked(settings.value("plot/log_y", false).toBool());
  // Also undoes an earlier window's scale; the status bar keeps its first line ("Ready. ...").
  const QString ready = status_->text();
  set_text_scale(settings.value("view/text_scale", 1.0).toDouble());
  show_status(ready);
  sync_runs();
}

MainWindow::~MainWindow() { shutdown_worker(); }

void MainWindow::build_menus() {
  QMenu* file = menuBar()->addMenu("&File");
  QAction* open = file->addAction("&Open CSV/JSON...", this, [this] {
    const QStringList files =
        QFileDialog::getOpenFileNames(this, "Open results", {}, "bwlab results (*.csv *.json);;All files (*)");
    if (!files.isEmpty()) open_files(files);
  });
  open->setShortcut(QKeySequence::Open);
  file->addAction("Save points as &CSV...", this, [this] {
    const QString f = QFileDialog::getSaveFileName(this, "Save CSV", "results.csv", "CSV (*.csv)");
    if (!f.isEmpty()) save_points(f);
  });
  file->addAction("Save points as &JSON...", this, [this] {
    const QString f = QFileDialog::getSaveFileName(this, "Save JSON", "results.json", "JSON (*.json)");
    if (!f.isEmpty()) save_points(f);
  });
  file->addAction("&Export plot (PNG, PDF, SVG)...", this, [this] {
    const QString f = QFileDialog::getSaveFileName(this, "Export plot", "plot.png", "PNG (*.png);;PDF (*.pdf);;SVG (*.svg)");
    if (!f.isEmpty()) export_plot(f);
  });
  file->actions().back()->setShortcut(QKeySequence("Ctrl+E"));
  file->addSeparator();
  QAction* open_s = file->addAction("Open &session...", this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, "Open session", {}, "bwlab-gui session (*.json);;All files (*)");
    if (!f.isEmpty()) open_session(f);
  });
  open_s->setShortcut(QKeySequence("Ctrl+Shift+O"));
  QAction* save_s = file->addAction("Save session (runs and &view)...", this, [this] {
    const QString f = QFileDialog::getSaveFileName(this, "Save session", "session.json", "bwlab-gui session (*.json)");
    if (!f.isEmpty()) save_session(f);
  });
  save_s->setShortcut(QKeySequence("Ctrl+S"));
  file->addSeparator();
  file->addAction("Remove opened &files", this, [this] {
    for (int i = static_cast<int>(runs_.size()) - 1; i >= 0; --i)
      if (runs_[static_cast<std::size_t>(i)].origin == "file") remove_run(i);
  });
  file->addSeparator();
  QAction* quit = file->addAction("&Quit", this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* run = menuBar()->addMenu("&Run");
  run->addAction("&Run", this, &MainWindow::start_run)->setShortcut(QKeySequence("F5"));
  run->addAction("&Stop", this, &MainWindow::stop_run)->setShortcut(QKeySequence("Shift+F5"));

  QMenu* view = menuBar()->addMenu("&View");
  const QStringList titles{"GB/s vs &threads", "GB/s vs &size", "Victim &heat map", "T&opology", "T&able", "&Runs"};
  for (int i = 0; i < titles.size(); ++i)
    view->addAction(titles[i], this, [this, i] { tabs_->setCurrentIndex(i); })
        ->setShortcut(QKeySequence(QString("Ctrl+%1").arg(i + 1)));
  view->addSeparator();
  QAction* larger = view->addAction("&Larger text", this, [this] { set_text_scale(text_scale_ * text_scale::kStep); });
  larger->setObjectName("text_larger");
  larger->setShortcuts({QKeySequence::ZoomIn, QKeySequence("Ctrl+=")});
  QAction* smaller = view->addAction("S&maller text", this, [this] { set_text_scale(text_scale_ / text_scale::kStep); });
  smaller->setObjectName("text_smaller");
  smaller->setShortcut(QKeySequence::ZoomOut);
  QAction* normal = view->addAction("&Normal text size", this, [this] { set_text_scale(1); });
  normal->setObjectName("text_normal");
  normal->setShortcut(QKeySequence("Ctrl+0"));

  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&What each view shows", this, [this] {
    QMessageBox::information(this, "bwlab-gui: the views", views_help());
  })->setShortcut(QKeySequence::HelpContents);
  help->addAction("&Keyboard shortcuts", this, [this] {
    QMessageBox::information(this, "bwlab-gui: keyboard shortcuts", shortcuts_help());
  });
  help->addSeparator();
  help->addAction("Open &demo (stosb vs NT under competition)", this, [this] { open_demo(); });
  help->addSeparator();
  help->addAction("&About bwlab-gui", this, [this] { QMessageBox::about(this, "About bwlab-gui", about_text()); });
}

void MainWindow::set_text_scale(double scale) {
  static const QFont usual = QApplication::font();  // as Qt chose it, before the first change
  text_scale_ = std::clamp(scale, text_scale::kMin, text_scale::kMax);
  if (std::abs(text_scale_ - 1) < 0.02) text_scale_ = 1;  // steps up and down land on 1 again
  QFont f = usual;
  if (usual.pointSizeF() > 0) f.setPointSizeF(usual.pointSizeF() * text_scale_);
  else f.setPixelSize(qRound(usual.pixelSize() * text_scale_));
  QApplication::setFont(f);
  for (PlotPanel* p : findChildren<PlotPanel*>()) p->set_text_scale(text_scale_);
  QTimer::singleShot(0, this, [this] {  // once the widgets have their new font
    fit_panel_width();
    fit_table_columns();
  });
  show_status(text_scale_ == 1 ? QString("Text at its usual size.")
                                    : QString("Text at %1% of its usual size (View > Normal text size: Ctrl+0).")
                                          .arg(qRound(text_scale_ * 100)));
}

// The left column wider where the run list elides a name and the window has room: at 1920 px the
// panel's preferred width showed "skylake-x-827…ed, 2 sockets" beside 1300 px of plot. At most
// 3/10 of the window, the plots keeping at least their minimum; never after the user dragged the
// splitter, and never narrower.
void MainWindow::widen_for_run_names() {
  if (split_dragged_ || !run_list_->isVisible()) return;
  const QList<int> sizes = split_->sizes();
  if (sizes.size() != 2) return;
  const int right_min = split_->widget(1)->minimumSizeHint().width();
  const int room = std::min({run_list_->width_short(), split_->width() * 3 / 10 - sizes[0], sizes[1] - right_min});
  if (room > 0) split_->setSizes({sizes[0] + room, sizes[1] - room});
}

// The control panel as wide as its widgets need at this text scale: at 1.3x on a 1280x800 projector
// it scrolled sideways, its Stop button and combo boxes cut. At most 1.3x its usual width, so the
// plots keep the rest (above 1.3x text it scrolls sideways again).
// Its minimum, not its preferred width: the combo boxes give way to 12 characters in a small
// window (Simulate mode's dock beside it needed 1158 px), and the splitter gives the panel its
// preferred width where there is room.
void MainWindow::fit_panel_width() {
  if (QLayout* l = panel_->layout()) l->activate();
  const int scrollbar = panel_scroll_->verticalScrollBar()->sizeHint().width();
  const int needed = panel_->minimumSizeHint().width() + scrollbar + 2 * panel_scroll_->frameWidth();
  if (usual_panel_width_ == 0) usual_panel_width_ = needed;  // the first call: the usual text size
  panel_scroll_->setMinimumWidth(std::min(needed, usual_panel_width_ * 13 / 10));
}

// The run/file column as wide as its names, at most 24 characters of the table's font; every other
// column fits its contents. A width the user dragged is kept (a live run refreshes the table after
// every point).
void MainWindow::fit_table_columns() {
  const int now = table_->columnWidth(ResultsModel::Dataset);
  if (dataset_width_set_ > 0 && now != dataset_width_set_) return;
  table_->resizeColumnToContents(ResultsModel::Dataset);
  const int cap = table_->fontMetrics().averageCharWidth() * 24;
  if (table_->columnWidth(ResultsModel::Dataset) > cap) table_->setColumnWidth(ResultsModel::Dataset, cap);
  dataset_width_set_ = table_->columnWidth(ResultsModel::Dataset);
}

void MainWindow::append_log(const QString& line, bool warning) {
  // Core words its advice for the CLI (--reps 5); the log says it in the form's words (Repetitions).
  const QString text = QString::fromStdString(form_wording(line.toStdString()));
  log_->appendPlainText(warning ? "warning: " + text : text);
}

void MainWindow::show_error(const QString& title, const QString& raw) {
  const QString text = QString::fromStdString(form_wording(raw.toStdString()));
  last_error_ = title + ": " + text;
  append_log(last_error_, true);
  auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();  // not exec(): the window keeps repainting and tests are never blocked
}

void MainWindow::start_run() {
  if (running_) return;
  RunRequest r = panel_->request();
  if (r.simulate && r.machine == kWhatIfMachine) {
    // The dock's machine as its fields stand (the run is kept; the dock's own run is replaced on
    // its next edit). Built from the spec only: the worker simulates the sweep, once.
    try {
      r.machine_params = std::make_shared<const MachineParams>(model::machine_from_spec(whatif_->panel()->spec()));
    } catch (const std::exception& e) {
      show_error("Cannot simulate the what-if machine", e.what());
      return;
    }
    r.machine = QString("what-if %1").arg(QString::fromStdString(r.machine_params->name));
  }
  const bool needs_kernels = r.scenario == "scaling" ||
                             (r.scenario == "victim" && (r.victims.trimmed().isEmpty() || r.aggressors.trimmed().isEmpty()));
  if (r.kernels.isEmpty() && needs_kernels) {
    show_error("Nothing to run", "choose at least one kernel");
    return;
  }
  simulating_ = r.simulate;
  // Every run is kept: a new one is added beside the previous ones (untick or Remove them).
  KeptRun live;
  live.origin = r.simulate ? "simulated" : "measured";
  live.data.name = r.simulate ? fmt::format("run {}: simulated {} {}", run_counter_ + 1, r.machine.trimmed().toStdString(),
                                            r.scenario.toStdString())
                              : fmt::format("run {}: measured {}", run_counter_ + 1, r.scenario.toStdString());
  ++run_counter_;
  live_index_ = add_run(std::move(live));
  pending_.clear();
  running_ = true;
  panel_->set_running(true);
  progress_->setRange(0, 0);
  progress_->setVisible(true);
  show_status(r.simulate ? "Simulating..." : "Measuring...");
  topology_before_run_ = topology_->shown();
  pu_scale_max_before_run_ = pu_scale_max_;
  topology_->set_pu_values({}, {});
  pu_scale_max_ = 0;
  // Show the rows of the scenario being run (scaling rows stay in their own curves).
  if (plot_scenario_->findText(r.scenario) < 0) plot_scenario_->addItem(r.scenario);
  plot_scenario_->setCurrentText(r.scenario);
  first_window_ms_ = first_point_ms_ = -1;
  run_clock_.start();
  refresh_plots();
  timer_.start();
  emit startRequested(r);
}

void MainWindow::stop_run() {
  if (!running_) return;
  controller_->request_stop();
  show_status("Stopping (finished points are kept)...");
}

void MainWindow::on_point_ready(const Point& p) { pending_.push_back(p); }

void MainWindow::drain() {
  if (pending_.empty() || live_index_ < 0) return;
  KeptRun& kept = runs_[static_cast<std::size_t>(live_index_)];
  Dataset& live = kept.data;
  if (first_point_ms_ < 0) {
    first_point_ms_ = run_clock_.elapsed();
    append_log(QString("first point drawn %1 s after Run (first window reported after %2 s)")
                   .arg(double(first_point_ms_) / 1000, 0, 'f', 2)
                   .arg(double(first_window_ms_ < 0 ? first_point_ms_ : first_window_ms_) / 1000, 0, 'f', 2));
  }
  for (const Point& p : pending_) {
    // The same one-line summary as `bwlab run` prints per point, per scenario.
    append_log(QString("point %1: %2")
                   .arg(live.points.size() + 1)
                   .arg(p.source == "simulated"
                            ? QString("%1 %2 %3T %4: %5 GB/s aggregate, simulated (model prediction, no repetitions)")
                                  .arg(qs(p.kernel), qs(size_text(double(p.size_bytes))))
                                  .arg(p.threads)
                                  .arg(qs(p.fill))
                                  .arg(p.gbps_median, 0, 'f', 2)
                            : qs(point_summary(p))));
    for (const auto& f : p.flags) append_log(qs(p.kernel) + ": " + qs(f), true);
    live.points.push_back(p);
  }
  if (kept.checked) model_->append(live.name, pending_);
  // The colour scale runs up to the most one thread got in this run so far: a simulation's points
  // arrive at once, and a scale set by the last point alone made every PU its darkest colour.
  pu_scale_max_ = max_thread_gbps(pending_, pu_scale_max_);
  // Colour the PUs by the GB/s of the thread pinned there in the last finished point (and mark
  // a victim point's victim and aggressors; every part of a mix, framed in its part's colour).
  pu_scale_max_ = topology_->show_points(last_point_group(live.points), pu_scale_max_);
  pending_.clear();
  rebuild_visible();
  refresh_plots();
}

void MainWindow::refresh_plots() {
  // Scenario columns that no row fills are hidden (a scaling run shows no victim or tlbflush columns).
  for (int c : {ResultsModel::Peer, ResultsModel::PeerThreads, ResultsModel::SlowdownPct, ResultsModel::BaselineGbps,
                ResultsModel::FaultsPerS, ResultsModel::HugePct, ResultsModel::Entries, ResultsModel::MunmapNs,
                ResultsModel::ReaderNs, ResultsModel::ReaderAloneNs})
    table_->setColumnHidden(c, model_->column_empty(c));
  table_->setColumnHidden(ResultsModel::Scenario, model_->all_scaling());
  fit_table_columns();
  // The scenarios the GB/s plots can show: those present, and the one being run.
  const std::vector<std::string> present = scenarios_present(datasets_);
  const QString current = plot_scenario_->currentText();
  QStringList items;
  for (const auto& s : present) items << qs(s);
  if (!items.contains(current) && (running_ || items.isEmpty())) items.prepend(current);
  QStringList old;
  for (int i = 0; i < plot_scenario_->count(); ++i) old << plot_scenario_->itemText(i);
  if (items != old) {
    const QSignalBlocker block(plot_scenario_);
    plot_scenario_->clear();
    plot_scenario_->addItems(items);
    plot_scenario_->setCurrentText(items.contains(current) ? current : qs(default_plot_scenario(datasets_)));
  }
  threads_plot_->set_scenario(plot_scenario_->currentText().toStdString());
  size_plot_->set_scenario(plot_scenario_->currentText().toStdString());
  refresh_marks();
  update_plot(threads_plot_);
  update_plot(size_plot_);
  refresh_curve_filter();

  heat_maps_ = build_heat_maps(datasets_);
  const QString chosen = heat_select_->currentText();
  {
    const QSignalBlocker block(heat_select_);
    heat_select_->clear();
    // The box is named "Aggressor:": each item without the word ("avx512-nt, 256 MiB, fill zero"),
    // which left the fill cut off at 1024 px with larger text.
    for (const auto& m : heat_maps_) {
      QString item = qs(m.label);
      if (item.startsWith("aggressor ")) item.remove(0, 10);
      heat_select_->addItem(item);
    }
    const int keep = heat_select_->findText(chosen);
    heat_select_->setCurrentIndex(keep >= 0 ? keep : 0);
  }
  refresh_heat_map();
}

void MainWindow::refresh_marks() {
  // The machine's ceilings and marks; beside curves of any other machine, simulated or measured,
  // they name their machine (a demo server's DRAM peak is not the limit of this VM's curves).
  // Drawn only beside a curve of that machine: a what-if machine's lines stood over another
  // machine's run once the what-if run was unticked.
  // Per plot: the machine's run must have a curve at the value the plot's box draws (a simulated
  // server's lines stood over a measured run's 256 MiB curves, its own 16 MiB and 1 GiB not drawn).
  const auto machine_drawn = [&](const std::vector<Dataset>& ds) {
    return std::any_of(ds.begin(), ds.end(), [&](const Dataset& d) {
      return std::any_of(d.points.begin(), d.points.end(), [&](const Point& p) { return p.host == marks_host_; });
    });
  };
  const auto only_at = [&](PlotPanel* plot) {
    std::vector<Dataset> kept = datasets_;
    if (const std::optional<double> v = plot->only())
      for (Dataset& d : kept)
        std::erase_if(d.points, [&](const Point& p) { return curve_filter_value(p, plot->kind()) != *v; });
    return kept;
  };
  // The threads plot's crossovers are those of the size it draws (its Size box): a 4 MiB mark
  // stood over a plot of the 64 MiB curves.
  const std::vector<Dataset> drawn = only_at(threads_plot_);
  const bool threads_drawn = machine_drawn(drawn), size_drawn = machine_drawn(only_at(size_plot_));
  const std::string scenario = plot_scenario_->currentText().toStdString();
  const auto lines = [&](bool on, int threads) {
    return on && ceilings_machine_ ? machine_lines(threads) : std::vector<Ceiling>{};
  };
  const PlotMarks marks =
      plot_marks(drawn, lines(threads_drawn, 1), threads_drawn ? marks_topology_.get() : nullptr, marks_host_, scenario);
  threads_plot_->set_ceilings(marks.threads, false);
  // A size plot of one thread count (its Threads box) marks that count's share of the LLC: at 2
  // threads it drew only the whole LLC, "n threads, LLC/n each".
  const std::optional<double> threads = size_plot_->only();
  size_plot_->set_ceilings(plot_marks(datasets_, lines(size_drawn, threads ? static_cast<int>(*threads) : 1),
                                      size_drawn ? marks_topology_.get() : nullptr, marks_host_, scenario)
                               .size,
                           false);
}

void MainWindow::follow_drawn_machine() {
  const auto drawn_on = [&](const std::string& host) {
    return std::any_of(datasets_.begin(), datasets_.end(), [&](const Dataset& d) {
      return std::any_of(d.points.begin(), d.points.end(), [&](const Point& p) { return p.host == host; });
    });
  };
  if (!marks_host_.empty() && drawn_on(marks_host_)) return;
  for (const Dataset& d : datasets_) {
    if (d.points.empty() || d.points.front().source != "simulated") continue;
    std::optional<MachineParams> m;
    try {
      m = model_machine_of({d});
      if (!m || "model:" + m->name == marks_host_) continue;
      set_marks_machine(*m);  // throws for a topology file not on this computer
    } catch (const std::exception&) {  // a machine that does not read here: no lines from it
      continue;
    }
    set_ceilings_machine(*m);
    size_plot_->set_llc(m->llc_bytes_per_package, qs("simulated " + m->name));
    append_log(qs("the plots' machine lines (DRAM peak, link, LLC, sockets) are " + m->name + "'s, the machine " +
                  d.name + " was simulated on"));
    return;
  }
}

bool MainWindow::size_tab_shown() const {
  return tabs_->currentWidget() && tabs_->currentWidget()->isAncestorOf(size_plot_);
}

void MainWindow::refresh_curve_filter() {
  const bool size_tab = size_tab_shown();
  PlotPanel* plot = size_tab ? size_plot_ : threads_plot_;
  const std::vector<double> values = curve_filter_values(datasets_, size_tab ? PlotKind::size : PlotKind::threads,
                                                         plot_scenario_->currentText().toStdString());
  const QSignalBlocker block(curve_filter_);
  curve_filter_->clear();
  curve_filter_label_->setText(size_tab ? "Threads:" : "Size:");
  const auto text = [size_tab](double v) {
    return size_tab ? QString("%1 thread%2").arg(v, 0, 'f', 0).arg(v == 1 ? "" : "s")
                    : qs(format_bytes(static_cast<std::uint64_t>(v), " "));
  };
  // One value: the (disabled) box names it, "256 MiB (the only one)", not "all sizes".
  curve_filter_->addItem(values.size() == 1 ? text(values.front()) + " (the only one)"
                         : size_tab         ? "all thread counts"
                                            : "all sizes");
  for (const double v : values)
    if (values.size() > 1) curve_filter_->addItem(text(v), v);
  const int keep = plot->only() ? curve_filter_->findData(*plot->only()) : 0;
  curve_filter_->setCurrentIndex(keep >= 0 ? keep : 0);
  // A choice no kept run holds (a session's, or the runs behind it removed) would leave the plot
  // empty under "all": it is dropped.
  if (keep < 0) plot->set_only(std::nullopt);
  // One value or none: nothing to choose between.
  curve_filter_->setEnabled(values.size() > 1);
}

void MainWindow::update_plot(PlotPanel* plot) const {
  if (plot->isVisibleTo(this)) {
    stale_plots_.erase(plot);
    plot->set_datasets(datasets_);
  } else {
    stale_plots_.insert(plot);
  }
}

PlotPanel* MainWindow::fresh_plot(PlotPanel* plot) const {
  if (stale_plots_.erase(plot) > 0) plot->set_datasets(datasets_);
  return plot;
}

void MainWindow::refresh_heat_map() {
  const int i = heat_select_->currentIndex();
  if (i < 0 || i >= static_cast<int>(heat_maps_.size())) {
    heatmap_->set_heat_cells({}, "fills in from victim rows: a victim run, or an opened CSV/JSON that holds some");
    return;
  }
  const HeatMap& m = heat_maps_[static_cast<std::size_t>(i)];
  heatmap_->set_heat_cells(m.cells, qs(m.subtitle));
}

void MainWindow::set_log_y(bool on) {
  if (log_y_->isChecked() != on) log_y_->setChecked(on);
  threads_plot_->set_log_y(on);
  size_plot_->set_log_y(on);
}

void MainWindow::set_per_thread(bool on) {
  if (per_thread_->isChecked() != on) per_thread_->setChecked(on);
  threads_plot_->set_per_thread(on);
  size_plot_->set_per_thread(on);
}

void MainWindow::on_finished(bool stopped, const QString& error) {
  drain();
  timer_.stop();
  running_ = false;
  panel_->set_running(false);
  progress_->setVisible(false);
  const int n = live_index_ >= 0 ? static_cast<int>(runs_[static_cast<std::size_t>(live_index_)].data.points.size()) : 0;
  if (!error.isEmpty()) {
    show_status("Not run: " + error);
    show_error("Cannot run", error);
  } else {
    const QString what = QString("%1 point%2").arg(n).arg(n == 1 ? "" : "s");
    show_status(stopped ? "Stopped: " + what + " finished and kept" : "Done: " + what);
    append_log(stopped ? "stopped by the user; " + what + " finished and kept" : "done: " + what);
  }
  const int finished = live_index_;
  live_index_ = -1;
  if (finished >= 0 && n == 0) {  // a run that gave no point (refused, or stopped at once) leaves no empty entry
    runs_.erase(runs_.begin() + finished);
    --run_counter_;
    // ... and the Topology tab as it was (a refused Run left the demo's coloured PUs blank).
    topology_->show_again(topology_before_run_);
    pu_scale_max_ = pu_scale_max_before_run_;
  }
  sync_runs();
  emit runFinished(stopped, error);
}

bool MainWindow::open_files(const QStringList& paths) {
  // Files opened into an empty window pick the plot as `bwlab plot --kind auto` does: a one-thread
  // table of 8 sizes drew 8 markers stacked at x = 1 on the threads plot.
  const bool first = runs_.empty();
  for (const QString& path : paths) {
    try {
      Dataset d = load_dataset(path.toStdString());
      // Reopening a file rereads it: the run of that file is updated in place (same checkbox).
      auto same = std::find_if(runs_.begin(), runs_.end(),
                               [&](const KeptRun& r) { return r.origin == "file" && r.data.name == d.name; });
      append_log(QString("opened %1: %2 points").arg(path).arg(d.points.size()));
      if (!d.partial.empty())  // as compare and verdict warn: its missing points are not a regression
        append_log(QString("%1 is a partial run (%2): only its finished points are here").arg(path, qs(d.partial)),
                   true);
      // Measured points the run flagged (unstable, noisy, held-up windows) are drawn like any
      // other: say how many, as the run said them, so a drop between two of them is read with care.
      // Several runs of one set-up in one file (appended CSVs): each curve joins them, a zig-zag at
      // each x, and the verdict is refused; said once here, with what to do.
      if (const std::string twice = repeated_point_label(d.points); !twice.empty())
        append_log(QString("%1 holds several runs of the same set-up (two points for %2): its curves join them at "
                           "each x and its verdict is refused; keep one run per file (or per host, 'bwlab merge')")
                       .arg(path, qs(twice)),
                   true);
      const auto flagged = std::count_if(d.points.begin(), d.points.end(), flagged_unsteady);
      if (flagged > 0)
        append_log(QString("%1: %2 of its %3 points are flagged unstable or noisy (ringed in red on the "
                           "plots; their flags: hover one, or the Table tab's flags column): read their differences with care")
                       .arg(path)
                       .arg(flagged)
                       .arg(d.points.size()),
                   true);
      // A file simulated on a known machine (a preset, or the machine a JSON file carries) brings
      // that machine's ceilings, topology and socket/SMT marks (the rule of bwlab plot --machine
      // auto), unless a machine is already shown. The run's add or update below redraws once.
      if (!ceilings_machine_ && !show_machine_of(d)) show_file_on_topology(d);
      if (same != runs_.end()) {
        same->data = std::move(d);
        sync_runs();
      } else {
        add_run(KeptRun{std::move(d), "file", true});
      }
    } catch (const std::exception& e) {
      // The title names the file: the reason without the reader's own "cannot read PATH: " (nor
      // the "PATH: " of a file that is not a bwlab file).
      QString why = e.what();
      for (const QString& again : {"cannot read " + path + ": ", path + ": "})
        if (why.startsWith(again)) why.remove(0, again.size());
      show_error("Cannot open " + QFileInfo(path).fileName(), why);
      sync_runs();
      return false;
    }
  }
  if (first && (view() == "threads" || view() == "size")) set_view(qs(auto_plot_kind(datasets_)));
  start_readable_plots();
  return true;
}

void MainWindow::start_readable_plots() {
  const std::string scenario = plot_scenario_->currentText().toStdString();
  for (PlotPanel* plot : {threads_plot_, size_plot_}) {
    if (filter_chosen_.count(plot) > 0) continue;
    const std::optional<double> start = crowded_plot_start(datasets_, plot->kind(), scenario);
    if (start == plot->only()) continue;
    plot->set_only(start);
    if (start) {
      const bool size = plot->kind() == PlotKind::size;
      append_log(QString("the %1 plot would draw %2 curves: it starts at the %3 ones (the %4 box above it shows "
                         "the rest)")
                     .arg(size ? "size" : "threads")
                     .arg(build_series(datasets_, plot->kind(), false, scenario).size())
                     .arg(size ? QString("%1-thread").arg(*start, 0, 'f', 0)
                               : qs(format_bytes(static_cast<std::uint64_t>(*start), " ")))
                     .arg(size ? "Threads" : "Size"));
    }
  }
  refresh_curve_filter();
}

void MainWindow::show_file_on_topology(const Dataset& d) {
  if (running_ || d.points.empty()) return;  // a live run owns the tab
  // The tab keeps this computer for a file of another one, titled as such: a bare "Machine
  // (local)" beside two imported Xeon files read as their machine, and said nothing.
  const Point& p = d.points.front();
  if (std::all_of(d.points.begin(), d.points.end(), [](const Point& q) { return q.source == "imported"; })) {
    show_this_machine_not(d.name, "the one " + d.name + "'s figures were measured on (an imported file holds no topology)");
    append_log(qs("the Topology tab shows this machine: " + d.name + " holds another tool's figures" +
                  (p.cpu_model.empty() ? std::string() : " (" + p.cpu_model + ")") + ", with no topology to draw"));
    return;
  }
  if (std::any_of(d.points.begin(), d.points.end(), [](const Point& q) { return q.source != "measured"; })) return;
  const std::string here = host_name();
  if (!all_measured_on({d}, here, cpu_.model_name)) {
    show_this_machine_not(d.name, p.host == here ? "the CPU " + d.name + " was measured on (" + p.cpu_model + ")"
                                  : p.host + ", which " + d.name + " was measured on");
    append_log(qs(fmt::format("the Topology tab shows this machine ({}); {} was measured on {}{}, so its threads' PUs "
                              "are not marked",
                              here, d.name, p.host,
                              p.host == here ? fmt::format(" with another CPU ({})", p.cpu_model) : "")));
    return;
  }
  // Titled with the file whose point it shows ("Machine (local)" named neither it nor the files of
  // other machines left out).
  TopoNode tree = topo_tree(Topology::local());
  tree.label = "This machine (local), where " + d.name + " was measured";
  topology_->set_tree(tree);
  topology_local_file_ = d.name;
  // PUs are coloured by GB/s: tlbflush rows (ns per munmap and per read) have none, and drew every
  // PU black under a GB/s scale. The last point with a GB/s is shown; none: this machine, unmarked.
  std::vector<Point> rated;
  std::copy_if(d.points.begin(), d.points.end(), std::back_inserter(rated),
               [](const Point& p) { return std::isfinite(p.gbps_median); });
  if (rated.empty()) {
    append_log(qs("the Topology tab shows this machine: " + d.name +
                  "'s points are tlbflush rows (ns per munmap and per read, no GB/s), so no PU is coloured"));
    return;
  }
  pu_scale_max_ = topology_->show_points(last_point_group(rated), max_thread_gbps(rated), kFileScaleNote);
  append_log(qs("the Topology tab shows " + d.name + "'s last point (" + point_words(rated.back()) +
                ") on this machine"));
}

void MainWindow::show_this_machine_not(const std::string& file, const std::string& not_what) {
  if (!topology_local_file_.empty()) {
    append_log(qs("the Topology tab keeps " + topology_local_file_ + "'s last point, measured on this machine (" + file +
                  " was not)"));
    return;
  }
  if (std::find(topology_elsewhere_.begin(), topology_elsewhere_.end(), file) == topology_elsewhere_.end())
    topology_elsewhere_.push_back(file);
  const std::vector<std::string>& f = topology_elsewhere_;
  std::string files;
  for (std::size_t i = 0; i < std::min<std::size_t>(f.size(), 3); ++i)
    files += (i == 0 ? "" : i + 1 == std::min<std::size_t>(f.size(), 3) && f.size() <= 3 ? " and " : ", ") + f[i];
  if (f.size() > 3) files += " and " + count_of(f.size() - 3, "more file");
  TopoNode tree = topo_tree(Topology::local());
  tree.label = "This machine (local), not " +
               (f.size() == 1 ? not_what : "the machines of " + files + " (their files hold no topology to draw)");
  topology_->set_tree(tree);
}

bool MainWindow::show_machine_of(const Dataset& d) {
  std::optional<MachineParams> m;
  try {
    m = model_machine_of({d});
    if (!m) {
      if (const std::string why = why_no_model_machine({d}); !why.empty()) {
        append_log(qs("no machine ceilings (DRAM, link): " + why));
        // The Topology tab still shows this computer: its title says so, not a bare "Machine (local)"
        // that read as the simulated server.
        show_this_machine_not(d.name, "the one " + d.name + " was simulated for (a CSV has no topology)");
        append_log(qs("the Topology tab shows this machine, not the one " + d.name + " was simulated for"));
      }
      return false;
    }
    set_machine(*m, Topology::from_spec(machine_topology(*m)));
  } catch (const std::exception& e) {  // e.g. a topology XML that is not on this computer
    append_log(qs("no ceilings for " + d.name + ": " + e.what()));
    return false;
  }
  append_log(qs("ceilings and topology of " + m->name + ", the machine " + d.name + " was simulated on" +
                (d.machine.empty() ? std::string(" (the preset as it is: a CSV does not record a --topology it was "
                                                 "simulated on; its JSON file does)")
                                   : std::string())));
  // Its last point placed on that machine, as a measured file's is on this one (the tab switched
  // to the server with every PU idle, the measured file's marks gone without a word).
  const std::vector<Point> group = last_point_group(d.points);
  const bool planned = !group.empty() && std::all_of(group.begin(), group.end(), [](const Point& p) {
    return p.source == "simulated" && !p.pus_planned.empty() &&
           std::all_of(p.pus_planned.begin(), p.pus_planned.end(), [](int pu) { return pu >= 0; });
  });
  if (!running_ && planned) {
    pu_scale_max_ = topology_->show_points(group, max_thread_gbps(d.points), kFileScaleNote);
    append_log(qs("the Topology tab shows " + d.name + "'s last point (" + point_words(group.back()) +
                  ", simulated) on " + m->name));
  } else if (!running_) {
    append_log(qs("the Topology tab shows " + m->name + " with no point placed (" + d.name +
                  "'s threads were not pinned: placement none)"));
  }
  return true;
}

bool MainWindow::save_points(const QString& path) {
  std::vector<Point> points;
  for (int row = 0; row < model_->rowCount(); ++row) points.push_back(model_->point(row));
  try {
    std::ostringstream out;
    if (path.endsWith(".json", Qt::CaseInsensitive)) {
      // This machine's identity only for this machine's measurements: simulated or opened points
      // were stamped with this host, CPU and topology, and lost the model machine they ran on.
      const std::string command = "bwlab-gui (saved from the results table)";
      const std::string here = host_name();
      RunInfo info;
      if (!points.empty() && std::all_of(points.begin(), points.end(), [&](const Point& p) {
            return p.source == "measured" && same_machine(p.host, p.cpu_model, here, cpu_.model_name);
          })) {
        const Topology local = Topology::local();
        info = describe_run(cpu_, command, local.summary());
        info.llc_bytes = local.llc_bytes(), info.llc_count = local.llc_count();
      } else {
        info.bwlab_version = kVersion;
        info.date = utc_now_iso8601();
        info.command_line = command;
        std::set<std::string> hosts, machines;
        for (const Point& p : points) hosts.insert(p.host);
        if (hosts.size() == 1) info.host = *hosts.begin();
        for (const Dataset& d : datasets_) machines.insert(d.machine);  // "" for a run without one
        const bool simulated = std::all_of(points.begin(), points.end(), [](const Point& p) { return p.source == "simulated"; });
        if (simulated && machines.size() == 1) info.machine = *machines.begin();  // its ceilings and topology come back
      }
      write_json(out, info, points);
    } else {
      write_csv(out, points);
    }
    write_file_atomically(path.toStdString(), out.str());
    append_log(QString("wrote %1 points to %2").arg(points.size()).arg(path));
    return true;
  } catch (const std::exception& e) {
    show_error("Cannot save", e.what());
    return false;
  }
}

bool MainWindow::export_plot(const QString& path) {
  QWidget* tab = tabs_->currentWidget();
  auto* plot = qobject_cast<PlotPanel*>(tab);
  if (!plot && tab) plot = tab->findChild<PlotPanel*>();  // a plot under its toolbar
  if (!plot) plot = threads_plot_;                        // the topology and the table are not plots
  QString error;
  try {  // the reason first ("/proc takes no new files"), not the renderer's "No such file or directory"
    check_writable(path.toStdString());
  } catch (const std::exception& e) {
    show_error("Cannot export", e.what());
    return false;
  }
  if (!plot->save(path, 1200, 720, &error)) {
    show_error("Cannot export", error);
    return false;
  }
  append_log("exported the plot to " + path);
  return true;
}

std::string MainWindow::unique_name(const std::string& name) const {
  const auto taken = [&](const std::string& n) {
    return std::any_of(runs_.begin(), runs_.end(), [&](const KeptRun& r) { return r.data.name == n; });
  };
  if (!taken(name)) return name;
  for (int i = 2;; ++i) {
    const std::string n = fmt::format("{} ({})", name, i);
    if (!taken(n)) return n;
  }
}

int MainWindow::add_run(KeptRun run) {
  run.data.name = unique_name(run.data.name);
  runs_.push_back(std::move(run));
  sync_runs();
  return static_cast<int>(runs_.size()) - 1;
}

void MainWindow::set_run_checked(int index, bool checked) {
  if (index < 0 || index >= static_cast<int>(runs_.size())) return;
  runs_[static_cast<std::size_t>(index)].checked = checked;
  sync_runs();
}

bool MainWindow::remove_run(int index) {
  if (index < 0 || index >= static_cast<int>(runs_.size())) return false;
  if (index == live_index_) {
    show_error("Cannot remove", "this run is in progress: press Stop first");
    return false;
  }
  append_log(QString("removed %1").arg(qs(runs_[static_cast<std::size_t>(index)].data.name)));
  runs_.erase(runs_.begin() + index);
  if (live_index_ > index) --live_index_;
  sync_runs();
  return true;
}

void MainWindow::rebuild_visible() {
  datasets_.clear();
  for (const KeptRun& r : runs_) {
    if (!r.checked) continue;
    Dataset d = r.data;
    // A run is named in the legend when it is a file, or when another visible run of the same
    // kind would otherwise draw look-alike curves (two measured runs; two simulated ones, the
    // what-if run and a Run of another machine among them); one measured beside one simulated run
    // keep the shared colours, solid and dashed.
    const auto simulated = [](const KeptRun& k) {
      return k.data.points.empty() ? k.origin == "simulated" || k.origin == "what-if"
                                   : k.data.points.front().source == "simulated";
    };
    const bool twin = std::any_of(runs_.begin(), runs_.end(), [&](const KeptRun& o) {
      return &o != &r && o.checked && (o.origin == r.origin || simulated(o) == simulated(r));
    });
    d.from_file = r.data.from_file || twin;
    datasets_.push_back(std::move(d));
  }
}

void MainWindow::sync_runs() {
  // A removed run no longer holds the Topology tab against the next file opened.
  if (std::none_of(runs_.begin(), runs_.end(), [&](const KeptRun& r) { return r.data.name == topology_local_file_; }))
    topology_local_file_.clear();
  rebuild_visible();
  follow_drawn_machine();
  model_->clear();
  for (const Dataset& d : datasets_) model_->append(d.name, d.points);
  const bool none_checked = !runs_.empty() && datasets_.empty();
  table_->set_empty_hint(runs_.empty()   ? kNoPointsHint
                         : none_checked ? "No run is checked: tick one in the Runs list"
                                        : "The checked runs hold no points yet");
  for (PlotPanel* p : {threads_plot_, size_plot_, heatmap_}) p->set_none_checked(none_checked);
  run_list_->set_runs(runs_);
  QTimer::singleShot(0, this, [this] { widen_for_run_names(); });  // once the list has laid out its rows
  compare_->set_runs(runs_);
  verdict_->set_runs(datasets_);
  refresh_plots();
}

QString MainWindow::view() const {
  const int i = tabs_->currentIndex();
  return i >= 0 && i < static_cast<int>(gui_views().size()) ? qs(gui_views()[static_cast<std::size_t>(i)]) : QString();
}

bool MainWindow::set_view(const QString& name) {
  const auto& v = gui_views();
  const auto it = std::find(v.begin(), v.end(), name.toStdString());
  if (it == v.end()) return false;
  tabs_->setCurrentIndex(static_cast<int>(it - v.begin()));
  return true;
}

Session MainWindow::session() const {
  Session s;
  s.runs = runs_;
  s.view = view().toStdString();
  s.rows = plot_scenario_->currentText().toStdString();
  s.per_thread = per_thread_->isChecked();
  s.log_y = log_y_->isChecked();
  s.threads_plot_size = threads_plot_->only();
  s.size_plot_threads = size_plot_->only();
  return s;
}

bool MainWindow::save_session(const QString& path) {
  try {
    bwlab::gui::save_session(path.toStdString(), session());
    append_log(QString("saved the session (%1 runs, view %2) to %3").arg(runs_.size()).arg(view(), path));
    return true;
  } catch (const std::exception& e) {
    show_error("Cannot save the session", e.what());
    return false;
  }
}

bool MainWindow::open_session(const QString& path) {
  try {
    Session s = load_session(path.toStdString());
    QStringList notes;
    for (KeptRun& r : s.runs) {
      r.data.name = unique_name(r.data.name);
      // A saved what-if run is kept as it was saved: the dock's next change makes a run of its own
      // (it replaced the saved one in place, the only kept run anything but Remove dropped).
      if (r.origin == "what-if") r.origin = "simulated";
      if (!r.data.partial.empty())
        notes << qs(fmt::format("{} is a partial run ({}): only its finished points are here", r.data.name,
                                r.data.partial));
      // As for an opened file: the first run simulated on a known machine brings that machine.
      if (!ceilings_machine_) show_machine_of(r.data);
      runs_.push_back(std::move(r));
    }
    per_thread_->setChecked(s.per_thread);
    log_y_->setChecked(s.log_y);
    sync_runs();
    if (plot_scenario_->findText(qs(s.rows)) >= 0) plot_scenario_->setCurrentText(qs(s.rows));
    threads_plot_->set_only(s.threads_plot_size);
    size_plot_->set_only(s.size_plot_threads);
    filter_chosen_ = {threads_plot_, size_plot_};  // the session's choice, "all" included
    set_view(qs(s.view));
    refresh_curve_filter();
    append_log(QString("opened the session %1: %2").arg(path, qs(count_of(s.runs.size(), "run"))));
    for (const QString& n : notes) append_log(n);
    return true;
  } catch (const std::exception& e) {
    show_error("Cannot open the session " + QFileInfo(path).fileName(), e.what());
    return false;
  }
}

bool MainWindow::open_demo(const QString& results_dir) {
  try {
    Demo demo = build_demo(results_dir.toStdString());
    int measured_threads = 0;  // demo.runs.front() is the measured run
    for (const Point& p : demo.runs.front().data.points) measured_threads = std::max(measured_threads, p.threads);
    for (KeptRun& r : demo.runs) add_run(std::move(r));
    show_machine_ceilings(*demo.machine, *demo.topology);
    if (demo.topology_point) {
      topology_->show_point(*demo.topology_point, demo.topology_scale,
                            demo.topology_scale > 0 ? "scale: up to what one thread alone gets" : QString());
      append_log(qs(demo.topology_note));
    }
    if (!demo.victim_note.empty()) append_log(qs(demo.victim_note));
    plot_scenario_->setCurrentText("scaling");
    // The size plot held 20 curves (the server's 8 thread counts, the VM's 2, two kernels) at two
    // sizes: it draws the measured run's largest thread count, like against like, and its
    // subtitle names the Threads box that shows the rest.
    if (measured_threads > 0) {
      size_plot_->set_only(double(measured_threads));
      filter_chosen_.insert(size_plot_);
    }
    set_view("threads");
    // The measured VM's 10-25 GB/s beside the server's 190: on a linear axis they were a tangle at
    // the bottom; a log axis gives both room (the box stays for the user to untick).
    set_log_y(true);
    // The panel shows what the plots do (it said Measure stosb, movnti, avx512-nt at 16M,1G
    // beside curves of stosb and avx512-nt at 32 and 256 MiB): Run measures that comparison here.
    if (!demo.panel_kernels.empty()) {
      RunRequest r = panel_->request();
      r.simulate = false;
      r.scenario = "scaling";
      r.kernels = qs(demo.panel_kernels);
      r.sizes = qs(demo.panel_sizes);
      panel_->set_request(r);
      append_log(QString("The panel is set to the measured run's kernels (%1) and sizes (%2): Run measures the same "
                         "comparison on this machine.")
                     .arg(qs(demo.panel_kernels), qs(demo.panel_sizes)));
    }
    append_log(qs(demo.story));  // last: the log shows its end
    return true;
  } catch (const std::exception& e) {
    show_error("Cannot open the demo", e.what());
    return false;
  }
}

void MainWindow::show_machine_ceilings(const MachineParams& machine, const Topology& topology) {
  set_machine(machine, topology);
  refresh_plots();
}

void MainWindow::set_machine(const MachineParams& machine, const Topology& topology) {
  topology_->set_tree(simulated_topo_tree(machine, topology));
  topology_local_file_.clear(), topology_elsewhere_.clear();
  topology_->set_pu_values({}, {});
  set_ceilings_machine(machine);
  set_marks_machine(machine);
  size_plot_->set_llc(machine.llc_bytes_per_package, qs("simulated " + machine.name));
}

void MainWindow::set_ceilings_machine(const MachineParams& m) {
  ceilings_machine_ = m;
  machine_lines_.clear();
}

const std::vector<Ceiling>& MainWindow::machine_lines(int threads) {
  // The LLC share per thread is that of the placement the machine's curves were simulated with.
  const std::string placement = shared_placement(datasets_, "model:" + ceilings_machine_->name);
  auto it = machine_lines_.find({threads, placement});
  if (it == machine_lines_.end())
    it = machine_lines_.emplace(std::pair{threads, placement}, machine_ceilings(*ceilings_machine_, threads, placement)).first;
  return it->second;
}

void MainWindow::set_marks_machine(const MachineParams& machine) {
  marks_topology_ = std::make_shared<const Topology>(Topology::from_spec(machine_topology(machine)));
  marks_host_ = "model:" + machine.name;
}

void MainWindow::shutdown_worker() {
  if (!worker_ || !worker_->isRunning()) return;
  controller_->request_stop();
  worker_->quit();
  worker_->wait();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  QSettings settings;
  panel_->save(settings);
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("plot/per_thread", per_thread_->isChecked());
  settings.setValue("plot/log_y", log_y_->isChecked());
  settings.setValue("view/text_scale", text_scale_);
  timer_.stop();
  shutdown_worker();  // a run in progress stops within one window's pass
  event->accept();
}

QString MainWindow::status_text() const { return status_->text(); }

void MainWindow::show_status(const QString& text) {
  status_->setText(text);
  status_->setToolTip({});  // a left-out labels' list belonged to the message this one replaces
}

}  // namespace bwlab::gui
