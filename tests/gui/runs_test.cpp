// SPDX-License-Identifier: MIT
// The GUI's kept runs, offscreen: the run list across runs, checkboxes, sessions, the ratio
// view, the verdict panel, the demo, the wheel guard, the form's words in the log, and the
// bwlab-gui command line (--help, bad options, --screenshot) run as a process. No test asserts
// a bandwidth figure or a duration (only a hang guard).
#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QStatusBar>
#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QRegularExpression>
#include <QSettings>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextEdit>
#include <QTextLayout>
#include <QTest>
#include <QTabWidget>
#include <QSplitter>
#include <QWheelEvent>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/insight/fleet.hpp"
#include "core/insight/verdict.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/model/uarch.hpp"
#include "core/sweep/parse.hpp"
#include "core/report/csv.hpp"
#include "core/report/json.hpp"
#include "core/report/units.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "gui/app/cli_options.hpp"
#include "gui/app/session.hpp"
#include "gui/app/text_scale.hpp"
#include "gui/app/compare_view.hpp"
#include "gui/app/elided_combo.hpp"
#include "gui/app/control_panel.hpp"
#include "gui/plots/crossover_marks.hpp"
#include "gui/plots/plot_marks.hpp"
#include "gui/app/demo.hpp"
#include "gui/plots/placement_marks.hpp"
#include "gui/app/form_wording.hpp"
#include "gui/app/main_window.hpp"
#include <QTableView>
#include "gui/app/results_model.hpp"
#include "gui/app/topology_view.hpp"
#include "gui/app/run_list.hpp"
#include "gui/app/verdict_panel.hpp"
#include "gui/plots/plot_panel.hpp"
#include "gui/plots/render.hpp"
#include "tests/support/child_process.hpp"
#include "tests/support/sample_point.hpp"

using namespace bwlab;
using namespace bwlab::gui;

namespace {

constexpr int kHangGuardMs = 60000;

Point point(const std::string& kernel, int threads, std::uint64_t size, double gbps, double spread) {
  Point p = testsupport::sample_point(kernel, size, threads, gbps, spread);
  p.traffic_class = kernel == "stosb" ? "write-allocate" : "non-temporal";
  p.host = "testhost";
  p.duration_ms = 100;
  p.pus = {0};
  return p;
}

// `kernel` at 16 MiB, threads 1..n, GB/s = scale x threads.
std::vector<Point> line(const std::string& kernel, int n, double scale) {
  std::vector<Point> out;
  for (int t = 1; t <= n; ++t) out.push_back(point(kernel, t, 16u << 20, scale * t, 0.1 * scale));
  return out;
}

// stosb against avx512-nt at 4 MiB and 1 GiB, 1 and 2 threads: NT clearly behind at 4 MiB and
// clearly ahead at 1 GiB (ranges apart), so the verdict has a crossover to report.
std::vector<Point> verdict_points() {
  std::vector<Point> out;
  for (int t : {1, 2}) {
    out.push_back(point("stosb", t, 4u << 20, 40.0 * t, 1));
    out.push_back(point("avx512-nt", t, 4u << 20, 20.0 * t, 1));
    out.push_back(point("stosb", t, 1u << 30, 10.0 * t, 0.5));
    out.push_back(point("avx512-nt", t, 1u << 30, 20.0 * t, 0.5));
  }
  return out;
}

// The skylake-x-8270cl preset (2 sockets x 26 cores) simulated, compact, at 16 MiB, 256 MiB, 1 GiB.
std::vector<Point> simulated_server(const std::vector<std::string>& kernels, const std::vector<int>& threads) {
  const MachineParams m = *load_machine("skylake-x-8270cl");
  SweepSpec spec;
  spec.kernels = kernels;
  spec.sizes = {16u << 20, 256u << 20, 1u << 30};
  spec.threads = threads;
  spec.fills = {Fill{}};
  spec.placement = parse_placement("compact");
  return simulate_sweep(spec, Topology::from_spec(machine_topology(m)), m);
}

QString write_csv_file(const QString& dir, const QString& name, const std::vector<Point>& points) {
  std::ostringstream s;
  write_csv(s, points);
  const QString path = dir + "/" + name;
  std::ofstream(path.toStdString()) << s.str();
  return path;
}

// stosb and movnti, 1 GiB a thread, pinned compact, on the machine's own topology.
std::vector<Point> simulate_compact(const MachineParams& m, std::vector<int> threads) {
  SweepSpec spec;
  spec.kernels = {"stosb", "movnti"};
  spec.sizes = {1u << 30};
  spec.threads = std::move(threads);
  spec.fills = {Fill{}};
  spec.placement = parse_placement("compact");
  return simulate_sweep(spec, Topology::from_spec(machine_topology(m)), m);
}

RunRequest tiny_simulation() {
  RunRequest r;
  r.simulate = true;
  r.machine = "skylake-x-8270cl";
  r.topology = "package:1 core:2 pu:1";
  r.kernels = "stosb";
  r.sizes = "16M";
  r.threads = "1,2";
  return r;
}

void run_and_wait(MainWindow& w, const RunRequest& r) {
  w.panel()->set_request(r);
  QSignalSpy done(&w, &MainWindow::runFinished);
  w.start_run();
  QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
  QCOMPARE(done.at(0).at(1).toString(), QString());
}

struct Result {
  int exit_code = -1;
  QString out, err;
};

// bwlab-gui as a user runs it; `display` false removes every way to reach a display. Run with
// fork/exec (tests/support/child_process.hpp), not QProcess: see there why.
Result run_gui(const QStringList& args, bool display = false) {
  std::vector<std::string> a;
  for (const QString& s : args) a.push_back(s.toStdString());
  const std::vector<std::string> unset =
      display ? std::vector<std::string>{} : std::vector<std::string>{"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"};
  const testsupport::ChildResult c =
      testsupport::run_child(BWLAB_GUI_BINARY, a, std::chrono::milliseconds(kHangGuardMs), unset);
  Result r;
  if (c.timed_out || c.term_signal != 0) return r;
  r.exit_code = c.exit_code;
  r.out = QString::fromStdString(c.out);
  r.err = QString::fromStdString(c.err);
  return r;
}

// The log and the threads plot's subtitle both say a run is partial (the subtitle: a screenshot
// passed on alone looked like a whole sweep).
void expect_said_partial(MainWindow& w, const QString& log_line, const QString& title_part) {
  QVERIFY2(w.log()->toPlainText().contains(log_line), qPrintable(w.log()->toPlainText()));
  w.set_view("threads");
  w.threads_plot()->replot_now();
  QVERIFY2(w.threads_plot()->title().contains(title_part), qPrintable(w.threads_plot()->title()));
}

}  // namespace

class RunsTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QSettings().clear(); }

  // A file simulated on a preset brings that machine to the Topology tab with its last point's
  // threads on their planned PUs, and the log says so (the tab switched to the server with every PU
  // idle, a measured file's marks gone without a word); unpinned threads are said to be unplaced.
  void a_simulated_file_places_its_last_point_on_its_machine() {
    QTemporaryDir dir;
    const std::vector<Point> pts = simulated_server({"stosb", "avx512-nt"}, {1, 4});
    const Point& last = pts.back();
    QCOMPARE(last.threads, 4);
    {
      MainWindow w;
      QVERIFY(w.open_files({write_csv_file(dir.path(), "server.csv", pts)}));
      const auto& values = w.topology_view()->pu_values();
      QCOMPARE(values.size(), std::size_t(4));
      for (int pu : last.pus_planned) QVERIFY2(values.count(pu) == 1, qPrintable(QString("PU %1 not marked").arg(pu)));
      QVERIFY2(w.log()->toPlainText().contains(
                   "the Topology tab shows server.csv's last point (avx512-nt 1 GiB 4T, simulated) on skylake-x-8270cl"),
               qPrintable(w.log()->toPlainText()));
      // The colour scale's rule is said: the file's fastest thread (stosb at 1 thread), not the
      // drawn point's, so its PUs read pale without a word.
      QVERIFY2(w.topology_view()->legend_text().contains("scale: up to the fastest thread at any of the file's points"),
               qPrintable(w.topology_view()->legend_text()));
    }
    std::vector<Point> unpinned = pts;
    for (Point& p : unpinned) p.pus_planned.assign(static_cast<std::size_t>(p.threads), -1), p.placement = "none";
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "unpinned.csv", unpinned)}));
    QVERIFY(w.topology_view()->pu_values().empty());
    QVERIFY2(w.log()->toPlainText().contains("the Topology tab shows skylake-x-8270cl with no point placed (unpinned.csv's "
                                             "threads were not pinned: placement none)"),
             qPrintable(w.log()->toPlainText()));
  }

  void run_list_keeps_every_run() {
    QTemporaryDir dir;
    MainWindow w;
    run_and_wait(w, tiny_simulation());
    QVERIFY(w.open_files({write_csv_file(dir.path(), "other.csv", line("movnti", 3, 5))}));
    run_and_wait(w, tiny_simulation());  // a second run: the first one stays
    QCOMPARE(w.runs().size(), std::size_t(3));
    QCOMPARE(w.run_list()->count(), 3);
    QCOMPARE(w.runs()[0].origin, std::string("simulated"));
    QCOMPARE(w.runs()[1].origin, std::string("file"));
    QCOMPARE(w.runs()[2].origin, std::string("simulated"));
    // An opened file's row says what the file holds (measured here; "file, simulated" for predictions).
    QVERIFY2(w.run_list()->list()->item(1)->text().endsWith("[file, measured, 3 points]"),
             qPrintable(w.run_list()->list()->item(1)->text()));
    QVERIFY(w.runs()[0].data.name != w.runs()[2].data.name);
    // A file of several hosts' runs (a fleet CSV) says how many.
    {
      std::vector<Point> fleet = line("movnti", 3, 5);
      fleet[0].host = "node7";
      QVERIFY(w.open_files({write_csv_file(dir.path(), "fleet.csv", fleet)}));
      QVERIFY2(w.run_list()->list()->item(3)->text().endsWith("[file, measured, 3 points, 2 hosts]"),
               qPrintable(w.run_list()->list()->item(3)->text()));
      QVERIFY(w.remove_run(3));
    }
    QCOMPARE(w.results()->rowCount(), 2 + 3 + 2);
    QCOMPARE(w.threads_plot()->data_point_count(), 2 + 3 + 2);
    QCOMPARE(w.threads_plot()->curve_count(), 3);
    // Removing is an explicit action, one run at a time.
    QVERIFY(w.remove_run(0));
    QCOMPARE(w.runs().size(), std::size_t(2));
    QCOMPARE(w.results()->rowCount(), 3 + 2);
  }

  // A run name wider than the list was cut at the right edge (and the end of the row,
  // "[file, 8 points]", scrolled out of sight): a row is now as wide as the list, elided in the
  // middle, and its tooltip holds the whole name.
  void a_long_run_name_is_elided_in_the_middle_with_a_tooltip() {
    const std::string name = "skylake-x-8270cl simulated, 2 sockets, stosb movnti avx512-nt 16M 1G threads 1..104 "
                              "placement compact membind local";
    KeptRun run{Dataset{name, {point("stosb", 1, 1u << 20, 10, 1)}, false}, "simulated", true};
    RunList list;
    list.resize(300, 200);
    list.set_runs({run});
    list.show();
    QVERIFY(QTest::qWaitForWindowExposed(&list));
    QListWidget* view = list.list();
    QListWidgetItem* item = view->item(0);
    QVERIFY(item->toolTip().startsWith(QString::fromStdString(name)));
    const int row_width = view->visualItemRect(item).width();
    QVERIFY2(row_width <= view->viewport()->width(),
             qPrintable(QString("row %1 px, list %2 px").arg(row_width).arg(view->viewport()->width())));
    QVERIFY(!view->horizontalScrollBar()->isVisible());
    QVERIFY(view->fontMetrics().horizontalAdvance(item->text()) > row_width);  // so it is elided,
    QCOMPARE(view->textElideMode(), Qt::ElideMiddle);                          // in the middle
    QVERIFY2(item->text().endsWith("[simulated, 1 point]"), qPrintable(item->text()));  // not "1 points"
    // As drawn: the name is elided, the tag that says simulated or measured stays whole (eliding
    // the whole row in its middle cut it: "twelve.json [fil…lated, 864 points]").
    // The count goes where the name would keep under half the row ("skylak…ockets   [simulated, 32
    // points]" at 1.5x text).
    const QString shown = list.shown_text(0);
    const QFontMetrics row_fm = view->fontMetrics();
    const bool whole_tag = shown.endsWith("   [simulated, 1 point]");
    QVERIFY2((whole_tag || shown.endsWith("   [simulated]")) && shown.contains(QChar(0x2026)) &&
                 shown.startsWith("skylake-x"),
             qPrintable(shown));
    QVERIFY2(!whole_tag || 2 * row_fm.horizontalAdvance(shown.left(shown.indexOf("   ["))) >= row_width - 40,
             qPrintable(shown));
    QVERIFY2(view->fontMetrics().horizontalAdvance(shown) <= row_width, qPrintable(shown));
    QVERIFY2(item->toolTip().contains("simulated run, 1 point\n"), qPrintable(item->toolTip()));

    // A name beside a long tag in a narrow list: the short tag, and the whole name (at 1.5x text
    // it read "si…on   [file, simulated, 20 points]").
    Point sim = point("stosb", 1, 1u << 20, 10, 1);
    sim.source = "simulated";
    const QFontMetrics fm = view->fontMetrics();
    const int room = view->visualItemRect(item).width() - 30;  // less than the text rect, surely
    QString name_fits = "s.json";
    while (fm.horizontalAdvance("x" + name_fits + "   [simulated]") < room) name_fits.prepend('x');
    QVERIFY(fm.horizontalAdvance(name_fits + "   [file, simulated, 20 points]") > room + 30);
    list.set_runs({KeptRun{Dataset{name_fits.toStdString(), std::vector<Point>(20, sim), false}, "file", true}});
    QCOMPARE(list.shown_text(0), name_fits + "   [simulated]");
    // Room for the count without "file": the count stays ("[imported]" hid a row's 48 points
    // beside its neighbours' "[file, imported, 40 points]").
    QString mid_fits = "s.json";
    while (fm.horizontalAdvance("x" + mid_fits + "   [simulated, 20 points]") < room) mid_fits.prepend('x');
    list.set_runs({KeptRun{Dataset{mid_fits.toStdString(), std::vector<Point>(20, sim), false}, "file", true}});
    // (the whole tag, "file, " wider, fits only if the text rect is that much wider than `room`)
    const QString with_count = list.shown_text(0);
    QVERIFY2(with_count == mid_fits + "   [simulated, 20 points]" ||
                 (with_count == mid_fits + "   [file, simulated, 20 points]" &&
                  fm.horizontalAdvance(with_count) <= room + 30),
             qPrintable(with_count));
    // Room for the whole tag: the whole tag.
    list.set_runs({KeptRun{Dataset{"s.json", std::vector<Point>(20, sim), false}, "file", true}});
    QCOMPARE(list.shown_text(0), QString("s.json   [file, simulated, 20 points]"));
    // A name that elides beside a file's tag: "file, " goes first, the count stays (the whole tag
    // was kept while the name lost its middle).
    view->setFixedWidth(600);  // room for the count and over half the row for the name
    QTest::qWait(0);
    list.set_runs({KeptRun{Dataset{name, std::vector<Point>(20, sim), false}, "file", true}});
    const QString elided = list.shown_text(0);
    QVERIFY2(elided.contains(QChar(0x2026)) && elided.endsWith("   [simulated, 20 points]"), qPrintable(elided));
    // At a fractional font size (13.5 pt: 1.5x text) the elided name and the tag, measured apart,
    // came to a fraction of a pixel over the row: the style elided it again ("lab-server…node…sv").
    {
      QFont big = view->font();
      big.setPointSizeF(13.5);
      view->setFont(big);
      list.set_runs({KeptRun{Dataset{"lab-server-east-rack-12-node-3.csv", line("stosb", 2, 5), false}, "file", true},
                     KeptRun{Dataset{"colleague-laptop-run.csv", line("stosb", 2, 5), false}, "file", true},
                     KeptRun{Dataset{name, line("stosb", 2, 5), false}, "simulated", true}});
      for (int w = 200; w <= 420; ++w) {
        view->setFixedWidth(w);
        for (int row = 0; row < 3; ++row)
          QVERIFY2(list.shown_text_fits(row), qPrintable(QString("%1 px: %2").arg(w).arg(list.shown_text(row))));
      }
      view->setFont(QFont());
      list.set_runs({KeptRun{Dataset{name, std::vector<Point>(20, sim), false}, "file", true}});
    }
    // A list too narrow for "…" beside the tag: the tag alone, elided at its end, within the row
    // (the style cut the row in its middle, mid-word).
    view->setFixedWidth(90);
    QTest::qWait(0);
    const QString narrow = list.shown_text(0);
    const int narrow_row = view->visualItemRect(view->item(0)).width();
    QVERIFY2(fm.horizontalAdvance(narrow) <= narrow_row && narrow.startsWith("[s"), qPrintable(narrow));
  }

  // Names that begin alike elided to the same text: "long-nam…rade.csv" stood for both the
  // zen4 run before a kernel upgrade and the zen5 one after it. An elided name now begins where it
  // parts from the others (at that word, after its own first word where there is room), so the
  // rows differ; a lone long name keeps its start.
  void names_that_begin_alike_elide_to_different_texts() {
    const std::string before = "long-named-measurement-from-the-zen4-guest-before-kernel-upgrade.csv",
                      fill = "long-named-measurement-from-the-zen4-guest-with-nonzero-fill.csv",
                      after = "long-named-measurement-from-the-zen5-guest-after-kernel-upgrade.csv";
    RunList list;
    list.resize(260, 200);
    list.set_runs({KeptRun{Dataset{before, line("stosb", 2, 5), false}, "file", true},
                   KeptRun{Dataset{fill, line("stosb", 2, 5), false}, "file", true},
                   KeptRun{Dataset{after, line("stosb", 2, 5), false}, "file", true},
                   KeptRun{Dataset{"simulated-cascadelake-prediction-for-the-eighteen-core-socket.csv",
                                   line("stosb", 2, 5), false},
                           "simulated", true}});
    list.show();
    QVERIFY(QTest::qWaitForWindowExposed(&list));
    for (int w : {200, 260, 340}) {
      list.list()->setFixedWidth(w);
      QTest::qWait(0);
      QStringList names;
      for (int row = 0; row < 4; ++row) {
        const QString shown = list.shown_text(row);
        QVERIFY2(list.shown_text_fits(row) && shown.contains(QChar(0x2026)), qPrintable(shown));
        names << shown.section("   [", 0, 0);
      }
      QVERIFY2(QSet<QString>(names.begin(), names.end()).size() == 4, qPrintable(names.join(" | ")));
      // Their first word in front where the room allows ("long…before-k…"), else none ("…before-k…").
      for (int row = 0; row < 3; ++row)
        QVERIFY2(names[row].startsWith(QChar(0x2026)) || names[row].startsWith(QString("long") + QChar(0x2026)),
                 qPrintable(names[row]));
      if (w == 340) QVERIFY2(names[0].startsWith(QString("long") + QChar(0x2026)), qPrintable(names[0]));
      QVERIFY2(names[0].contains(QString(QChar(0x2026)) + "bef"), qPrintable(names[0]));  // at the word they part
      QVERIFY2(names[2].contains(QString(QChar(0x2026)) + "zen5"), qPrintable(names[2]));
      QVERIFY2(names[3].startsWith("simul"), qPrintable(names[3]));  // shares no start: elided in its middle
    }
  }

  // At 1024x768 with 1.5x text the plot bar squeezed the Rows box to "scalir": it keeps its width
  // (the bar's hint gives way).
  void the_rows_box_shows_its_scenario_whole_in_a_small_window_with_large_text() {
    QTemporaryDir dir;
    MainWindow w;
    w.set_text_scale(1.5);
    w.resize(1024, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_files({write_csv_file(dir.path(), "a.csv", line("stosb", 2, 10))}));
    QVERIFY(w.set_view("size"));  // its box: "2 threads"
    auto* rows = w.findChild<QComboBox*>("plot_scenario");
    QVERIFY(rows);
    QTRY_VERIFY2_WITH_TIMEOUT(rows->width() >= rows->sizeHint().width(),
                              qPrintable(QString("%1 px for %2").arg(rows->width()).arg(rows->sizeHint().width())),
                              kHangGuardMs);
    w.set_text_scale(1);  // the application's font is the window's: undone for the next test
  }

  void unchecking_a_run_hides_its_curves() {
    QTemporaryDir dir;
    MainWindow w;
    // The empty Table tab says why (it was column headers over a blank grid).
    QCOMPARE(w.results_table()->shown_hint(), QString("No points yet: press Run, or open a CSV (File > Open)"));
    QVERIFY(w.open_files({write_csv_file(dir.path(), "a.csv", line("stosb", 4, 10)),
                          write_csv_file(dir.path(), "b.csv", line("movnti", 4, 5))}));
    QCOMPARE(w.threads_plot()->curve_count(), 2);
    w.run_list()->set_checked(0, false);  // as a click on the checkbox
    QVERIFY(!w.runs()[0].checked);
    QCOMPARE(w.threads_plot()->curve_count(), 1);
    QCOMPARE(w.threads_plot()->data_point_count(), 4);
    QCOMPARE(w.results()->rowCount(), 4);
    QCOMPARE(w.runs().size(), std::size_t(2));  // hidden, not thrown away
    QVERIFY(w.results_table()->shown_hint().isEmpty());
    w.run_list()->set_checked(1, false);
    QCOMPARE(w.results()->rowCount(), 0);
    QCOMPARE(w.results_table()->shown_hint(), QString("No run is checked: tick one in the Runs list"));
    // The plots and the heat map say the same (they said "No points yet: press Run").
    for (PlotPanel* p : {w.threads_plot(), w.size_plot(), w.heatmap()})
      QCOMPARE(p->empty_message(), QString("No run is checked: tick one in the Runs list"));
    w.run_list()->set_checked(1, true);
    w.run_list()->set_checked(0, true);
    QCOMPARE(w.threads_plot()->curve_count(), 2);
  }

  void session_round_trips_runs_and_view() {
    QTemporaryDir dir;
    const QString session = dir.path() + "/lab.json";
    {
      MainWindow w;
      QVERIFY(w.open_files({write_csv_file(dir.path(), "a.csv", line("stosb", 4, 10)),
                            write_csv_file(dir.path(), "b.csv", line("movnti", 3, 5))}));
      w.set_run_checked(1, false);
      w.set_per_thread(true);
      w.set_log_y(true);
      QVERIFY(w.set_view("size"));
      QVERIFY(w.save_session(session));
    }
    std::ifstream in(session.toStdString());
    std::stringstream text;
    text << in.rdbuf();
    QVERIFY2(text.str().find(dir.path().toStdString()) == std::string::npos, "a session names no machine path");
    MainWindow w2;
    QVERIFY(w2.open_session(session));
    QCOMPARE(w2.runs().size(), std::size_t(2));
    QCOMPARE(w2.runs()[0].data.name, std::string("a.csv"));
    QCOMPARE(w2.runs()[1].data.name, std::string("b.csv"));
    QVERIFY(w2.runs()[0].checked);
    QVERIFY(!w2.runs()[1].checked);
    QCOMPARE(w2.runs()[1].data.points.size(), std::size_t(3));
    QCOMPARE(w2.runs()[1].data.points[2].gbps_median, 15.0);
    QCOMPARE(w2.runs()[1].data.points[2].kernel, std::string("movnti"));
    QCOMPARE(w2.view(), QString("size"));
    QVERIFY(w2.threads_plot()->per_thread());
    // The per-thread figure is the median thread's, said so (a drop at the SMT siblings read as a cliff).
    w2.threads_plot()->replot_now();
    QVERIFY2(w2.threads_plot()->title().contains("per-thread GB/s") &&
                 w2.threads_plot()->title().contains("(the median thread's; median of"),
             qPrintable(w2.threads_plot()->title()));
    QVERIFY(w2.threads_plot()->log_y() && w2.size_plot()->log_y());
    QCOMPARE(w2.threads_plot()->curve_count(), 1);
    // A file that is not a session is refused with its name; nothing changes.
    const QString bad = write_csv_file(dir.path(), "not-a-session.json", line("stosb", 1, 1));
    QVERIFY(!w2.open_session(bad));
    QVERIFY(w2.last_error().contains("not-a-session.json"));
    QCOMPARE(w2.runs().size(), std::size_t(2));
    // Each given where the other goes: a points file as a session, a session as a file, says how to open it.
    {
      std::ostringstream points;
      write_json(points, RunInfo{}, line("stosb", 1, 1));
      const QString p = dir.path() + "/points.json";
      std::ofstream(p.toStdString()) << points.str();
      QVERIFY(!w2.open_session(p));
      QVERIFY2(w2.last_error().contains("it is a points file (bwlab run/simulate --json): open it as a file, 'bwlab-gui "
                                        "FILE' or File > Open CSV/JSON..."),
               qPrintable(w2.last_error()));
      QVERIFY(!w2.open_files({session}));
      QVERIFY2(w2.last_error().contains("it is a bwlab-gui session: open it with 'bwlab-gui --session FILE' or File > "
                                        "Open session..."),
               qPrintable(w2.last_error()));
    }
    // An edited session: a view --view refuses is refused here too (it loaded and showed the
    // threads plot), a missing key and an empty file are said without the JSON library's tag.
    std::ifstream again(session.toStdString());
    std::stringstream saved;
    saved << again.rdbuf();
    const auto edited = [&](const std::string& name, const std::string& text) {
      const QString p = dir.path() + "/" + QString::fromStdString(name);
      std::ofstream(p.toStdString()) << text;
      QVERIFY(!w2.open_session(p));
      QVERIFY2(!w2.last_error().contains("json.exception"), qPrintable(w2.last_error()));
    };
    nlohmann::json doc = nlohmann::json::parse(saved.str());
    doc["view"] = "nonsense";
    edited("view.json", doc.dump());
    QVERIFY2(w2.last_error().contains("\"view\": 'nonsense' is not a view (one of threads, size, heatmap"),
             qPrintable(w2.last_error()));
    doc = nlohmann::json::parse(saved.str());
    doc.erase("runs");
    edited("no-runs.json", doc.dump());
    QVERIFY2(w2.last_error().contains("not a valid session: key 'runs' not found"), qPrintable(w2.last_error()));
    edited("empty.json", "");
    QVERIFY2(w2.last_error().contains("not a valid session: the file is empty"), qPrintable(w2.last_error()));
    QCOMPARE(w2.runs().size(), std::size_t(2));
  }

  void ratio_view_divides_matched_points() {
    QTemporaryDir dir;
    MainWindow w;
    std::vector<Point> faster = line("stosb", 4, 20);
    faster.pop_back();  // 3 points in NEW, 4 in BASE: one only in base
    faster[1].flags = {"noisy: 3 of 3 windows disturbed (worst: thread 1 got only 30% of the window's CPU time)"};
    QVERIFY(w.open_files({write_csv_file(dir.path(), "base.csv", line("stosb", 4, 10)),
                          write_csv_file(dir.path(), "new.csv", faster)}));
    w.compare_view()->choose(0, 1);
    const auto& c = w.compare_view()->comparison();
    QVERIFY(c.has_value());
    QCOMPARE(c->matched.size(), std::size_t(3));
    QCOMPARE(c->only_base.size(), std::size_t(1));
    QCOMPARE(c->improvements, 3);
    QTableWidget* t = w.compare_view()->table();
    QCOMPARE(t->rowCount(), 3);
    for (int r = 0; r < 3; ++r) {
      QCOMPARE(t->item(r, 6)->text(), QString("2.000"));
      QCOMPARE(t->item(r, 7)->text().left(8), QString("improved"));
      // The row whose new point was measured in disturbed windows says so, as bwlab compare does.
      QCOMPARE(t->item(r, 7)->text().endsWith(" [flagged: new]"), r == 1);
    }
    QVERIFY2(w.compare_view()->summary().contains("1 of 3 rows end [flagged: ...]: a point there was flagged unstable "
                                                  "or noisy by its run"),
             qPrintable(w.compare_view()->summary()));
    // A simulated run against the measured one (an overlay) is matched on every other parameter.
    std::vector<Point> predicted = line("stosb", 4, 5);
    for (Point& p : predicted) p.source = "simulated";
    QVERIFY(w.open_files({write_csv_file(dir.path(), "sim.csv", predicted)}));
    w.compare_view()->choose(0, 2);
    QVERIFY(w.compare_view()->comparison().has_value());
    QCOMPARE(w.compare_view()->comparison()->matched.size(), std::size_t(4));
    QCOMPARE(t->item(0, 6)->text(), QString("0.500"));
    QVERIFY(t->item(0, 7)->text().startsWith("[prediction] "));
    // A prediction whose band holds the measurement: the model's band, not a noise, as `bwlab
    // compare` says it (the Runs tab said "[prediction] within noise").
    std::vector<Point> banded = line("stosb", 4, 12);
    for (Point& p : banded) p.source = "simulated", p.gbps_min = p.gbps_median / 1.6, p.gbps_max = p.gbps_median * 1.6;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "banded.csv", banded)}));
    w.compare_view()->choose(0, 3);
    QVERIFY(w.compare_view()->comparison().has_value());
    QCOMPARE(w.compare_view()->comparison()->matched.front().change, Change::within_noise);
    QVERIFY2(t->item(0, 7)->text().startsWith("[prediction] within the model bands (+20.0%)"),
             qPrintable(t->item(0, 7)->text()));
    w.compare_view()->choose(0, 2);
    // Matched by core, as `bwlab compare` matches them: its note says how.
    QVERIFY2(w.compare_view()->summary().contains("The run compared with is simulated, the base run measured: points "
                                                  "matched on every parameter but the source"),
             qPrintable(w.compare_view()->summary()));
    // Another machine's run: judged as `bwlab compare` judges it (exit 3 there), the row and the
    // summary saying the change includes the machine.
    std::vector<Point> other = line("stosb", 4, 5);
    for (Point& p : other) p.host = "another-host";
    QVERIFY(w.open_files({write_csv_file(dir.path(), "other.csv", other)}));
    w.compare_view()->choose(0, 4);
    QVERIFY(w.compare_view()->comparison().has_value());
    QVERIFY(w.compare_view()->comparison()->different_hosts);
    QCOMPARE(w.compare_view()->comparison()->regressions, 4);
    // Between two machines nothing "regressed": the row says which side is lower.
    for (int r = 0; r < 4; ++r) QVERIFY2(t->item(r, 7)->text().startsWith("LOWER (other machine)"),
                                         qPrintable(t->item(r, 7)->text()));
    QVERIFY2(w.compare_view()->summary().contains("4 lower, 0 higher") &&
                 w.compare_view()->summary().contains("from different hosts") &&
                 w.compare_view()->summary().contains("the change includes the machine"),
             qPrintable(w.compare_view()->summary()));
  }

  // One run kept: the Compare boxes showed it against itself beside "Keep two runs". The "with" box
  // is empty and both are disabled until a second run comes; then the newest is compared with it.
  // Runs whose names begin alike: the Compare boxes cut them at their right edge, both
  // "measured-on-the-zen4"; they show the first word and where the names part, the whole in the tooltip.
  void compare_boxes_tell_runs_that_begin_alike_apart() {
    QTemporaryDir dir;
    MainWindow w;
    const QString before = "measured-on-the-zen4-guest-before-the-kernel-upgrade.csv",
                  after = "measured-on-the-zen4-guest-after-the-kernel-upgrade.csv";
    QVERIFY(w.open_files({write_csv_file(dir.path(), before, line("stosb", 4, 10)),
                          write_csv_file(dir.path(), after, line("stosb", 4, 20)),
                          write_csv_file(dir.path(), "b.csv", line("stosb", 4, 20))}));
    auto* base = w.compare_view()->findChild<QComboBox*>("compare_base");
    QVERIFY(base);
    QCOMPARE(base->itemText(0), QString("measured…before-the-kernel-upgrade.csv"));
    QCOMPARE(base->itemText(1), QString("measured…after-the-kernel-upgrade.csv"));
    QCOMPARE(base->itemText(2), QString("b.csv"));
    QCOMPARE(base->itemData(0, Qt::ToolTipRole).toString(), before);
    // The choice survives a new run (matched by the whole name).
    w.compare_view()->choose(1, 0);
    QVERIFY(w.open_files({write_csv_file(dir.path(), "c.csv", line("stosb", 4, 30))}));
    QCOMPARE(base->currentIndex(), 1);
  }

  // A long run name beside a short one at 1280x800 with 1.5x text: the "with" box was cut at its
  // right edge mid-word ("zen4-guest-measurement-run-on-tl"), the date that told the runs apart
  // gone. The two boxes share the row, and a name wider than its box is elided in the middle; the
  // tooltip names it whole.
  void compare_boxes_share_the_row_and_elide_long_names() {
    QTemporaryDir dir;
    MainWindow w;
    const QString lng = "zen4-guest-measurement-run-on-the-lab-server-with-a-very-long-descriptive-name-2026-12-01.csv";
    QVERIFY(w.open_files({write_csv_file(dir.path(), "s2.csv", line("stosb", 4, 10)),
                          write_csv_file(dir.path(), lng, line("stosb", 4, 20))}));
    w.set_text_scale(1.5);
    w.resize(1280, 800);
    w.set_view("runs");
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* base = w.compare_view()->findChild<ElidedComboBox*>("compare_base");
    auto* with = w.compare_view()->findChild<ElidedComboBox*>("compare_new");
    QVERIFY(base && with);
    QCOMPARE(with->currentText(), lng);
    QTRY_VERIFY2_WITH_TIMEOUT(std::abs(base->width() - with->width()) <= 2,
                              qPrintable(QString("base %1 px, with %2 px").arg(base->width()).arg(with->width())),
                              kHangGuardMs);
    const QString shown = with->shown_text();
    QVERIFY2(shown.contains(QChar(u'…')) && shown.startsWith("zen4-") && shown.endsWith("12-01.csv"), qPrintable(shown));
    QCOMPARE(base->shown_text(), QString("s2.csv"));
    QCOMPARE(with->itemData(with->currentIndex(), Qt::ToolTipRole).toString(), lng);
  }

  void compare_with_one_run_offers_no_pair() {
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "base.csv", line("stosb", 4, 10))}));
    auto* base = w.compare_view()->findChild<QComboBox*>("compare_base");
    auto* with = w.compare_view()->findChild<QComboBox*>("compare_new");
    QVERIFY(base && with);
    QCOMPARE(with->currentIndex(), -1);
    QVERIFY(!base->isEnabled() && !with->isEnabled());
    QVERIFY(w.compare_view()->summary().startsWith("Keep two runs"));
    QVERIFY(!w.compare_view()->comparison().has_value());
    QVERIFY(w.open_files({write_csv_file(dir.path(), "new.csv", line("stosb", 4, 20))}));
    QVERIFY(base->isEnabled() && with->isEnabled());
    QCOMPARE(base->currentIndex(), 0);
    QCOMPARE(with->currentIndex(), 1);
    QVERIFY(w.compare_view()->comparison().has_value());
  }

  // Points the run flagged unstable or noisy were drawn and logged like the others: the log says
  // how many, so a drop between two of them is not read as a collapse.
  void opening_flagged_points_says_how_many() {
    QTemporaryDir dir;
    MainWindow w;
    std::vector<Point> pts = line("stosb", 4, 10);
    pts[1].flags = {"unstable: 48.0% pstdev of GB/s over 3 reps, try --reps 7 or a longer --duration"};
    pts[2].flags = {"noisy: 2 of 3 windows disturbed"};
    QVERIFY(w.open_files({write_csv_file(dir.path(), "flagged.csv", pts)}));
    QVERIFY2(w.log()->toPlainText().contains("flagged.csv: 2 of its 4 points are flagged unstable or noisy"),
             qPrintable(w.log()->toPlainText()));
    QVERIFY(w.open_files({write_csv_file(dir.path(), "clean.csv", line("stosb", 4, 10))}));
    QCOMPARE(w.log()->toPlainText().count("are flagged unstable or noisy"), 1);  // none for clean.csv
    QVERIFY(!w.log()->toPlainText().contains("holds several runs"));
    // Two runs of one set-up in one file (appended CSVs) drew zig-zag curves with no word; the Runs
    // tab refused its verdict, then advised measuring the kernels the file has.
    std::vector<Point> twice = line("stosb", 2, 10);
    for (const Point& p : line("movnti", 2, 5)) twice.push_back(p);
    for (const Point& p : std::vector<Point>(twice)) twice.push_back(p);
    QVERIFY(w.open_files({write_csv_file(dir.path(), "twice.csv", twice)}));
    QVERIFY2(w.log()->toPlainText().contains("twice.csv holds several runs of the same set-up (two points for stosb "),
             qPrintable(w.log()->toPlainText()));
    const std::string text = verdict_text({Dataset{"twice.csv", twice, true}});
    QVERIFY2(text.find("no verdict: two points for") != std::string::npos, text.c_str());
    QVERIFY2(text.find("Measure or simulate") == std::string::npos, text.c_str());
  }

  // A fleet CSV (bwlab merge) of two other hosts whose 16 MiB rows fit in the 64 MiB caches their
  // runs recorded: the Runs tab judged them by this machine's cache, as `bwlab verdict` did before
  // it read the recorded ones ("keep the cacheable stosb for large clears" from in-cache rows).
  void a_fleet_file_s_hosts_are_judged_by_the_caches_their_runs_recorded() {
    QTemporaryDir dir;
    std::vector<FleetRow> rows;
    for (const char* host : {"nodeA", "nodeB"}) {
      std::vector<Point> pts = line("stosb", 2, 10);
      for (const Point& p : line("movnti", 2, 5)) pts.push_back(p);
      for (Point& p : pts) {
        p.host = host;
        CpuIdentity cpu;
        cpu.vendor = "GenuineIntel", cpu.family = 6, cpu.model = 85;
        cpu.llc_bytes = 64u << 20, cpu.llc_count = 1;
        rows.push_back(FleetRow{cpu, p});
      }
    }
    const std::string file = (dir.path() + "/fleet.csv").toStdString();
    {
      std::ofstream out(file);
      write_fleet_csv(out, rows);
    }
    const Dataset d = load_dataset(file);
    QCOMPARE(d.recorded_llc.size(), std::size_t(2));
    const std::string text = verdict_text({d});
    for (const char* host : {"nodeA", "nodeB"})
      QVERIFY2(text.find(fmt::format("every row judged fits in {}'s last-level cache (64MiB, as its run recorded it)",
                                     host)) != std::string::npos,
               text.c_str());
    QVERIFY2(text.find("for large clears") == std::string::npos, text.c_str());
    // Each host's call names its host (the two read as one call said twice).
    const std::vector<std::string> calls = verdict_view({d}).calls;
    QCOMPARE(calls.size(), std::size_t(2));
    QVERIFY2(calls[0].rfind("fleet.csv (nodeA): stosb vs movnti: ", 0) == 0, calls[0].c_str());
    QVERIFY2(calls[1].rfind("fleet.csv (nodeB): stosb vs movnti: ", 0) == 0, calls[1].c_str());
    // A saved session keeps them: the same verdict after a restore.
    Session session;
    session.runs.push_back(KeptRun{d, "file", true});
    const Session back = session_from_json(session_to_json(session));
    QCOMPARE(back.runs.size(), std::size_t(1));
    QVERIFY(back.runs[0].data.recorded_llc == d.recorded_llc);
    QCOMPARE(verdict_text({back.runs[0].data}), text);
  }

  // A JSON run marked partial said nothing in the GUI (its Compare called the missing points'
  // neighbours regressions); a .json file that is not JSON gave a raw parser error.
  // A spec sheet names no CPU, but its microarchitecture names a vendor: a cascadelake-sp sheet's
  // prediction against a run measured on an AMD EPYC read as the model's error ("apart from the
  // model"); the view says what bwlab compare says: another machine, both named.
  void a_spec_sheet_of_another_vendor_is_another_machine() {
    QTemporaryDir dir;
    MainWindow w;
    model::SpecSheet sheet;
    sheet.uarch = "cascadelake-sp", sheet.cores = 18, sheet.smt = 2, sheet.channels = 6, sheet.mts = 2666;
    sheet.llc_bytes = 24u << 20;
    const MachineParams m = model::machine_from_spec(sheet);
    std::ostringstream machine;
    write_machine_json(machine, m);
    RunInfo run;
    run.machine = machine.str();
    std::vector<Point> predicted = line("stosb", 2, 5);
    for (Point& p : predicted) p.source = "simulated", p.host = "model:" + m.name, p.cpu_model = m.name, p.reps = 0;
    const QString sim = dir.path() + "/sim.json";
    {
      std::ofstream out(sim.toStdString());
      write_json(out, run, predicted);
    }
    std::vector<Point> measured = line("stosb", 2, 10);
    for (Point& p : measured) p.cpu_model = "AMD EPYC 9654 96-Core Processor";
    QVERIFY(w.open_files({write_csv_file(dir.path(), "epyc.csv", measured), sim}));
    w.compare_view()->choose(0, 1);
    QVERIFY(w.compare_view()->comparison().has_value());
    const Comparison& c = *w.compare_view()->comparison();
    QCOMPARE(c.model_below + c.model_above, 0);
    QCOMPARE(c.other_below + c.other_above, 2);
    QVERIFY2(w.compare_view()->summary().contains("was measured on AMD EPYC 9654 96-Core Processor; machine " +
                                                  QString::fromStdString(m.name) + " is a cascadelake-sp spec sheet (Intel)"),
             qPrintable(w.compare_view()->summary()));
  }

  void partial_runs_and_non_json_files_are_named() {
    QTemporaryDir dir;
    MainWindow w;
    RunInfo run;
    run.partial = true, run.partial_reason = "interrupted by SIGINT after 2 finished points";
    const QString part = dir.path() + "/part.json";
    {
      std::ofstream out(part.toStdString());
      write_json(out, run, line("stosb", 2, 10));
    }
    QVERIFY(w.open_files({part}));
    const QString json_log =
        "part.json is a partial run (interrupted by SIGINT after 2 finished points): only its finished points are here";
    const QString json_title = "Partial run part.json: interrupted by SIGINT after 2 finished points.";
    expect_said_partial(w, json_log, json_title);
    if (QTest::currentTestFailed()) return;
    // A session keeps it (saved and opened again, the subtitle and the log had lost it).
    {
      const QString session = dir.path() + "/part-session.json";
      QVERIFY(w.save_session(session));
      MainWindow s;
      QVERIFY(s.open_session(session));
      expect_said_partial(s, json_log, json_title);
      if (QTest::currentTestFailed()) return;
    }
    // A CSV has no run record: the flag `run` puts on its last finished point says it.
    {
      MainWindow v;
      std::vector<Point> pts = line("stosb", 2, 10);
      pts.back().flags.push_back("run interrupted by SIGINT after this point: 2 of 4 finished, the sweep is incomplete");
      QVERIFY(v.open_files({write_csv_file(dir.path(), "part.csv", pts)}));
      expect_said_partial(v, "part.csv is a partial run (interrupted by SIGINT: 2 of 4 finished, the sweep is incomplete)",
                          "Partial run part.csv: interrupted by SIGINT: 2 of 4 finished");
      if (QTest::currentTestFailed()) return;
    }
    const QString text = dir.path() + "/x.json";
    std::ofstream(text.toStdString()) << "source,scenario\n";
    QVERIFY(!w.open_files({text}));
    QVERIFY2(w.last_error().contains("not JSON (a .json file that does not start with '{')"), qPrintable(w.last_error()));
  }

  void verdict_panel_wraps_sentences_and_keeps_table_columns() {
    // At 1280x800 the recommendation ran off the pane's edge: sentences wrap, table rows do not.
    QVERIFY(verdict_table_row("threads  sizes  reps  crossover (NT overtakes, by medians)"));
    QVERIFY(verdict_table_row("[prediction] 1        2      model  none in range (up to 256MiB)"));
    QVERIFY(!verdict_table_row("[prediction]   32MiB: avx512-nt is level with stosb at 2 threads (1T NT behind)"));
    QVERIFY(!verdict_table_row("  256MiB: none: NT behind at every judged thread count"));
    QVERIFY(!verdict_table_row("Recommendation: NT slow. movnti stays behind stosb beyond the noise"));
    VerdictPanel panel;
    panel.resize(600, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const std::vector<Dataset> runs = {Dataset{"pair.csv", verdict_points(), true}};
    panel.set_runs(runs);
    QCOMPARE(panel.text(), QString::fromStdString(verdict_text(runs)));  // the same text, to the last newline
    auto* edit = panel.findChild<QTextEdit*>("verdict_text");
    QVERIFY(edit);
    QApplication::processEvents();
    int wrapped_sentences = 0, tables = 0;
    for (QTextBlock b = edit->document()->begin(); b.isValid(); b = b.next()) {
      const QString t = b.text();
      QVERIFY2(b.layout()->lineCount() >= 1, qPrintable(t));
      if (verdict_table_row(t.toStdString())) {
        ++tables;
        QVERIFY2(b.layout()->lineCount() == 1, qPrintable(t));
      } else if (t.startsWith("Recommendation:")) {
        wrapped_sentences += b.layout()->lineCount() > 1;
        for (int i = 0; i < b.layout()->lineCount(); ++i)  // every line of it within the pane
          QVERIFY2(b.layout()->lineAt(i).naturalTextWidth() <= edit->viewport()->width(), qPrintable(t));
      }
    }
    QVERIFY(tables >= 3);  // the header and the rows at 1 and 2 threads
    QCOMPARE(wrapped_sentences, 1);
    QVERIFY2(edit->horizontalScrollBar()->maximum() > 0, "the table is wider than 600 px: it scrolls sideways");
  }

  void verdict_panel_prints_bwlab_verdict() {
    QTemporaryDir dir;
    const std::vector<Point> points = verdict_points();
    std::ostringstream expected;
    print_verdicts(expected, compute_verdicts(points));
    QVERIFY(expected.str().find("stosb (write-allocate) vs avx512-nt (non-temporal)") != std::string::npos);
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "pair.csv", points)}));
    const QString text = w.verdict_panel()->text();
    QVERIFY2(text.contains("== pair.csv =="), qPrintable(text));
    QVERIFY2(text.contains(QString::fromStdString(form_wording(expected.str()))), qPrintable(text));
    QVERIFY(text.contains("Recommendation"));
    // The call in one line above the text (the Recommendation sat below the preamble and tables).
    const auto verdicts = compute_verdicts(points);
    QCOMPARE(verdicts.size(), std::size_t(1));
    const QString call = QString("pair.csv: stosb vs avx512-nt: %1").arg(to_string(verdicts[0].recommendation));
    QVERIFY2(w.verdict_panel()->calls().contains(call), qPrintable(w.verdict_panel()->calls() + " | " + call));
    QVERIFY2(text.contains(QString("Recommendation: %1").arg(to_string(verdicts[0].recommendation))), qPrintable(text));
    // A run whose points cannot be judged (two runs appended in one file) is named among the calls
    // too: it was missing from them, its reason only in the text and the log.
    std::vector<Point> twice = points;
    for (const Point& p : points) twice.push_back(p);
    QVERIFY(w.open_files({write_csv_file(dir.path(), "twice.csv", twice)}));
    QVERIFY2(w.verdict_panel()->calls().contains("twice.csv: no call (its points cannot be judged as they are"),
             qPrintable(w.verdict_panel()->calls()));
    w.set_run_checked(1, false);
    w.set_run_checked(0, false);  // hidden runs are not judged
    QVERIFY(!w.verdict_panel()->text().contains("pair.csv"));
    QVERIFY(w.verdict_panel()->calls().isEmpty());
    // One size only: the panel said "no verdict: needs 2 sizes" where `bwlab verdict` (and the
    // plot's crossover mark) gave the thread-count crossover. It prints what the CLI prints.
    std::vector<Point> one_size;
    for (const Point& p : points)
      if (p.size_bytes == 1u << 30) one_size.push_back(p);
    std::ostringstream cli;
    print_verdicts(cli, compute_verdicts(one_size));
    QVERIFY(cli.str().find("Thread-count crossover") != std::string::npos);
    QVERIFY(w.open_files({write_csv_file(dir.path(), "one-size.csv", one_size)}));
    const QString one = w.verdict_panel()->text();
    QVERIFY2(one.contains(QString::fromStdString(form_wording(cli.str()))), qPrintable(one));
    QVERIFY2(one.contains("== glibc on this machine"), qPrintable(one));
    QVERIFY(!one.contains("no verdict"));
  }

  void machine_lines_of_two_machines_name_each_in_their_short_labels() {
    // Two spec sheets side by side (a demo's Cascade Lake and Ice Lake): at 1.5x text the short
    // labels said "DRAM peak per node 128.0 GB/s" with no machine, and read as either's.
    const auto machine_run = [](const std::string& file, model::SpecSheet sheet) {
      const MachineParams m = model::machine_from_spec(sheet);
      std::ostringstream text;
      write_machine_json(text, m);
      Dataset d{file, {}, true, text.str()};
      for (int t : {1, 2}) {
        Point p;
        p.kernel = "stosb", p.size_bytes = 1u << 28, p.threads = t, p.source = "simulated", p.host = "model:" + m.name;
        p.gbps_median = p.gbps_min = p.gbps_max = 10.0 * t;
        d.points.push_back(p);
      }
      return d;
    };
    const Dataset clx = machine_run("clx.json", {"cascadelake-sp", 1, 18, 2, 6, 2666, 24750u << 10});
    const Dataset icx = machine_run("icx.json", {"icelake-sp", 2, 32, 2, 8, 3200, 48u << 20});
    const PlotMarks marks = plot_marks({clx, icx}, {}, nullptr, "");
    QStringList shorts, wholes;
    for (const Ceiling& c : marks.threads)
      if (c.label.rfind("DRAM", 0) == 0) wholes << QString::fromStdString(c.label), shorts << QString::fromStdString(c.short_label);
    QVERIFY2(wholes.filter("DRAM peak per node 128.0 GB/s (cascadelake-sp-1s-18c-6x2666-").size() == 1,
             qPrintable(wholes.join("|")));
    QVERIFY2(shorts.contains("DRAM peak per node 128.0 GB/s (cascadelake-sp-1s)") &&
                 shorts.contains("DRAM peak per node 204.8 GB/s (icelake-sp-2s)") &&
                 shorts.contains("DRAM peak, 2 nodes 409.6 GB/s (icelake-sp-2s)"),
             qPrintable(shorts.join("|")));
    // Two machines whose short names are alike (two core counts of one sheet): no short label
    // drops what tells them apart.
    const Dataset icx40 = machine_run("icx40.json", {"icelake-sp", 2, 40, 2, 8, 3200, 60u << 20});
    for (const Ceiling& c : plot_marks({icx, icx40}, {}, nullptr, "").threads)
      if (c.label.rfind("DRAM", 0) == 0) QVERIFY2(c.short_label.empty(), c.short_label.c_str());
  }

  void crossover_is_marked_on_the_threads_plot() {
    // At 1 GiB NT is ahead at 1 and 2 threads and behind at 4 (ranges apart): stosb overtakes at 4
    // threads. At 4 MiB stosb leads everywhere: no change, no mark.
    std::vector<Point> points;
    for (int t : {1, 2, 4}) {
      points.push_back(point("stosb", t, 4u << 20, 40.0 * t, 1));
      points.push_back(point("avx512-nt", t, 4u << 20, 20.0 * t, 1));
      points.push_back(point("stosb", t, 1u << 30, t == 4 ? 60.0 : 10.0 * t, 0.5));
      points.push_back(point("avx512-nt", t, 1u << 30, t == 4 ? 40.0 : 20.0 * t, 0.5));
    }
    Dataset run;
    run.name = "pair";
    run.points = points;
    const std::vector<Ceiling> marks = crossover_marks({run});
    QCOMPARE(marks.size(), std::size_t(1));
    QVERIFY(marks[0].axis == Ceiling::Axis::threads);
    QCOMPARE(marks[0].value, 4.0);
    QVERIFY2(marks[0].label.find("stosb vs avx512-nt 1 GiB") != std::string::npos, marks[0].label.c_str());
    // A victim plot's x is the aggressor count k: scaling rows mark nothing there (their marks
    // were drawn on victim plots), and the same figures as victim rows beside movnti (threads =
    // 1 victim + k) mark k = 3, not 4, naming the aggressors.
    QVERIFY(crossover_marks({run}, "victim").empty());
    QVERIFY(crossover_marks({run}, "mix").empty());
    Dataset victims = run;
    for (Point& p : victims.points) {
      p.scenario = "victim";
      p.role = "victim";
      p.peer_kernel = "movnti";
      p.peer_threads = p.threads - 1;
    }
    QVERIFY(crossover_marks({victims}).empty());
    const std::vector<Ceiling> at_k = crossover_marks({victims, run}, "victim");
    QCOMPARE(at_k.size(), std::size_t(1));
    QCOMPARE(at_k[0].value, 3.0);
    QVERIFY2(at_k[0].label.find("stosb vs avx512-nt beside movnti 1 GiB: stosb overtakes at k = 3") != std::string::npos,
             at_k[0].label.c_str());
    // `run` with the points of kernel `from` copied under each of `names` (identical curves).
    const auto with_copies = [&](const std::string& from, std::initializer_list<const char*> names) {
      Dataset d = run;
      for (const char* name : names)
        for (const Point& p : points)
          if (p.kernel == from) {
            Point q = p;
            q.kernel = name;
            d.points.push_back(q);
          }
      return d;
    };
    // Three NT kernels with the same curve: one mark naming all three, not three lines.
    const Dataset many = with_copies("avx512-nt", {"movnti", "avx2-nt"});
    const std::vector<Ceiling> merged = crossover_marks({many, many});  // the same run twice: once
    QCOMPARE(merged.size(), std::size_t(1));
    QCOMPARE(merged[0].value, 4.0);
    for (const char* nt : {"movnti", "avx2-nt", "avx512-nt"})
      QVERIFY2(merged[0].label.find(nt) != std::string::npos, merged[0].label.c_str());
    QVERIFY2(merged[0].label.find("stosb overtakes at 4T") != std::string::npos, merged[0].label.c_str());
    // Two runs (two machines predicted alike) with the same crossover: one mark naming both runs,
    // where two labels said the same at one line.
    Dataset twin = run;
    twin.name = "twin.csv";
    const std::vector<Ceiling> twins = crossover_marks({run, twin});
    QCOMPARE(twins.size(), std::size_t(1));
    QCOMPARE(twins[0].label, std::string("stosb vs avx512-nt 1 GiB: stosb overtakes at 4T (NT -33%, pair, twin.csv)"));
    QCOMPARE(twins[0].short_label, std::string("stosb vs avx512-nt 1 GiB: stosb overtakes at 4T (NT -33%, measured, pair, twin.csv)"));
    // NT ahead, then level: stosb is level, no winner changes; two runs shown: each mark names its run.
    Dataset level = run;
    level.name = "level.csv";
    for (Point& p : level.points)
      if (p.kernel == "stosb" && p.size_bytes == (1u << 30) && p.threads == 4) p.gbps_median = 41, p.gbps_min = 38, p.gbps_max = 44;
    const std::vector<Ceiling> two = crossover_marks({run, level});
    QCOMPARE(two.size(), std::size_t(2));
    // Each label gives NT's lead by medians where the change is: "is level" over a gap reads as one.
    QCOMPARE(two[0].label, std::string("stosb vs avx512-nt 1 GiB: stosb overtakes at 4T (NT -33%, pair)"));
    QCOMPARE(two[1].label, std::string("stosb vs avx512-nt 1 GiB: stosb is level at 4T (NT -2%, ranges overlap, level.csv)"));
    // The short label (for a plot with little room) still says measured, and with two measured runs
    // shown names its run: "measured" alone read as either's.
    QCOMPARE(two[0].short_label, std::string("stosb vs avx512-nt 1 GiB: stosb overtakes at 4T (NT -33%, measured, pair)"));
    // Beside a predicted run, "measured" tells them apart: the short label leaves the run's name
    // (the legend's) out.
    Dataset predicted = level;
    predicted.name = "predicted.json";
    for (Point& p : predicted.points) p.source = "simulated", p.host = "model:x";
    const std::vector<Ceiling> mixed = crossover_marks({run, predicted});
    QCOMPARE(mixed.size(), std::size_t(2));
    QCOMPARE(mixed[0].short_label, std::string("stosb vs avx512-nt 1 GiB: stosb overtakes at 4T (NT -33%, measured)"));
    // Level over a gap the eye sees (NT +33% by medians, the ranges overlapping) is not called
    // "stosb is level": "stosb is level at 4T (NT +59% ...)" sat under an NT curve far above.
    Dataset gap = run;
    gap.name = "gap.csv";
    for (Point& p : gap.points)
      if (p.size_bytes == (1u << 30) && p.threads == 4) {
        if (p.kernel == "stosb") p.gbps_median = 30, p.gbps_min = 20, p.gbps_max = 45;
        else p.gbps_median = 40, p.gbps_min = 35, p.gbps_max = 50;
      }
    const std::vector<Ceiling> wide = crossover_marks({gap});
    QCOMPARE(wide.size(), std::size_t(1));
    QCOMPARE(wide[0].value, 4.0);
    QCOMPARE(wide[0].label, std::string("stosb vs avx512-nt 1 GiB: no sure winner from 4T, NT +33% is within the ranges"));
    QVERIFY2(wide[0].unsure, "a change to level is drawn dotted: no winner crosses there");
    // Level to a side over a gap already visible before: the mark names that gap. Predicted: at 8
    // threads NT +49% is within a spec sheet's x/1.6 band (level), at 16 threads +95% is beyond.
    Dataset pulls;
    pulls.name = "sheet.csv";
    for (const auto& [t, wa, nt] : {std::tuple{1, 10.0, 9.0}, std::tuple{8, 40.0, 59.6}, std::tuple{16, 45.0, 87.75}})
      for (const auto& [k, g] : {std::pair{"avx2-store", wa}, std::pair{"avx2-nt", nt}}) {
        Point p = point(k, t, 1u << 30, g, 0);
        p.source = "simulated", p.reps = 0, p.gbps_min = g / 1.6, p.gbps_max = g * 1.6;
        p.traffic_class = std::string(k) == "avx2-store" ? "write-allocate" : "non-temporal";
        pulls.points.push_back(p);
      }
    const std::vector<Ceiling> ahead = crossover_marks({pulls});
    QCOMPARE(ahead.size(), std::size_t(1));
    QVERIFY2(!two[0].unsure && !ahead[0].unsure, "a winner change or a pull ahead is drawn dash-dotted");
    QCOMPARE(ahead[0].label, std::string("avx2-store vs avx2-nt 1 GiB: NT pulls ahead beyond the model's error at 16T (NT +95%, NT +49% at 8T "
                                         "was within the model's error, predicted)"));
    // Two predictions shown (two machines side by side): "predicted" names neither, so the short
    // label names the runs and leaves out the gap before the change.
    Dataset pulls2 = pulls;
    pulls2.name = "sheet2.csv";
    const std::vector<Ceiling> two_sheets = crossover_marks({pulls, pulls2});
    QCOMPARE(two_sheets.size(), std::size_t(1));
    QCOMPARE(two_sheets[0].short_label, std::string("avx2-store vs avx2-nt 1 GiB: NT pulls ahead beyond the model's error at 16T "
                                                    "(NT +95%, predicted, sheet.csv, sheet2.csv)"));
    // Measured, the same: a gap the eye sees before the change, its ranges overlapping, is named
    // ("stosb pulls ahead at 2T" beside a stosb median 18% above NT's at 1T).
    Dataset measured_pulls;
    measured_pulls.name = "m.csv";
    for (const auto& [t, wa, nt] : {std::tuple{1, 12.0, 9.8}, std::tuple{2, 14.0, 10.0}})
      for (const auto& [k, g, spread] : {std::tuple{"stosb", wa, t == 1 ? 1.5 : 0.2},
                                         std::tuple{"avx512-nt", nt, t == 1 ? 1.5 : 0.2}})
        measured_pulls.points.push_back(point(k, t, 1u << 30, g, spread));
    const std::vector<Ceiling> m_ahead = crossover_marks({measured_pulls});
    QCOMPARE(m_ahead.size(), std::size_t(1));
    QCOMPARE(m_ahead[0].label, std::string("stosb vs avx512-nt 1 GiB: stosb pulls ahead at 2T (NT -29%, NT -18% at 1T "
                                           "had overlapping ranges)"));
    // Write-allocate kernels with the same change (stosq, memset identical to stosb): one mark.
    const std::vector<Ceiling> one = crossover_marks({with_copies("stosb", {"stosq", "memset"})});
    QCOMPARE(one.size(), std::size_t(1));
    QCOMPARE(one[0].label, std::string("stosb vs avx512-nt 1 GiB: stosb overtakes at 4T (NT -33%, also stosq, memset)"));
    // A run of two fills: each fill's change is its own mark, and names its fill.
    Dataset two_fills = run;
    for (const Point& p : points) {
      Point q = p;
      q.fill = "0x01";
      two_fills.points.push_back(q);
    }
    const std::vector<Ceiling> by_fill = crossover_marks({two_fills});
    QCOMPARE(by_fill.size(), std::size_t(2));
    const std::string both = by_fill[0].label + "|" + by_fill[1].label;
    QVERIFY2(both.find(", fill " + points.front().fill + ")") != std::string::npos, both.c_str());
    QVERIFY2(both.find(", fill 0x01)") != std::string::npos, both.c_str());

    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "pair.csv", points)}));
    QVERIFY2(w.threads_plot()->drawn_ceilings().join("|").contains("stosb overtakes at 4T"),
             qPrintable(w.threads_plot()->drawn_ceilings().join("|")));
    QVERIFY(!w.size_plot()->drawn_ceilings().join("|").contains("winner"));  // thread marks: threads plot only
    // The Size box at 4 MiB, where nothing changes: the 1 GiB mark is not drawn over the 4 MiB
    // curves; back at 1 GiB it is.
    QComboBox* box = w.curve_filter_box();
    const int at_4m = box->findText("4 MiB"), at_1g = box->findText("1 GiB");
    QVERIFY(at_4m > 0 && at_1g > 0);
    box->setCurrentIndex(at_4m);
    QVERIFY2(!w.threads_plot()->drawn_ceilings().join("|").contains("overtakes"),
             qPrintable(w.threads_plot()->drawn_ceilings().join("|")));
    box->setCurrentIndex(at_1g);
    QVERIFY2(w.threads_plot()->drawn_ceilings().join("|").contains("stosb vs avx512-nt 1 GiB: stosb overtakes at 4T"),
             qPrintable(w.threads_plot()->drawn_ceilings().join("|")));
    w.set_run_checked(0, false);  // a hidden run marks nothing
    QVERIFY(!w.threads_plot()->drawn_ceilings().join("|").contains("winner"));
  }

  // 2 packages x 4 cores x 2 PUs, compact one PU per core first: socket 2 from 5 threads, SMT
  // siblings from 9. PUs the topology lacks mark nothing.
  void placement_marks_socket_two_and_smt_siblings() {
    const Topology topo = Topology::from_spec("package:2 core:4 pu:2");
    const std::vector<int> order = {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15};
    std::vector<Point> points;
    for (int t = 1; t <= 16; ++t) {
      Point p = point("stosb", t, 1u << 30, 10.0 * t, 1);
      p.pus.clear();  // planned PUs only (as simulated rows hold)
      p.pus_planned.assign(order.begin(), order.begin() + t);
      points.push_back(p);
    }
    const std::vector<Ceiling> marks = placement_marks(points, topo);
    QCOMPARE(marks.size(), std::size_t(2));
    QCOMPARE(marks[0].value, 5.0);
    QCOMPARE(marks[0].label, std::string("first point on socket 2: 5T"));
    QCOMPARE(marks[1].value, 9.0);
    QCOMPARE(marks[1].label, std::string("first point with SMT siblings: 9T"));
    // As victim rows (1 victim + k aggressors), the marks stand at k, the victim plot's x.
    std::vector<Point> victims = points;
    for (Point& p : victims) p.scenario = "victim", p.peer_threads = p.threads - 1;
    QVERIFY(placement_marks(victims, topo).empty());
    const std::vector<Ceiling> at_k = placement_marks(victims, topo, "victim");
    QCOMPARE(at_k.size(), std::size_t(2));
    QCOMPARE(at_k[0].value, 4.0);
    QCOMPARE(at_k[0].label, std::string("first point on socket 2: k = 4"));
    QCOMPARE(at_k[1].value, 8.0);
    QVERIFY(placement_marks(points, topo, "victim").empty());
    QVERIFY(placement_marks(victims, topo, "mix").empty());
    points.back().pus = {0, 99};  // observed PUs win over planned ones; 99 is not this machine's
    QVERIFY(placement_marks(points, topo).empty());
    points.resize(4);  // one package, no siblings
    QVERIFY(placement_marks(points, topo).empty());
    // The demo's simulated server (2 x 26 cores x 2): marked on the threads plot.
    MainWindow w;
    QTemporaryDir empty;
    QVERIFY2(w.open_demo(empty.path()), qPrintable(w.last_error()));
    const QString drawn = w.threads_plot()->drawn_ceilings().join("|");
    QVERIFY2(drawn.contains("first point on socket 2: 52T") && drawn.contains("first point with SMT siblings: 104T"),
             qPrintable(drawn));
    // Its victim rows (threads 1, 2, 4, ..., 104: k = 0, 1, 3, ..., 103): on the victim plot the
    // marks are the victim rows', at k (the scaling rows' 52T stood at k = 52).
    w.plot_scenario_box()->setCurrentText("victim");
    QTRY_COMPARE_WITH_TIMEOUT(w.threads_plot()->scenario(), std::string("victim"), kHangGuardMs);
    const QString victim = w.threads_plot()->drawn_ceilings().join("|");
    QVERIFY2(victim.contains("first point on socket 2: k = 51") && !victim.contains("52T") && !victim.contains("2T ("),
             qPrintable(victim));
    // Its one buffer size is named (the victim plot said it nowhere); the demo's is its largest, 256 MiB.
    QVERIFY2(w.threads_plot()->title().contains("the victim thread's GB/s at 256 MiB per thread ("),
             qPrintable(w.threads_plot()->title()));
    // One victim thread's GB/s: no aggregate DRAM or link line, drawn or listed off the plot.
    QVERIFY2(!victim.contains("DRAM peak") && !w.threads_plot()->off_range_note().contains("DRAM peak"),
             qPrintable(victim + " | " + w.threads_plot()->off_range_note()));
  }

  void a_file_simulated_on_a_preset_brings_its_ceilings_and_marks() {
    // bwlab simulate --machine skylake-x-8270cl (2 x 26 cores x 2), saved and opened as a file.
    const std::vector<Point> sim = simulate_compact(*load_machine("skylake-x-8270cl"), {1, 26, 27, 52, 53});
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "sim.csv", sim)}));
    const QString drawn = w.threads_plot()->drawn_ceilings().join("|");
    QVERIFY2(drawn.contains("DRAM peak per node") && drawn.contains("first point on socket 2: 27T") &&
                 drawn.contains("first point with SMT siblings: 53T"),
             qPrintable(drawn));
    // A CSV records no --topology (the form calls it Topology): the log says the preset is taken as it is.
    QVERIFY2(w.log()->toPlainText().contains("(the preset as it is: a CSV does not record a Topology"),
             qPrintable(w.log()->toPlainText()));
    // The same figures from another model machine (a machine file, not a preset): no ceilings, and
    // the log says why and what to open instead.
    std::vector<Point> other = sim;
    for (Point& p : other) p.host = "model:my-calibration";
    MainWindow w2;
    QVERIFY(w2.open_files({write_csv_file(dir.path(), "other.csv", other)}));
    QVERIFY2(!w2.threads_plot()->drawn_ceilings().join("|").contains("DRAM peak"),
             qPrintable(w2.threads_plot()->drawn_ceilings().join("|")));
    QVERIFY2(w2.log()->toPlainText().contains("no machine ceilings (DRAM, link): other.csv was simulated for 'my-calibration', not a "
                                              "preset, and a CSV does not carry its machine"),
             qPrintable(w2.log()->toPlainText()));
    // The Topology tab keeps this computer, titled as such (a bare "Machine (local)" read as the server).
    const std::string title = w2.topology_view()->tree().label;
    QVERIFY2(title == "This machine (local), not the one other.csv was simulated for (a CSV has no topology)",
             title.c_str());
    // The preset's CSV shows the preset's topology: 2 packages.
    QCOMPARE(count_nodes(w.topology_view()->tree(), TopoNode::Kind::package), 2);
  }

  void a_file_of_another_machine_keeps_this_one_titled_as_such() {
    // Two imported Xeon files showed "Machine (local)", 2 idle PUs, without a word.
    QTemporaryDir dir;
    std::vector<Point> far = line("stosb", 2, 5);
    for (Point& p : far) p.host = "far-away-host", p.cpu_model = "Some Xeon";
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "far.csv", far)}));
    std::string title = w.topology_view()->tree().label;
    QVERIFY2(title == "This machine (local), not far-away-host, which far.csv was measured on", title.c_str());
    // Measured curves alone name their CPU on the picture too (only beside a prediction did they).
    QVERIFY2(w.threads_plot()->title().contains("measured on Some Xeon"), qPrintable(w.threads_plot()->title()));
    std::vector<Point> imported = line("stosb", 2, 5);
    for (Point& p : imported) {
      p.source = "imported", p.host = "lkml", p.cpu_model = "Some Xeon", p.pus.clear();
      p.origin_format = "perf-bench", p.origin_tool = "perf bench mem memset", p.origin_unit = "GB/sec";
    }
    MainWindow w2;
    QVERIFY(w2.open_files({write_csv_file(dir.path(), "perf.csv", imported)}));
    title = w2.topology_view()->tree().label;
    QVERIFY2(title == "This machine (local), not the one perf.csv's figures were measured on (an imported file holds no "
                      "topology)",
             title.c_str());
    QVERIFY2(w2.log()->toPlainText().contains("perf.csv holds another tool's figures (Some Xeon), with no topology to draw"),
             qPrintable(w2.log()->toPlainText()));
    // A second file of another machine: the title names both (it named the last one), and the
    // subtitle both CPUs (it said "on 2 hosts", naming neither).
    std::vector<Point> far2 = line("stosb", 2, 7);
    for (Point& p : far2) p.host = "other-host", p.cpu_model = "Other Epyc";
    QVERIFY(w.open_files({write_csv_file(dir.path(), "far2.csv", far2)}));
    title = w.topology_view()->tree().label;
    QVERIFY2(title == "This machine (local), not the machines of far.csv and far2.csv (their files hold no topology to "
                      "draw)",
             title.c_str());
    QVERIFY2(w.threads_plot()->title().contains("measured on Other Epyc and Some Xeon"),
             qPrintable(w.threads_plot()->title()));
    // Measured and imported curves each name their own CPU ("measured and imported on A and B"
    // read as A's measured, B's imported, whichever way round).
    std::vector<Point> lkml = imported;
    for (Point& p : lkml) p.cpu_model = "Lkml Xeon";
    QVERIFY(w.open_files({write_csv_file(dir.path(), "lkml.csv", lkml)}));
    QVERIFY2(w.threads_plot()->title().contains("measured on Other Epyc and Some Xeon and imported on Lkml Xeon"),
             qPrintable(w.threads_plot()->title()));
    // Four files of other machines: three named, then "and 1 more file" (it said "1 more files").
    std::vector<Point> far4 = far2;
    for (Point& p : far4) p.host = "fourth-host";
    QVERIFY(w.open_files({write_csv_file(dir.path(), "far4.csv", far4)}));
    title = w.topology_view()->tree().label;
    QVERIFY2(title == "This machine (local), not the machines of far.csv, far2.csv, lkml.csv and 1 more file (their "
                      "files hold no topology to draw)",
             title.c_str());
    // A file measured here, opened first, keeps its point on the tab: a later file of another
    // machine had wiped its colours and retitled the tab (the picture depended on the order).
    std::vector<Point> here = line("stosb", 2, 5);
    for (Point& p : here) p.host = host_name(), p.cpu_model = detect_cpu_features().model_name;
    MainWindow w3;
    QVERIFY(w3.open_files({write_csv_file(dir.path(), "here.csv", here)}));
    QVERIFY(!w3.topology_view()->pu_values().empty());
    QVERIFY(w3.open_files({write_csv_file(dir.path(), "perf.csv", imported)}));
    QVERIFY(!w3.topology_view()->pu_values().empty());
    title = w3.topology_view()->tree().label;
    QVERIFY2(title == "This machine (local), where here.csv was measured", title.c_str());
    QVERIFY2(w3.log()->toPlainText().contains("the Topology tab keeps here.csv's last point, measured on this machine"),
             qPrintable(w3.log()->toPlainText()));
  }

  void a_json_simulated_from_a_machine_file_brings_its_machine() {
    // bwlab machine spec (2 x 18 cores x 2, no preset) then bwlab simulate --json: the file carries it.
    model::SpecSheet sheet;
    sheet.uarch = "skylake-sp", sheet.sockets = 2, sheet.cores = 18, sheet.smt = 2, sheet.channels = 6,
    sheet.mts = 2666, sheet.llc_bytes = 24'750'000;
    const MachineParams m = model::machine_from_spec(sheet);
    const std::vector<Point> sim = simulate_compact(m, {1, 18, 19, 36, 37});
    RunInfo info;
    info.host = "model:" + m.name;
    std::ostringstream machine_text;
    write_machine_json(machine_text, m);
    info.machine = machine_text.str();
    QTemporaryDir dir;
    const QString json = dir.path() + "/sim.json";
    {
      std::ofstream out(json.toStdString());
      write_json(out, info, sim);
    }
    MainWindow w;
    QVERIFY(w.open_files({json}));
    const QString drawn = w.threads_plot()->drawn_ceilings().join("|");
    QVERIFY2(drawn.contains("DRAM peak, 2 nodes") && drawn.contains("first point on socket 2: 19T") &&
                 drawn.contains("first point with SMT siblings: 37T"),
             qPrintable(drawn));
    // The Topology tab names the machine, not this computer, with its LLC.
    QCOMPARE(w.topology_view()->tree().label,
             "Simulated machine " + m.name + " (package:2 numa:1 core:18 pu:2, LLC 23.6 MiB per package)");
    // A session keeps the machine with the run's points.
    const QString session = dir.path() + "/lab.json";
    QVERIFY(w.save_session(session));
    MainWindow restored;
    QVERIFY(restored.open_session(session));
    QCOMPARE(restored.threads_plot()->drawn_ceilings().join("|"), drawn);
    // File > Save points as JSON keeps the machine, and does not stamp this computer's host, CPU and
    // topology on the model's points (reopened, that file had no ceilings and "a CSV" notes).
    {
      const QString saved = dir.path() + "/saved.json";
      QVERIFY(w.save_points(saved));
      std::ifstream in(saved.toStdString());
      const JsonDocument back = read_json(in);
      QVERIFY(!back.run.machine.empty());  // the same machine: its ceilings come back below
      QCOMPARE(back.run.host, info.host);
      QVERIFY2(back.run.cpu_model_name.empty() && back.run.topology.empty() && back.run.kernel_release.empty(),
               back.run.cpu_model_name.c_str());
      QCOMPARE(back.points.size(), sim.size());
      MainWindow reopened;
      QVERIFY(reopened.open_files({saved}));
      QCOMPARE(reopened.threads_plot()->drawn_ceilings().join("|"), drawn);
    }
    // The same points as CSV: the name is no preset and the file holds no machine.
    MainWindow w2;
    QVERIFY(w2.open_files({write_csv_file(dir.path(), "sim.csv", sim)}));
    QVERIFY2(!w2.threads_plot()->drawn_ceilings().join("|").contains("DRAM peak"),
             qPrintable(w2.threads_plot()->drawn_ceilings().join("|")));
    // A machine whose topology file is not on this computer: the file still opens, without ceilings.
    MachineParams away = m;
    away.topology = "/no/such/dir/server.xml";
    std::ostringstream away_text;
    write_machine_json(away_text, away);
    info.machine = away_text.str();
    {
      std::ofstream out(json.toStdString());
      write_json(out, info, sim);
    }
    MainWindow w3;
    QVERIFY2(w3.open_files({json}), qPrintable(w3.last_error()));
    QCOMPARE(w3.runs().size(), std::size_t(1));
    QVERIFY(!w3.threads_plot()->drawn_ceilings().join("|").contains("DRAM peak"));
  }

  // A 2-socket sheet's size plot held 32 curves, eight shades per kernel: the Threads box above
  // it draws one thread count only, the Size box above the threads plot one size; each plot keeps
  // its choice, and the subtitle says what is left out.
  void curve_filter_draws_one_thread_count_or_one_size() {
    QTemporaryDir dir;
    const auto sim = simulated_server({"stosb", "movnti"}, {1, 2, 4, 8});
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "sim.csv", sim)}));
    w.set_view("size");
    QComboBox* box = w.curve_filter_box();
    QCOMPARE(box->count(), 5);  // all + 4 thread counts
    QCOMPARE(box->itemText(0), QString("all thread counts"));
    QCOMPARE(box->itemText(2), QString("2 threads"));
    QCOMPARE(w.size_plot()->curve_count(), 8);
    box->setCurrentIndex(2);
    QCOMPARE(w.size_plot()->curve_count(), 2);
    QVERIFY2(w.size_plot()->title().contains("Only the 2-thread curves drawn, 2 of 8 (the Threads box above the plot "
                                             "shows the rest)"),
             qPrintable(w.size_plot()->title()));
    for (const QString& l : w.size_plot()->legend_labels()) QVERIFY2(l.contains("2T"), qPrintable(l));
    // The threads tab: its own box of sizes, every curve until one is chosen.
    w.set_view("threads");
    QCOMPARE(box->itemText(0), QString("all sizes"));
    QCOMPARE(box->itemText(1), QString("16 MiB"));
    QCOMPARE(box->currentIndex(), 0);
    QCOMPARE(w.threads_plot()->curve_count(), 6);
    box->setCurrentIndex(3);  // 1 GiB
    QCOMPARE(w.threads_plot()->curve_count(), 2);
    // Back on the size tab its choice stands; "all" draws every curve again.
    w.set_view("size");
    QCOMPARE(box->currentText(), QString("2 threads"));
    QCOMPARE(w.size_plot()->curve_count(), 2);
    box->setCurrentIndex(0);
    QCOMPARE(w.size_plot()->curve_count(), 8);
    QVERIFY(!w.size_plot()->title().contains("Only the"));
    // A session keeps each plot's choice: 4 threads on the size plot, 1 GiB on the threads plot.
    box->setCurrentIndex(3);
    const QString session = dir.path() + "/lab.json";
    QVERIFY(w.save_session(session));
    {
      MainWindow w2;
      QVERIFY2(w2.open_session(session), qPrintable(w2.last_error()));
      QCOMPARE(w2.view(), QString("size"));
      QCOMPARE(w2.size_plot()->only(), std::optional<double>(4));
      QCOMPARE(w2.curve_filter_box()->currentText(), QString("4 threads"));
      QCOMPARE(w2.size_plot()->curve_count(), 2);
      w2.set_view("threads");
      QCOMPARE(w2.curve_filter_box()->currentText(), QString("1 GiB"));
      QCOMPARE(w2.threads_plot()->curve_count(), 2);
    }
    // A choice no run holds (an edited session) is dropped: every curve, not an empty plot.
    std::ifstream in(session.toStdString());
    std::stringstream text;
    text << in.rdbuf();
    std::string edited = text.str();
    const std::string key = "\"size_plot_threads\": 4";
    QVERIFY2(edited.find(key) != std::string::npos, edited.substr(0, 400).c_str());
    edited.replace(edited.find(key), key.size(), "\"size_plot_threads\": 3");
    const QString odd = dir.path() + "/odd.json";
    std::ofstream(odd.toStdString()) << edited;
    {
      MainWindow w3;
      QVERIFY2(w3.open_session(odd), qPrintable(w3.last_error()));
      QCOMPARE(w3.curve_filter_box()->currentIndex(), 0);
      QCOMPARE(w3.size_plot()->only(), std::optional<double>());
      QCOMPARE(w3.size_plot()->curve_count(), 8);
    }
    edited.replace(edited.find("\"size_plot_threads\": 3"), key.size(), "\"size_plot_threads\": \"x\"");
    std::ofstream(odd.toStdString()) << edited;
    MainWindow w4;
    QVERIFY(!w4.open_session(odd));
    QVERIFY2(w4.last_error().contains("\"size_plot_threads\" is not a number or null"), qPrintable(w4.last_error()));
  }

  // A 2-socket sheet simulated for 4 kernels x 8 thread counts x 3 sizes drew 32 curves on the
  // size plot until the Threads box was used: an opened file starts a crowded plot at one value.
  void crowded_plot_starts_at_one_thread_count() {
    QTemporaryDir dir;
    const auto sim = simulated_server({"stosb", "movnti", "avx2-nt", "avx2-store"}, {1, 2, 4, 8, 16, 26, 32, 52});
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "sim.csv", sim)}));
    w.set_view("size");
    QCOMPARE(w.size_plot()->only(), std::optional<double>(52));
    QCOMPARE(w.size_plot()->curve_count(), 4);
    QCOMPARE(w.curve_filter_box()->currentText(), QString("52 threads"));
    QVERIFY2(w.log()->toPlainText().contains("the size plot would draw 32 curves: it starts at the 52-thread ones "
                                             "(the Threads box above it shows the rest)"),
             qPrintable(w.log()->toPlainText()));
    // 12 curves are readable: the threads plot draws them all.
    w.set_view("threads");
    QCOMPARE(w.threads_plot()->only(), std::optional<double>());
    QCOMPARE(w.threads_plot()->curve_count(), 12);
    // A measured run at 1..2 threads beside it: like against like, the 2-thread curves.
    QVERIFY(w.open_files({write_csv_file(dir.path(), "vm.csv", line("stosb", 2, 10))}));
    w.set_view("size");
    QCOMPARE(w.size_plot()->only(), std::optional<double>(2));
    QCOMPARE(w.size_plot()->curve_count(), 5);
    // The user's "all" stands when another file is opened.
    w.curve_filter_box()->setCurrentIndex(0);
    QCOMPARE(w.size_plot()->curve_count(), 34);
    QVERIFY(w.open_files({write_csv_file(dir.path(), "vm2.csv", line("movnti", 2, 8))}));
    QCOMPARE(w.size_plot()->only(), std::optional<double>());
    QCOMPARE(w.size_plot()->curve_count(), 36);
    // No thread count in every file (an imported 3-thread table beside them): the one most files
    // hold, a measured run's. It started at the simulation's 52, and the measured curve was hidden.
    MainWindow w2;
    std::vector<Point> imported = {line("stosb", 3, 9).back()};  // 3 threads only
    imported[0].source = "imported";
    QVERIFY(w2.open_files({write_csv_file(dir.path(), "sim.csv", sim), write_csv_file(dir.path(), "vm.csv", line("stosb", 2, 10)),
                           write_csv_file(dir.path(), "imp.csv", imported)}));
    w2.set_view("size");
    QCOMPARE(w2.size_plot()->only(), std::optional<double>(2));
  }

  // A measured run beside a simulated server that shares no size with it: the crowded threads plot
  // starts at the measured run's size, and the server's curves vanished without a word while its
  // DRAM and link lines stayed over the measured curves. The subtitle names the run and its sizes;
  // the server's lines come back with its curves.
  void a_run_without_curves_at_the_chosen_size_is_named_and_brings_no_lines() {
    QTemporaryDir dir;
    const auto sim = simulated_server({"stosb", "movnti", "avx2-nt", "avx2-store", "avx512-nt"}, {1, 2, 4});
    std::vector<Point> vm;
    for (const char* k : {"stosb", "movnti"})
      for (int t : {1, 2}) vm.push_back(point(k, t, 4u << 20, 10.0 * t, 0.5));
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "vm.csv", vm), write_csv_file(dir.path(), "sim.csv", sim)}));
    w.set_view("threads");
    QCOMPARE(w.threads_plot()->only(), std::optional<double>(4u << 20));
    QVERIFY2(w.threads_plot()->title().contains("No curve at this size in sim.csv (16 MiB, 256 MiB, 1 GiB)."),
             qPrintable(w.threads_plot()->title()));
    const auto lines = [&] { return w.threads_plot()->drawn_ceilings().join("|") + w.threads_plot()->off_range_note(); };
    QVERIFY2(!lines().contains("DRAM peak"), qPrintable(lines()));
    w.curve_filter_box()->setCurrentIndex(w.curve_filter_box()->findText("1 GiB"));
    QCOMPARE(w.threads_plot()->only(), std::optional<double>(1u << 30));
    QVERIFY2(lines().contains("DRAM peak"), qPrintable(lines()));
    QVERIFY2(w.threads_plot()->title().contains("No curve at this size in vm.csv (4 MiB)."),
             qPrintable(w.threads_plot()->title()));
  }

  // A one-thread table of 4 sizes opened into an empty window drew 4 markers stacked at x = 1 on
  // the threads plot: the first files pick the plot as `bwlab plot --kind auto` does.
  void first_files_pick_the_plot_as_bwlab_plot_does() {
    QTemporaryDir dir;
    std::vector<Point> one_thread;
    for (std::uint64_t mib : {16u, 128u, 1024u, 4096u}) one_thread.push_back(point("stosb", 1, mib << 20, 10, 0.1));
    const QString table = write_csv_file(dir.path(), "table.csv", one_thread);
    {
      MainWindow w;
      QCOMPARE(w.view(), QString("threads"));
      QVERIFY(w.open_files({table}));
      QCOMPARE(w.view(), QString("size"));
    }
    // A window that already holds a run keeps the user's tab.
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "line.csv", line("stosb", 4, 10))}));
    QCOMPARE(w.view(), QString("threads"));
    QVERIFY(w.open_files({table}));
    QCOMPARE(w.view(), QString("threads"));
  }

  // One size only: the disabled Size box named no size ("all sizes"), nor did the plot.
  void one_size_is_named_in_the_box_and_the_subtitle() {
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "one.csv", line("stosb", 4, 10))}));  // 16 MiB
    w.set_view("threads");
    QCOMPARE(w.curve_filter_box()->count(), 1);
    QCOMPARE(w.curve_filter_box()->currentText(), QString("16 MiB (the only one)"));
    QVERIFY(!w.curve_filter_box()->isEnabled());
    QVERIFY2(w.threads_plot()->title().contains("at 16 MiB per thread"), qPrintable(w.threads_plot()->title()));
    QCOMPARE(w.threads_plot()->curve_count(), 1);
  }

  // Where the window has room the run list shows every name whole: at 1920 px the left column kept
  // the panel's preferred width and elided "skylake-x-827…ed, 2 sockets" beside 1300 px of plot.
  // The plots keep at least 7/10 of the window; a narrow window keeps the names elided.
  // A working set split over the threads (likwid-bench and kerncraft fix 420 MB in all, 420/n MB per
  // thread, sizes rounded to 10 kB) is one curve per kernel and placement on the threads plot, not a
  // curve of one dot per thread count; SMT rows on a PU list each are one curve too. Points of one
  // size per thread stay curves per size, and sizes whose products differ stay apart.
  void a_working_set_split_over_the_threads_is_one_curve() {
    QTemporaryDir dir;
    std::vector<Point> split;
    for (int t = 1; t <= 10; ++t) {
      Point p = point("avx2-store", t, 420000000ull / t / 10000 * 10000, 12.0 * std::min(t, 4), 0.1);
      p.placement = "compact", p.traffic_class = "write-allocate";
      split.push_back(p);
    }
    for (int t = 2; t <= 20; t += 2) {
      Point p = point("avx2-store", t, 420000000ull / t / 10000 * 10000, 6.0 * std::min(t, 8), 0.1);
      p.traffic_class = "write-allocate";
      QStringList pus;
      for (int pu = 0; pu < t; ++pu) pus << QString::number(pu);
      p.placement = pus.join(",").toStdString();
      split.push_back(p);
    }
    MainWindow w;
    QVERIFY2(w.open_files({write_csv_file(dir.path(), "kerncraft.csv", split)}), qPrintable(w.last_error()));
    w.set_view("threads");
    QCOMPARE(w.threads_plot()->curve_count(), 2);
    QCOMPARE(w.threads_plot()->data_point_count(), 20);
    const QStringList labels = w.threads_plot()->legend_labels();
    QVERIFY2(labels.contains("avx2-store 400.54 MiB total compact") &&
                 labels.contains("avx2-store 400.54 MiB total on PU lists"),
             qPrintable(labels.join(" | ")));
    QVERIFY2(w.threads_plot()->title().contains("\"total\": one working set split over the threads"),
             qPrintable(w.threads_plot()->title()));
    QVERIFY2(!w.threads_plot()->title().contains("proxy"), qPrintable(w.threads_plot()->title()));
    // kerncraft's rows stand in for a clear (likwid-bench update / 2): the picture says which curves.
    std::vector<Point> proxies = split;
    for (std::size_t i = 0; i < 10; ++i)
      proxies[i].flags = {"imported from kerncraft: likwid-bench update / 2 = write-allocate clear proxy (same DRAM "
                          "lines read and written)"};
    MainWindow px;
    QVERIFY(px.open_files({write_csv_file(dir.path(), "proxies.csv", proxies)}));
    px.set_view("threads");
    QVERIFY2(px.threads_plot()->title().contains("1 of the 2 curves is a proxy, not a clearing measurement"),
             qPrintable(px.threads_plot()->title()));
    // Each thread clears its share: the axis says so (it said "each clearing its own buffer").
    QVERIFY2(w.threads_plot()->x_label().startsWith("threads (each clearing its share of one working set"),
             qPrintable(w.threads_plot()->x_label()));
    // Picking one size per thread in the box draws the curves through it.
    w.threads_plot()->set_only(21000000.0);  // 20 threads x 21 MB: the PU-list curve only
    QCOMPARE(w.threads_plot()->curve_count(), 1);
    // Against size they are a dot per thread count, and the size plot says why; `bwlab plot`'s
    // auto kind picks the threads plot for them (it drew 71 one-dot curves against size).
    QVERIFY2(w.size_plot()->title().contains("Some rows split one working set over the threads"),
             qPrintable(w.size_plot()->title()));
    std::vector<Dataset> two = w.datasets();  // and another machine's 375 MB split: more sizes than thread counts
    two.push_back(Dataset{"other", {}});
    for (int t = 1; t <= 10; ++t) two.back().points.push_back(point("avx2-store", t, 375000000ull / t, 5.0 * t, 0.1));
    QCOMPARE(auto_plot_kind(two), std::string("threads"));
    std::vector<Point> sweep;  // 4 sizes at 2 thread counts: curves of 4 points against size
    for (int t : {1, 2})
      for (std::uint64_t mib : {1, 4, 16, 64}) sweep.push_back(point("stosb", t, mib << 20, 10.0 * t, 0.1));
    QCOMPARE(auto_plot_kind({Dataset{"sweep", sweep}}), std::string("size"));

    // Not a split: one size per thread at every count, or products that differ.
    std::vector<Point> apart;
    for (int t = 1; t <= 4; ++t) apart.push_back(point("stosb", t, (64ull << 20) / t, 10.0 * t, 0.1));
    apart.back().size_bytes = 8ull << 20;  // 4 x 8 MiB = 32 MiB, the others 64 MiB
    MainWindow w2;
    QVERIFY(w2.open_files({write_csv_file(dir.path(), "apart.csv", apart), write_csv_file(dir.path(), "one.csv", line("movnti", 4, 5))}));
    w2.set_view("threads");
    QCOMPARE(w2.threads_plot()->curve_count(), 5);  // four stosb dots and the movnti 16 MiB curve
    for (const QString& l : w2.threads_plot()->legend_labels()) QVERIFY2(!l.contains("total"), qPrintable(l));
  }

  void run_names_show_whole_where_the_window_has_room() {
    QTemporaryDir empty;
    const auto elided = [](const MainWindow& w) {
      int n = 0;
      for (int row = 0; row < w.run_list()->count(); ++row) n += w.run_list()->shown_text(row).contains(QChar(0x2026));
      return n;
    };
    {
      MainWindow w;
      w.resize(1920, 1080);
      QVERIFY2(w.open_demo(empty.path()), qPrintable(w.last_error()));
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QTRY_COMPARE_WITH_TIMEOUT(elided(w), 0, kHangGuardMs);
      // (rows may show their short tag, unelided, until the deferred widening has run)
      QTRY_COMPARE_WITH_TIMEOUT(w.run_list()->width_short(), 0, kHangGuardMs);
      auto* tabs = w.findChild<QTabWidget*>();
      QVERIFY(tabs);
      QVERIFY2(tabs->width() >= 1920 * 7 / 10 - 20, qPrintable(QString("tabs %1 px").arg(tabs->width())));
    }
    {
      MainWindow w;
      w.resize(730, 520);  // the window's minimum: the demo's names have no room
      QVERIFY2(w.open_demo(empty.path()), qPrintable(w.last_error()));
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QTest::qWait(50);  // the deferred widening has run
      QVERIFY(elided(w) > 0);  // no room: elided in the middle, whole in the tooltip
      auto* split = qobject_cast<QSplitter*>(w.centralWidget());
      QVERIFY(split);
      QVERIFY2(split->sizes()[0] <= std::max(w.width() * 3 / 10, split->widget(0)->sizeHint().width()),
               qPrintable(QString("left %1 px of %2").arg(split->sizes()[0]).arg(w.width())));
    }
  }

  void demo_shows_measured_beside_a_simulated_two_socket_server() {
    QTemporaryDir empty;  // no results/ of this host: the committed sample is used
    MainWindow w;
    QVERIFY2(w.open_demo(empty.path()), qPrintable(w.last_error()));
    QCOMPARE(w.runs().size(), std::size_t(3));
    QVERIFY(!w.runs()[0].data.points.empty());
    QCOMPARE(w.runs()[0].data.points.front().source, std::string("measured"));
    QCOMPARE(w.runs()[1].origin, std::string("simulated"));
    // The subtitle says where the solid curves were measured: under "simulated for
    // skylake-x-8270cl" they read as that server's measurements.
    const Point& sample = w.runs()[0].data.points.front();
    QVERIFY2(w.threads_plot()->title().contains(
                 QString::fromStdString("measured on " + sample.cpu_model + " (solid) and simulated for")),
             qPrintable(w.threads_plot()->title()));
    // The Victim tab was empty: the third run is the server's victim scenario, predicted, at the
    // measured run's largest size, and its heat map holds a cell per victim and aggressor count.
    QVERIFY(is_victim_run(w.runs()[2]));
    std::set<std::string> victims;
    double worst = 0;
    for (const Point& p : w.runs()[2].data.points) {
      QCOMPARE(p.source, std::string("simulated"));
      QCOMPARE(p.size_bytes, std::uint64_t(256u << 20));
      victims.insert(p.kernel);
      worst = std::max(worst, p.slowdown_pct);
    }
    QCOMPARE(victims.size(), std::size_t(2));
    QVERIFY(w.heatmap()->data_point_count() > 0);
    QVERIFY(w.heatmap()->color_scale_visible());
    QVERIFY2(w.log()->toPlainText().contains(QString("The Victim tab shows one thread clearing beside k others on the "
                                                     "server")) &&
                 w.log()->toPlainText().contains(QString("(%1% slower)").arg(worst, 0, 'f', 0)),
             qPrintable(w.log()->toPlainText()));
    // The Runs tab's calls: the measured one and the server's, marked predicted.
    QVERIFY2(w.verdict_panel()->calls().contains("skylake-x-8270cl simulated, 2 sockets: stosb vs avx512-nt: "),
             qPrintable(w.verdict_panel()->calls()));
    QVERIFY2(w.verdict_panel()->calls().contains(" (predicted)"), qPrintable(w.verdict_panel()->calls()));
    // The victim run is judged per aggressor kernel, as `bwlab verdict` judges it (the tab said
    // "no verdict" where the CLI gave one).
    QVERIFY2(w.verdict_panel()->calls().contains("skylake-x-8270cl simulated, victim: stosb vs avx512-nt "
                                                 "beside avx512-nt: "),
             qPrintable(w.verdict_panel()->calls()));
    // Its size plot is no column of stacked one-point curves: one buffer size says where to look.
    PlotPanel by_size(PlotKind::size);
    by_size.resize(900, 600);
    by_size.set_scenario("victim");
    by_size.set_datasets({w.runs()[2].data});
    by_size.replot_now();
    QCOMPARE(by_size.curve_count(), 0);
    QVERIFY2(by_size.title().contains("victim rows of one buffer size"), qPrintable(by_size.title()));
    Dataset two_sizes = w.runs()[2].data;  // the same rows at a second size: a size sweep, drawn
    for (Point p : w.runs()[2].data.points) p.size_bytes *= 2, two_sizes.points.push_back(p);
    by_size.set_datasets({two_sizes});
    by_size.replot_now();
    QVERIFY(by_size.curve_count() > 0);
    int max_threads = 0;
    for (const Point& p : w.runs()[1].data.points) max_threads = std::max(max_threads, p.threads);
    QCOMPARE(max_threads, 104);  // package:2 core:26 pu:2
    // The size plot drew 20 curves at two sizes: it draws the measured run's largest thread count,
    // measured beside simulated, and the Threads box shows that choice.
    int measured_threads = 0;
    for (const Point& p : w.runs()[0].data.points) measured_threads = std::max(measured_threads, p.threads);
    QCOMPARE(w.size_plot()->only(), std::optional<double>(measured_threads));
    QCOMPARE(w.size_plot()->curve_count(), 4);  // stosb and the NT kernel, measured and simulated
    // ... and marks that thread count's share of the server's LLC (it drew the whole LLC only, "n
    // threads, LLC/n each", beside curves of one thread count).
    QVERIFY2(w.size_plot()->drawn_ceilings().join("|").contains(QString("LLC share per thread (%1T compact)").arg(measured_threads)),
             qPrintable(w.size_plot()->drawn_ceilings().join("|")));
    QVERIFY(!w.size_plot()->drawn_ceilings().join("|").contains("n threads, LLC/n each"));
    // The comparison (measured VM against the simulated server) counts no regression, as bwlab
    // compare, which exits 0 there: it said "3 lower, 1 higher (...bwlab compare calls them
    // regressions and exits 3)". The prediction is for a Xeon, the measurement ran on this host's
    // CPU: the rows say the machines differ ("LOWER (other machine)"), not that the model erred
    // ("new lower, beyond the band (model vs measurement)"), and the summary counts them apart.
    const Comparison& vs = *w.compare_view()->comparison();
    QCOMPARE(vs.regressions + vs.improvements, 0);
    QCOMPARE(vs.model_below + vs.model_above, 0);
    QVERIFY(vs.other_below + vs.other_above > 0);
    const QString summary = w.compare_view()->summary();
    // New is the prediction here: "new lower" (the prediction below the measurement), not "lower
    // than a prediction", which read as the measurement lower.
    QVERIFY2(summary.contains(QString("; %1 beyond the band of a prediction for another CPU (new lower at %2, higher "
                                      "at %3: the machines differ, not a regression)")
                                  .arg(vs.other_below + vs.other_above)
                                  .arg(vs.other_below)
                                  .arg(vs.other_above)) &&
                 summary.contains("predicted for Intel Xeon Platinum 8270CL, measured on ") && !summary.contains("exits 3") &&
                 !summary.contains("apart from the model"),
             qPrintable(summary));
    for (int r = 0; r < w.compare_view()->table()->rowCount(); ++r) {
      const QString row = w.compare_view()->table()->item(r, 7)->text();
      QVERIFY2(!row.contains("model vs measurement") && !row.contains("REGRESS"), qPrintable(row));
      QCOMPARE(w.compare_view()->table()->item(r, 7)->toolTip(), row);  // the whole of a cut cell
    }
    w.set_view("size");
    QCOMPARE(w.curve_filter_box()->currentText(), QString("%1 threads").arg(measured_threads));
    w.set_view("threads");
    QVERIFY(!w.threads_plot()->only());
    // The Topology tab showed every PU idle: it shows the NT point at 52 threads, 256 MiB, each of
    // its PUs coloured by the point's predicted per-thread GB/s, and the log says which point.
    const std::map<int, double>& shown = w.topology_view()->pu_values();
    QCOMPARE(shown.size(), std::size_t(52));
    // The table lists the runs in their order (it sorted by run name, descending: the server's
    // scaling rows came after its victim rows).
    QAbstractItemModel* table = w.results_table()->model();
    QCOMPARE(table->rowCount(), w.results()->rowCount());
    for (int r = 0; r < table->rowCount(); ++r)
      QCOMPARE(table->index(r, ResultsModel::Threads).data(ResultsModel::RawValueRole).toInt(), w.results()->point(r).threads);
    // A scaling point: no victim or aggressor frames (it showed the victim run's point, framed).
    QVERIFY(w.topology_view()->pu_roles().empty());
    const Point* nt52 = nullptr;
    for (const Point& p : w.runs()[1].data.points)
      if (p.kernel != "stosb" && p.threads == 52 && p.size_bytes == (256u << 20)) nt52 = &p;
    QVERIFY(nt52);
    for (const int pu : nt52->pus_planned) {
      QVERIFY2(shown.count(pu), qPrintable(QString("PU %1 not coloured").arg(pu)));
      QCOMPARE(shown.at(pu), nt52->gbps_per_thread_median);
    }
    QVERIFY2(w.log()->toPlainText().contains(QString("The Topology tab shows the server's 52 of 104 PUs running %1 at 256 MiB")
                                       .arg(QString::fromStdString(nt52->kernel))),
             qPrintable(w.log()->toPlainText()));
    // Its colour scale reaches what one thread alone gets (52 equal shares were all the scale's top).
    const Point* nt1 = nullptr;
    for (const Point& p : w.runs()[1].data.points)
      if (p.kernel == nt52->kernel && p.threads == 1 && p.size_bytes == (256u << 20)) nt1 = &p;
    QVERIFY(nt1);
    QVERIFY(nt1->gbps_per_thread_median > nt52->gbps_per_thread_median);
    QCOMPARE(w.topology_view()->colour_scale_max(), nt1->gbps_per_thread_median);
    QVERIFY2(w.log()->toPlainText().contains(QString("on a scale up to what one thread alone gets (%1 GB/s)")
                                                 .arg(nt1->gbps_per_thread_median, 0, 'f', 1)),
             qPrintable(w.log()->toPlainText()));
    QVERIFY(w.verdict_panel()->text().contains("[prediction]"));
    QCOMPARE(w.view(), QString("threads"));
    // The panel shows the measured run's comparison (it said movnti too, and 16M,1G beside curves
    // at 32 and 256 MiB): the sample's kernels this CPU runs, its sizes, in Measure mode.
    std::set<std::string> kernels;
    std::set<std::uint64_t> sizes;
    for (const Point& p : w.runs()[0].data.points) kernels.insert(p.kernel), sizes.insert(p.size_bytes);
    QStringList want_sizes;
    for (const auto z : sizes) want_sizes << QString::fromStdString(format_bytes(z));
    const RunRequest r = w.panel()->request();
    QVERIFY(!r.simulate);
    QCOMPARE(r.sizes, want_sizes.join(','));
    for (const QString& k : r.kernels.split(',')) QVERIFY2(kernels.count(k.toStdString()), qPrintable(r.kernels));
    QVERIFY2(r.kernels.split(',').contains("stosb"), qPrintable(r.kernels));
    // A log GB/s axis: the VM's 10-25 GB/s were a tangle under the server's 190 on a linear one.
    QVERIFY(w.threads_plot()->log_y());
    QVERIFY(w.findChild<QCheckBox*>("log_y")->isChecked());
    // The story names the verdict each run gets, read from the same points (it once promised that
    // NT stores win at large sizes, next to a verdict that said the opposite).
    const Demo demo = build_demo(empty.path().toStdString());
    for (const KeptRun& r : demo.runs) {
      if (is_victim_run(r)) continue;  // no stosb-vs-NT verdict: the kernels ran beside each other
      const auto v = compute_verdicts(r.data.points);
      QVERIFY(!v.empty());
      // No run of this host in the results folder: the measured run is the shipped sample of
      // another machine, and the story does not call it "measured here".
      const std::string call = std::string(r.origin == "simulated" ? "predicted for the server " : "measured on the sample's machine ") +
                               v[0].wa_kernel + " vs " + v[0].nt_kernel + ": " + to_string(v[0].recommendation);
      QVERIFY2(demo.story.find(call) != std::string::npos, demo.story.c_str());
      // The size the call is of: the sample's 32 MiB curves show NT ahead beside "NT slow" (256 MiB).
      QVERIFY2(demo.story.find(call + " (judged at 256 MiB)") != std::string::npos, demo.story.c_str());
    }
    QVERIFY2(demo.story.find("measured here") == std::string::npos, demo.story.c_str());
    QVERIFY2(demo.story.find(" beside avx512-nt and stosb predicted on a 2-socket server") != std::string::npos,
             demo.story.c_str());  // it read "avx512-nt,stosb"
    // Agree or disagree is said as the two calls are ("Where the two disagree" over two equal calls).
    const auto call_of = [](const KeptRun& r) { return std::string(to_string(compute_verdicts(r.data.points)[0].recommendation)); };
    const bool agree = call_of(demo.runs[0]) == call_of(demo.runs[1]);
    QVERIFY2(demo.story.find(agree ? "Here the two agree" : "The two disagree") != std::string::npos, demo.story.c_str());
    QVERIFY2(demo.story.find(agree ? "disagree" : "agree;") == std::string::npos, demo.story.c_str());
    // Beside curves measured on another machine (the sample), the server's ceilings name it: read
    // unnamed, its 140.8 GB/s looked like the limit of the measured curves.
    const QString beside_measured = w.threads_plot()->drawn_ceilings().join("|");
    QVERIFY2(beside_measured.contains("DRAM peak per node 140.8 GB/s (skylake-x-8270cl)"), qPrintable(beside_measured));
    // Beside curves simulated on another machine, the demo machine's ceilings and marks name it.
    const auto other = simulate_compact(*load_machine("broadwell-x-e5-2630v4"), {1, 10});
    QVERIFY(w.open_files({write_csv_file(empty.path(), "bdw.csv", other)}));
    const QString named = w.threads_plot()->drawn_ceilings().join("|");
    QVERIFY2(named.contains("DRAM peak per node 140.8 GB/s (skylake-x-8270cl)") &&
                 named.contains("first point on socket 2: 52T (skylake-x-8270cl)"),
             qPrintable(named));
    // The other machine's curves get their own DRAM peak, named: they stood beside the demo
    // server's lines only, and a second server's curves rose above a peak that was not theirs.
    const QString bdw_peak = QString("DRAM peak per node %1 GB/s (broadwell-x-e5-2630v4)")
                                 .arg(load_machine("broadwell-x-e5-2630v4")->dram_peak_gbps_per_node, 0, 'f', 1);
    QVERIFY2(named.contains(bdw_peak), qPrintable(named));
    // Its link line is left out (the first machine's only): it bounds no local-memory curve.
    QVERIFY2(!named.contains("memory only) (broadwell-x-e5-2630v4)"), qPrintable(named));
    // With a run of this host in the results directory, the demo shows that one instead.
    QTemporaryDir results;
    std::vector<Point> mine = verdict_points();
    // A thread count not in the server's list (1, 2, 4, ... 104): simulated too, so the size plot,
    // which draws the measured run's largest count, has both sides.
    for (const char* k : {"stosb", "avx512-nt"}) mine.push_back(point(k, 3, 1u << 30, 30, 0.5));
    for (Point& p : mine) p.host = host_name();
    write_csv_file(results.path(), "latest.csv", mine);
    MainWindow w2;
    QVERIFY2(w2.open_demo(results.path()), qPrintable(w2.last_error()));
    QCOMPARE(w2.runs().size(), std::size_t(3));
    QVERIFY(w2.runs()[0].data.name.find("latest.csv") != std::string::npos);
    QCOMPARE(w2.runs()[0].data.points.size(), mine.size());  // stosb and avx512-nt, both sizes
    QCOMPARE(w2.size_plot()->only(), std::optional<double>(3));
    QCOMPARE(w2.size_plot()->curve_count(), 4);
    const Demo own = build_demo(results.path().toStdString());
    QVERIFY2(own.story.find("measured here stosb vs avx512-nt") != std::string::npos, own.story.c_str());
    const bool own_agree = call_of(own.runs[0]) == call_of(own.runs[1]);
    QVERIFY2(own.story.find(own_agree ? "Here the two agree" : "The two disagree") != std::string::npos, own.story.c_str());
    // A run of this host whose sizes fit in its cache: its call says so, as the Runs tab does, and a
    // call unlike the server's is not "the machine decides" (cached clears against DRAM-bound ones).
    if (Topology::local().llc_bytes() >= (1u << 20)) {
      QTemporaryDir cached;
      std::vector<Point> small;
      for (int t : {1, 2})
        for (std::uint64_t size : {64u << 10, 128u << 10}) {
          small.push_back(point("stosb", t, size, 10.0 * t, 0.1));
          small.push_back(point("avx512-nt", t, size, 20.0 * t, 0.1));
        }
      for (Point& p : small) p.host = host_name();
      write_csv_file(cached.path(), "small.csv", small);
      const Demo c = build_demo(cached.path().toStdString());
      QVERIFY2(c.story.find("measured here stosb vs avx512-nt: NT good, for clears that fit in the cache only") !=
                   std::string::npos,
               c.story.c_str());
      if (call_of(c.runs[0]) != call_of(c.runs[1]))
        QVERIFY2(c.story.find("The two differ, but the measured call is of clears that fit in this machine's cache") !=
                         std::string::npos &&
                     c.story.find("The two disagree") == std::string::npos,
                 c.story.c_str());
    }
  }

  void log_uses_the_forms_words() {
    QCOMPARE(form_wording("unstable: 7.3% pstdev of GB/s over 5 reps, try --reps 11 or a longer --duration"),
             std::string("unstable: 7.3% pstdev of GB/s over 5 reps, raise Repetitions to 11 or lengthen the Window"));
    QCOMPARE(form_wording("single repetition: no spread, use --reps 3 or more"),
             std::string("single repetition: no spread, set Repetitions to 3 or more"));
    QCOMPARE(form_wording("no option here"), std::string("no option here"));
    // The form has no --reject-noisy box: the advice names the command that has it.
    QCOMPARE(form_wording("the call less sure than its ranges say; rerun with --reject-noisy (and more --reps) before"),
             std::string("the call less sure than its ranges say; rerun with `bwlab run --reject-noisy` (command line "
                         "only) and more Repetitions before"));
    QCOMPARE(form_wording("noisy: 2 of 3 windows disturbed; --reject-noisy measures such windows again"),
             std::string("noisy: 2 of 3 windows disturbed; `bwlab run --reject-noisy` (command line only) measures such "
                         "windows again"));
    QCOMPARE(form_wording("with more --reps (--reject-noisy is for --scenario scaling; a victim run keeps every window)"),
             std::string("with more Repetitions (`bwlab run --reject-noisy`, command line only, is for the scaling "
                         "scenario; a victim run keeps every window)"));
    // A quoted command stays a command (the verdict panel's glibc line read "`bwlab verdict Machine MACHINE`").
    QCOMPARE(form_wording("use --sizes 2M; `bwlab verdict --machine MACHINE` gives it; then --threads"),
             std::string("use Sizes 2M; `bwlab verdict --machine MACHINE` gives it; then Threads"));
    QCOMPARE(form_wording("an open `quote --reps 3"), std::string("an open `quote --reps 3"));
    MainWindow w;
    RunRequest r = tiny_simulation();
    r.scenario = "pagefault";  // core refuses: "--scenario pagefault is measure-only"
    w.panel()->set_request(r);
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QVERIFY(done.at(0).at(1).toString().contains("--scenario"));  // core's CLI wording, unchanged
    const QString log = w.log()->toPlainText();
    QVERIFY2(log.contains("Scenario pagefault is measure-only") && !log.contains("--scenario"), qPrintable(log));
  }

  void wheel_leaves_an_unfocused_spin_box_alone() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSpinBox* reps = nullptr;
    for (QSpinBox* s : w.panel()->findChildren<QSpinBox*>())
      if (s->value() == w.panel()->request().reps) reps = s;
    QVERIFY(reps);
    QCOMPARE(reps->focusPolicy(), Qt::StrongFocus);
    QVERIFY(!reps->hasFocus());
    const int before = reps->value();
    const QPointF at(reps->width() / 2.0, reps->height() / 2.0);
    QWheelEvent up(at, reps->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                   Qt::NoScrollPhase, false);
    QApplication::sendEvent(reps, &up);
    QCOMPARE(reps->value(), before);
    // The same event does step a spin box without the guard: the check above can fail.
    QSpinBox plain;
    plain.setRange(0, 100);
    plain.setValue(5);
    QWheelEvent again(at, at, QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&plain, &again);
    QCOMPARE(plain.value(), 6);
  }

  void local_llc_marks_only_curves_measured_here() {
    // The size plot's "LLC ... (this machine)" belongs to points measured on this host only
    // (the rule of `bwlab plot --llc auto`): not to a file from another machine, nor to a
    // simulated one. Each case in a fresh window, the file its only run.
    QTemporaryDir dir;
    const auto marks_local = [&](const std::string& host, const std::string& source, const std::string& cpu = {}) {
      std::vector<Point> pts = line("stosb", 2, 10);
      for (Point& p : pts) p.host = host, p.source = source, p.cpu_model = cpu;
      MainWindow w;
      w.resize(1200, 800);
      if (!w.open_files({write_csv_file(dir.path(), QString::fromStdString(host + "-" + source + cpu + ".csv"), pts)}))
        return -1;
      w.set_view("size");
      PlotPanel* plot = w.size_plot();
      plot->replot_now();
      const QString marks = plot->drawn_ceilings().join("; ") + " | " + plot->off_range_note();
      return marks.contains("this machine") ? 1 : 0;
    };
    QCOMPARE(marks_local(host_name(), "measured"), 1);  // the rule lets this machine's own curves keep it
    QCOMPARE(marks_local("some-other-host", "measured"), 0);
    QCOMPARE(marks_local(host_name(), "simulated"), 0);
    // This host name on another CPU (a guest moved to another host, a default name): another machine.
    const std::string cpu = detect_cpu_features().model_name;
    QCOMPARE(marks_local(host_name(), "measured", cpu), 1);
    QCOMPARE(marks_local(host_name(), "measured", "Another CPU " + cpu), 0);
    QVERIFY(all_measured_on({}, "h"));
    QVERIFY(!all_measured_on({Dataset{"a", line("stosb", 1, 1), true}}, "h"));
  }

  void help_needs_no_display_and_exits_0() {
    const Result r = run_gui({"--help"});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains("Usage: bwlab-gui") && r.out.contains("--screenshot"), qPrintable(r.out));
    const Result v = run_gui({"--version"});
    QCOMPARE(v.exit_code, 0);
    QVERIFY(v.out.startsWith("bwlab-gui "));
  }

  // Over ssh without X forwarding Qt aborted (exit 134: "Reinstalling the application may fix this
  // problem"): exit 1 with one line that says what works without a display.
  void no_display_says_so_and_exits_1() {
    const Result r = run_gui({"--demo"});
    QCOMPARE(r.exit_code, 1);
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY2(r.err.startsWith("bwlab-gui: no display (DISPLAY and WAYLAND_DISPLAY are unset)") &&
                 r.err.contains("--screenshot out.png"),
             qPrintable(r.err));
  }

  void bad_options_exit_2_with_one_line() {
    for (const QStringList& args : {QStringList{"--no-such-option"}, QStringList{"--view", "pie"}, QStringList{"--view", ""},
                                    QStringList{"--size", "big"}, QStringList{"--screenshot", "/no/such/dir/x.png"},
                                    QStringList{"--screenshot", "x.jpg"}, QStringList{"--screenshot", ""}}) {
      const Result r = run_gui(args);
      QCOMPARE(r.exit_code, 2);
      QCOMPARE(r.err.trimmed().count('\n'), 0);
      QVERIFY2(r.err.startsWith("bwlab-gui: "), qPrintable(r.err));
    }
    // A size past the range gets the range (it got "use WIDTHxHEIGHT"); an unwritable screenshot
    // its reason, before anything is drawn (it rendered, then said "cannot write the PNG").
    const Result huge = run_gui({"--size", "100000x100000", "--screenshot", "x.png"});
    QCOMPARE(huge.exit_code, 2);
    QVERIFY2(huge.err.contains("bad --size '100000x100000': from 320x240 to 8192x8192 pixels"), qPrintable(huge.err));
    const Result proc = run_gui({"--demo", "--screenshot", "/proc/x.png"});
    QCOMPARE(proc.exit_code, 2);
    QVERIFY2(proc.err.contains("--screenshot: cannot write /proc/x.png: the folder /proc takes no new files"),
             qPrintable(proc.err));
    // Too small for the text: the text scale is named with the two ways out (it gave the minimum alone).
    QTemporaryDir out;
    const Result big_text =
        run_gui({"--demo", "--size", "800x600", "--text-scale", "2", "--screenshot", out.path() + "/x.png"});
    QCOMPARE(big_text.exit_code, 2);
    QVERIFY2(big_text.err.contains("is below the window's minimum size") &&
                 big_text.err.contains("with --text-scale 2 (larger text needs a larger window: give a smaller "
                                       "--text-scale or a larger --size)"),
             qPrintable(big_text.err));
  }

  // A CSV with its header only is refused as `bwlab plot` and `verdict` refuse it (it opened as
  // "0 points" beside "No scaling rows to plot", exit 0).
  void a_file_without_points_exits_2() {
    QTemporaryDir dir;
    const QString csv = dir.path() + "/header_only.csv";
    {
      QFile f(csv);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray(csv_header().data(), qsizetype(csv_header().size())) + "\n");
    }
    const Result r = run_gui({csv, "--screenshot", dir.path() + "/x.png"});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("header_only.csv: no points"), qPrintable(r.err));
    QVERIFY(!QFile::exists(dir.path() + "/x.png"));
  }

  void a_size_below_the_minimum_names_the_real_minimum() {
    // 640 is too narrow, 700 tall enough: the message used to echo the height asked for (the size
    // the window ended up at) instead of the window's own minimum height.
    QTemporaryDir dir;
    const QString png = dir.path() + "/x.png";
    const Result small = run_gui({"--size", "640x700", "--screenshot", png});
    QCOMPARE(small.exit_code, 2);
    const QRegularExpressionMatch m = QRegularExpression("minimum size (\\d+)x(\\d+)").match(small.err);
    QVERIFY2(m.hasMatch(), qPrintable(small.err));
    const int w = m.captured(1).toInt(), h = m.captured(2).toInt();
    const auto size = [](int x, int y) { return QString("%1x%2").arg(x).arg(y); };
    const Result at_min = run_gui({"--size", size(w, h), "--screenshot", png});  // it works ...
    QVERIFY2(at_min.exit_code == 0, qPrintable(size(w, h) + ": " + at_min.err));
    for (const QString& below : {size(w - 1, h), size(w, h - 1)}) {  // ... and is the least that does
      const Result r = run_gui({"--size", below, "--screenshot", png});
      QVERIFY2(r.exit_code == 2, qPrintable(below + ": " + r.err));
    }
  }

  void a_scaled_screenshot_has_the_size_asked_for() {
    // QT_SCALE_FACTOR=1.5 (larger text for a projector) with --size 1920x1080 was refused as "below
    // the window's minimum size 893x520": grab() counts device pixels, 1.5 times the window's.
    QTemporaryDir dir;
    const QString png = dir.path() + "/scaled.png";
    qputenv("QT_SCALE_FACTOR", "1.5");
    const Result r = run_gui({"--size", "1920x1080", "--screenshot", png});
    qunsetenv("QT_SCALE_FACTOR");
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QCOMPARE(QImage(png).size(), QSize(1920, 1080));
    QVERIFY2(r.out.contains("(1920x1080)"), qPrintable(r.out));
    // Qt's notes on the offscreen platform are not the screenshot's business (they read as errors).
    QVERIFY2(!r.err.contains("propagateSizeHints") && !r.err.contains("XDG_RUNTIME_DIR"), qPrintable(r.err));
  }

  void a_file_that_cannot_be_opened_says_why() {
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(!w.open_files({dir.path() + "/missing.csv"}));
    QVERIFY2(w.last_error().contains("No such file or directory"), qPrintable(w.last_error()));
    // Said once: the title names the file, the text the reason (it was "Cannot open missing.csv:
    // cannot open /tmp/.../missing.csv: No such file or directory").
    QCOMPARE(w.last_error(), QString("Cannot open missing.csv: No such file or directory"));
    QVERIFY(!w.open_files({dir.path()}));
    QVERIFY2(w.last_error().contains("is a directory"), qPrintable(w.last_error()));
  }

  void a_mistyped_view_or_option_gets_the_nearest_name() {
    const auto parse = [](std::vector<const char*> args) {
      args.insert(args.begin(), "bwlab-gui");
      return parse_gui_command_line(static_cast<int>(args.size()), args.data());
    };
    const ParsedCommandLine view = parse({"--view", "thread"});
    QVERIFY(view.outcome == ParseOutcome::exit_usage);
    QVERIFY2(QString::fromStdString(view.text).contains("unknown --view 'thread'; did you mean threads? (views: threads|"),
             view.text.c_str());
    const ParsedCommandLine option = parse({"--vew", "threads"});
    QVERIFY(option.outcome == ParseOutcome::exit_usage);
    QVERIFY2(QString::fromStdString(option.text).contains("unknown option --vew; did you mean --view?"),
             option.text.c_str());
    const ParsedCommandLine far = parse({"--view", "pie"});  // nothing near: the list only
    QVERIFY2(QString::fromStdString(far.text).contains("unknown --view 'pie': use threads|"), far.text.c_str());
  }

  void size_tab_has_the_plot_bar_and_log_axis() {
    // The bar (rows, per-thread, log axis) sat on the threads tab only: on the size tab nothing
    // could change that plot's axis.
    MainWindow w;
    auto* log_y = w.findChild<QCheckBox*>("log_y");
    QVERIFY(log_y);
    QVERIFY(w.set_view("size"));
    QVERIFY(w.size_plot()->parentWidget()->isAncestorOf(log_y));
    log_y->setChecked(true);
    QVERIFY(w.size_plot()->log_y());
    QVERIFY(w.threads_plot()->log_y());
    QVERIFY(w.set_view("threads"));
    QVERIFY(w.threads_plot()->parentWidget()->isAncestorOf(log_y));
    QVERIFY(w.set_view("table"));
    QVERIFY(w.threads_plot()->parentWidget()->isAncestorOf(log_y));  // stays where it was
    log_y->setChecked(false);
    QVERIFY(!w.size_plot()->log_y());
  }

  void text_scale_reaches_every_text_and_is_kept() {
    // A lab demo on a projector: View > Larger text scales the window's text, the plots' and the
    // verdict's fixed-width table included; Normal text size undoes it; a new window keeps it.
    MainWindow w;
    QCOMPARE(w.text_scale(), 1.0);
    for (const QLabel* l : w.statusBar()->findChildren<QLabel*>())  // the first line is kept
      QVERIFY2(!l->text().startsWith("Text at"), qPrintable(l->text()));
    const double usual = QApplication::font().pointSizeF();
    QVERIFY(usual > 0);
    auto* larger = w.findChild<QAction*>("text_larger");
    auto* smaller = w.findChild<QAction*>("text_smaller");
    auto* normal = w.findChild<QAction*>("text_normal");
    QVERIFY(larger && smaller && normal);
    QVERIFY(larger->shortcuts().contains(QKeySequence::keyBindings(QKeySequence::ZoomIn).value(0)));
    larger->trigger();
    larger->trigger();
    const double two = text_scale::kStep * text_scale::kStep;
    QVERIFY(std::abs(w.text_scale() - two) < 1e-9);
    QVERIFY(std::abs(QApplication::font().pointSizeF() - usual * two) < 0.05);
    QVERIFY(std::abs(w.threads_plot()->text_scale() - two) < 1e-9);
    QVERIFY(std::abs(w.size_plot()->text_scale() - two) < 1e-9);
    auto* verdict = w.verdict_panel()->findChild<QTextEdit*>("verdict_text");
    QApplication::processEvents();  // font changes reach the widgets as events
    QVERIFY2(std::abs(verdict->font().pointSizeF() - usual * two) < 0.05,
             qPrintable(QString("%1 vs %2").arg(verdict->font().pointSizeF()).arg(usual * two)));
    bool said = false;
    for (const QLabel* l : w.statusBar()->findChildren<QLabel*>()) said |= l->text().startsWith("Text at 132% of its usual size");
    QVERIFY2(said, "the status bar says the scale");
    for (int i = 0; i < 20; ++i) larger->trigger();
    QCOMPARE(w.text_scale(), text_scale::kMax);
    for (int i = 0; i < 40; ++i) smaller->trigger();
    QCOMPARE(w.text_scale(), text_scale::kMin);
    normal->trigger();
    QCOMPARE(w.text_scale(), 1.0);
    QVERIFY(std::abs(QApplication::font().pointSizeF() - usual) < 0.01);
    QCOMPARE(w.threads_plot()->text_scale(), 1.0);
    // Kept for the next start, which also undoes what an earlier window left.
    w.set_text_scale(1.3);
    w.close();
    {
      MainWindow next;
      QVERIFY(std::abs(next.text_scale() - 1.3) < 1e-9);
      QVERIFY(std::abs(QApplication::font().pointSizeF() - usual * 1.3) < 0.05);
      next.set_text_scale(1);
      next.close();
    }
    QVERIFY(std::abs(QApplication::font().pointSizeF() - usual) < 0.01);
    // The command line: in range only.
    const auto parse = [](std::vector<const char*> args) {
      args.insert(args.begin(), "bwlab-gui");
      return parse_gui_command_line(static_cast<int>(args.size()), args.data());
    };
    const ParsedCommandLine ok = parse({"--text-scale", "1.5"});
    QVERIFY(ok.outcome == ParseOutcome::run);
    QCOMPARE(ok.options.text_scale, 1.5);
    for (const char* bad : {"3", "0.5", "nan"}) {
      const ParsedCommandLine r = parse({"--text-scale", bad});
      QVERIFY2(r.outcome == ParseOutcome::exit_usage, bad);
      QVERIFY2(QString::fromStdString(r.text).contains("bad --text-scale"), r.text.c_str());
    }
  }

  void empty_screenshot_names_are_refused() {
    // "" used to mean "no screenshot": the window opened and a script waited forever.
    const auto parse = [](std::vector<const char*> args) {
      args.insert(args.begin(), "bwlab-gui");
      return parse_gui_command_line(static_cast<int>(args.size()), args.data());
    };
    const ParsedCommandLine none = parse({});
    QVERIFY(none.outcome == ParseOutcome::run);
    for (const char* path : {"", ".png", "sub/.PNG"}) {
      const ParsedCommandLine r = parse({"--screenshot", path});
      QVERIFY2(r.outcome == ParseOutcome::exit_usage, path);
      QVERIFY2(QString::fromStdString(r.text).contains("file name is empty"), r.text.c_str());
      QVERIFY2(r.text.find('\n') == std::string::npos, r.text.c_str());
    }
    const ParsedCommandLine jpg = parse({"--screenshot", "x.jpg"});
    QVERIFY(jpg.outcome == ParseOutcome::exit_usage);
    QVERIFY2(QString::fromStdString(jpg.text).contains("must end in .png"), jpg.text.c_str());
    QVERIFY(parse({"--screenshot", "x.png"}).outcome == ParseOutcome::run);
  }

  void screenshot_writes_the_requested_size() {
    QTemporaryDir dir;
    const QString csv = write_csv_file(dir.path(), "a.csv", line("stosb", 2, 10));
    const QString png = dir.path() + "/shot.png";
    const Result r = run_gui({csv, "--view", "runs", "--screenshot", png, "--size", "900x640"});
    QCOMPARE(r.exit_code, 0);
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(900, 640));
    // A missing input file: one line, exit 2, no picture.
    const Result bad = run_gui({dir.path() + "/missing.csv", "--screenshot", dir.path() + "/no.png"});
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.contains("missing.csv"), qPrintable(bad.err));
    QVERIFY(!QFileInfo::exists(dir.path() + "/no.png"));
  }
};

QTEST_MAIN(RunsTest)
#include "runs_test.moc"
