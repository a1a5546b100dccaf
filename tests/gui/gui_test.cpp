// SPDX-License-Identifier: MIT
// The GUI, offscreen: the window, live runs (simulated and measured), Stop, overlays,
// malformed files, the table model, export. No test asserts a bandwidth figure.
#include <QHeaderView>
#include <QTableView>
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QFileInfo>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

#include <fstream>
#include <sstream>

#include "core/kernels/kernels.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/report/csv.hpp"
#include "core/report/fields.hpp"
#include "core/topology/topology.hpp"
#include "core/report/json.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "gui/app/control_panel.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/results_model.hpp"
#include "gui/app/topology_view.hpp"
#include "gui/plots/plot_panel.hpp"
#include "tests/support/sample_point.hpp"

using namespace bwlab;
using namespace bwlab::gui;

namespace {

std::vector<Point> sample_points(const std::string& kernel, int n_threads) {
  std::vector<Point> out;
  for (int t = 1; t <= n_threads; ++t) {
    Point p = testsupport::sample_point(kernel, 1u << 24, t, 10.0 * t, 1.0 * t);
    p.pus = {0};
    out.push_back(p);
  }
  return out;
}

QString write_csv_file(const QString& dir, const QString& name, const std::vector<Point>& points) {
  std::ostringstream s;
  write_csv(s, points);
  const QString path = dir + "/" + name;
  std::ofstream(path.toStdString()) << s.str();
  return path;
}

// Victim rows as the victim scenario writes them: k = 0 is the baseline (0%).
std::vector<Point> victim_points(const std::vector<std::string>& victims, const std::string& aggressor, int max_k) {
  std::vector<Point> out;
  for (const auto& v : victims) {
    for (int k = 0; k <= max_k; ++k) {
      Point p = sample_points(v, 1).front();
      p.scenario = "victim";
      p.role = "victim";
      p.threads = 1 + k;
      p.peer_kernel = aggressor;
      p.peer_threads = k;
      p.baseline_gbps = 10.0;
      p.gbps_median = 10.0 - k;
      p.gbps_min = p.gbps_median - 0.1, p.gbps_max = p.gbps_median + 0.1;
      p.slowdown_pct = 10.0 * k;
      p.peer_gbps_median = k ? 5.0 * k : Point::kNone;
      out.push_back(p);
    }
  }
  return out;
}

// Thread counts a tiny run may use here: 1 and 2 when the process may use 2 PUs.
// Hang guard for every wait on the GUI: no test asserts how fast a run, a stop or a close is,
// only that it gets there (CI is a shared 2-core host; sanitizer builds are 5-20x slower).
constexpr int kHangGuardMs = 60000;

int usable_pus() { return static_cast<int>(Topology::local().allowed_pus().size()); }

RunRequest tiny_measure(const QString& kernels, const QString& sizes, const QString& threads, int reps, int ms) {
  RunRequest r;
  r.kernels = kernels;
  r.sizes = sizes;
  r.threads = threads;
  r.reps = reps;
  r.duration_ms = ms;
  return r;
}

}  // namespace

class GuiTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QSettings().clear(); }

  void window_opens_with_every_view() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.tabs()->count(), 6);
    QVERIFY(count_nodes(w.topology_view()->tree(), TopoNode::Kind::pu) >= 1);
    QCOMPARE(w.threads_plot()->curve_count(), 0);
    // Kernels this CPU lacks are disabled, with the reason as tooltip.
    const CpuFeatures cpu = detect_cpu_features();
    for (const KernelInfo& k : kernel_table()) {
      QCheckBox* cb = w.panel()->kernel_box(QString::fromUtf8(k.name.data(), int(k.name.size())));
      QVERIFY(cb);
      const Availability a = kernel_availability(k, cpu);
      QCOMPARE(cb->isEnabled(), a.available);
      if (!a.available) QVERIFY(cb->toolTip().contains(QString::fromStdString(a.reason)));
    }
  }

  void simulate_run_fills_the_graphs() {
    MainWindow w;
    RunRequest r;
    r.simulate = true;
    r.machine = QString::fromStdString(machine_presets().front());
    r.topology = "package:1 core:4 pu:1";
    r.kernels = "stosb,movnti";
    r.sizes = "1M,2M,4M";
    r.threads = "1..4";
    w.panel()->set_request(r);
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QCOMPARE(done.at(0).at(1).toString(), QString());
    QCOMPARE(w.results()->rowCount(), 2 * 3 * 4);
    QCOMPARE(w.threads_plot()->data_point_count(), 24);
    QCOMPARE(w.threads_plot()->curve_count(), 2 * 3);  // kernel x size
    QCOMPARE(w.size_plot()->curve_count(), 2 * 4);     // kernel x thread count
    for (int row = 0; row < w.results()->rowCount(); ++row) QCOMPARE(w.results()->point(row).source, std::string("simulated"));
    QCOMPARE(count_nodes(w.topology_view()->tree(), TopoNode::Kind::core), 4);  // the simulated topology
    QVERIFY(!w.topology_view()->pu_values().empty());
    // Its top box names the simulated machine (it read "Machine (package:1 core:4 pu:1)").
    QVERIFY2(w.topology_view()->tree().label.rfind("Simulated machine " + machine_presets().front() +
                                                       " (package:1 core:4 pu:1, LLC ", 0) == 0,
             w.topology_view()->tree().label.c_str());
    QVERIFY(!w.log()->toPlainText().contains("takes the LLC"));  // no L3 given: nothing to say
    // The preset's sockets on a 4-core package: the log says the prediction is of another machine.
    QVERIFY2(w.log()->toPlainText().contains("so this predicts another machine under"),
             qPrintable(w.log()->toPlainText()));
    // A topology with an L3 of another size: the model keeps the machine's, and the log says so.
    r.topology = "package:1 l3:2(size=16MiB) core:4 pu:1";
    w.panel()->set_request(r);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, kHangGuardMs);
    QCOMPARE(done.at(1).at(1).toString(), QString());
    QVERIFY2(w.log()->toPlainText().contains(QString("note: the model takes the LLC from machine %1")
                                                  .arg(QString::fromStdString(machine_presets().front()))),
             qPrintable(w.log()->toPlainText()));
  }

  void measured_and_simulated_overlay_solid_and_dashed() {
    QTemporaryDir dir;
    std::vector<Point> pts = sample_points("stosb", 2);
    std::vector<Point> sim = pts;
    for (auto& p : sim) p.source = "simulated", p.gbps_median += 1;  // not the same curve (that one says "(= ...)")
    pts.insert(pts.end(), sim.begin(), sim.end());
    PlotPanel panel(PlotKind::threads);
    panel.set_datasets({Dataset{"run", pts, false}});
    QCOMPARE(panel.curve_count(), 2);
    QCOMPARE(panel.legend_labels(), QStringList({"stosb (measured)", "stosb (simulated)"}));
    // A measured run and a simulated one: each curve's prediction follows it in the legend (the
    // demo listed four measured curves, then four simulated, so at larger text its first legend
    // page held no prediction to compare with).
    std::vector<Point> measured = sample_points("stosb", 2), predicted;
    for (Point p : sample_points("movnti", 2)) p.gbps_median *= 2, measured.push_back(p);  // not stosb's curve
    for (Point p : measured) p.source = "simulated", p.gbps_median *= 1.5, predicted.push_back(p);
    panel.set_datasets({Dataset{"here.csv", measured, true}, Dataset{"server.csv", predicted, true}});
    QCOMPARE(panel.legend_labels(), QStringList({"stosb (measured) [here.csv]", "stosb (simulated) [server.csv]",
                                                 "movnti (measured) [here.csv]", "movnti (simulated) [server.csv]"}));
  }

  void short_measure_run_finishes() {
    MainWindow w;
    w.panel()->set_request(tiny_measure("stosb", "64K", "1", 2, 3));
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QCOMPARE(done.at(0).at(0).toBool(), false);
    QCOMPARE(done.at(0).at(1).toString(), QString());
    QCOMPARE(w.results()->rowCount(), 1);
    QCOMPARE(w.results()->point(0).source, std::string("measured"));
    QCOMPARE(w.threads_plot()->data_point_count(), 1);
    QVERIFY(!w.topology_view()->pu_values().empty());
    QVERIFY(w.log()->toPlainText().contains("point 1: stosb 64KiB 1T zero"));
  }

  void stop_mid_run_keeps_finished_points() {
    MainWindow w;
    // 8 sizes x 2 kernels x 3 reps of 200 ms: at least 9.6 s, far more than the time we let it run.
    w.panel()->set_request(tiny_measure("stosb,movnti", "64K..8M", "1", 3, 200));
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_VERIFY_WITH_TIMEOUT(w.results()->rowCount() >= 2, kHangGuardMs);
    QCOMPARE(done.count(), 0);  // still running when Stop is pressed
    w.stop_run();
    // Stop reaches the stopped state and keeps whole points only (no timing asserted).
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QVERIFY(!w.running());
    QCOMPARE(done.at(0).at(0).toBool(), true);
    const int rows = w.results()->rowCount();
    QVERIFY(rows >= 2 && rows < 16);
    QCOMPARE(rows % 2, 0);  // points come per (size, threads) step: both kernels or none
    QCOMPARE(w.threads_plot()->data_point_count(), rows);
    QVERIFY(w.log()->toPlainText().contains("finished and kept"));
  }

  void ui_repaints_during_a_1gb_run_and_close_mid_run_is_clean() {
    auto* w = new MainWindow;
    w->show();
    // 3 reps of 2 s on 1 GiB: the worker is busy (mapping, first touch, windows) for far longer
    // than the UI needs to turn 10 times; the close below ends it.
    w->panel()->set_request(tiny_measure("stosb", "1G", "1", 3, 2000));
    QSignalSpy done(w, &MainWindow::runFinished);
    w->start_run();
    int ticks_while_running = 0;
    QTimer tick;
    connect(&tick, &QTimer::timeout, [&] {
      if (!w->running()) return;
      ++ticks_while_running;
      w->threads_plot()->repaint();
    });
    tick.start(20);
    // The UI thread keeps processing events while the run goes on: a count, not a rate.
    QTRY_VERIFY_WITH_TIMEOUT(ticks_while_running >= 10 || done.count() > 0, kHangGuardMs);
    QVERIFY2(done.count() == 0 && w->running(), "the run ended before the UI thread turned 10 times");
    QCOMPARE(w->results()->rowCount(), 0);  // no point of 3 x 2 s can be finished yet
    w->close();  // stops the run and joins the worker (the ctest timeout is the hang guard)
    QVERIFY(!w->isVisible());
    QCOMPARE(w->results()->rowCount(), 0);  // the interrupted point is not kept
    delete w;
  }

  void opening_csvs_overlays_them() {
    QTemporaryDir dir;
    const QString a = write_csv_file(dir.path(), "hostA.csv", sample_points("stosb", 4));
    std::vector<Point> other = sample_points("stosb", 4);
    for (auto& p : other) p.gbps_median += 1;  // another machine's figures (equal ones would say "(= ...)")
    const QString b = write_csv_file(dir.path(), "hostB.csv", other);
    MainWindow w;
    QVERIFY(w.open_files({a, b}));
    QCOMPARE(w.results()->rowCount(), 8);
    QCOMPARE(w.threads_plot()->curve_count(), 2);
    QCOMPARE(w.threads_plot()->data_point_count(), 8);
    QCOMPARE(w.threads_plot()->legend_labels(), QStringList({"stosb [hostA.csv]", "stosb [hostB.csv]"}));
    QVERIFY(w.open_files({a}));  // reopening replaces, never duplicates
    QCOMPARE(w.results()->rowCount(), 8);
  }

  // A file measured on this computer colours the Topology tab with its last point, as a live run
  // does (opened files left every PU idle); another host's file leaves it idle and says why.
  void a_file_measured_here_colours_the_topology() {
    QTemporaryDir dir;
    std::vector<Point> here = sample_points("stosb", 1);
    for (Point& p : here) p.source = "measured", p.host = host_name(), p.pus = {0};
    std::vector<Point> elsewhere = here;
    for (Point& p : elsewhere) p.host = "another-host";
    {
      MainWindow w;
      QVERIFY(w.open_files({write_csv_file(dir.path(), "elsewhere.csv", elsewhere)}));
      QVERIFY(w.topology_view()->pu_values().empty());
      QVERIFY2(w.log()->toPlainText().contains("elsewhere.csv was measured on another-host, so its threads' PUs are "
                                               "not marked"),
               qPrintable(w.log()->toPlainText()));
    }
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "here.csv", here)}));
    QCOMPARE(w.topology_view()->pu_values().size(), std::size_t(1));
    QCOMPARE(w.topology_view()->pu_values().begin()->first, 0);
    QVERIFY2(w.log()->toPlainText().contains("the Topology tab shows here.csv's last point (stosb 16 MiB 1T)"),
             qPrintable(w.log()->toPlainText()));

    // tlbflush rows have no GB/s to colour a PU by: none is coloured (each was drawn black under a
    // GB/s scale), and the log says why.
    std::vector<Point> tlb = here;
    for (Point& p : tlb)
      p.scenario = "tlbflush", p.kernel = "munmap", p.gbps_median = p.gbps_per_thread_median = Point::kNone;
    MainWindow t;
    QVERIFY(t.open_files({write_csv_file(dir.path(), "tlb.csv", tlb)}));
    QVERIFY(t.topology_view()->pu_values().empty());
    QVERIFY2(t.log()->toPlainText().contains("tlb.csv's points are tlbflush rows (ns per munmap and per read, no "
                                             "GB/s), so no PU is coloured"),
             qPrintable(t.log()->toPlainText()));
    t.topology_view()->show_points({tlb.back()}, 0);  // as a live tlbflush run's last point
    QVERIFY(t.topology_view()->pu_values().empty());
  }

  void relative_figures_are_refused_with_the_reason() {
    // Ratios between kernels (tests/data/public/goldsteinn_*: "relative figure" flags) are not GB/s.
    QTemporaryDir dir;
    auto points = sample_points("stosb", 2);
    for (auto& p : points) p.flags = {"relative figure, not GB/s: mean time of the kernels over this one's"};
    MainWindow w;
    QVERIFY(!w.open_files({write_csv_file(dir.path(), "ratios.csv", points)}));
    const auto boxes = w.findChildren<QMessageBox*>();
    QCOMPARE(boxes.size(), 1);
    QVERIFY2(boxes.front()->text().contains("relative figures"), qPrintable(boxes.front()->text()));
    QCOMPARE(w.results()->rowCount(), 0);
  }

  void malformed_csv_shows_the_line_and_does_not_crash() {
    QTemporaryDir dir;
    const QString bad = dir.path() + "/bad.csv";
    std::ofstream(bad.toStdString()) << csv_header() << "\nmeasured,scaling,only,four\n";
    MainWindow w;
    QVERIFY(!w.open_files({bad}));
    const auto boxes = w.findChildren<QMessageBox*>();
    QCOMPARE(boxes.size(), 1);
    QVERIFY2(boxes.front()->text().contains("line 2"), qPrintable(boxes.front()->text()));
    QCOMPARE(w.results()->rowCount(), 0);
  }

  void hovering_a_point_shows_its_figures() {
    PlotPanel panel(PlotKind::threads);
    panel.resize(800, 500);
    panel.set_datasets({Dataset{"run", sample_points("movnti", 3), false}});
    panel.replot_now();
    const QString text = panel.details_at(panel.pixel_of(0, 1));
    QVERIFY2(text.contains("movnti") && text.contains("2 threads") && text.contains("20.00 GB/s"), qPrintable(text));
    QVERIFY(panel.details_at(QPoint(1, 1)).isEmpty());
  }

  void heat_map_takes_victim_triples() {
    PlotPanel heat(PlotKind::heatmap);
    heat.resize(800, 500);
    std::vector<HeatCell> cells;
    for (const char* v : {"stosb", "movnti", "avx512-nt"})
      for (int n : {1, 2, 4, 8}) cells.push_back({v, n, 10.0 * n, 10.0 - n, 10.0});
    heat.set_heat_cells({}, "nothing yet");
    QVERIFY2(!heat.color_scale_visible(), "no cells: no colour scale colouring nothing");
    heat.set_heat_cells(cells, "synthetic");
    QVERIFY(heat.color_scale_visible());
    QCOMPARE(heat.data_point_count(), 12);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(heat.save(dir.path() + "/heat.png", 800, 500, &error), qPrintable(error));
    QVERIFY(QFileInfo(dir.path() + "/heat.png").size() > 0);
  }

  void table_model_passes_the_tester() {
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.append("a", sample_points("stosb", 3));
    model.append("b", sample_points("movnti", 2));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.data(model.index(1, ResultsModel::Threads), ResultsModel::RawValueRole).toInt(), 2);
    QCOMPARE(model.data(model.index(0, ResultsModel::SizeBytes), ResultsModel::RawValueRole).toULongLong(), 1ull << 24);
    QCOMPARE(model.data(model.index(0, ResultsModel::SizeBytes)).toString(), QString("16 MiB"));
    // Header tooltips name the file field and come from the field table (core/report/fields).
    for (int c = 1; c < ResultsModel::ColumnCount; ++c) {
      const QString tip = model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
      QVERIFY2(find_point_field(tip.split(':').first().split(' ').first().toStdString()), qPrintable(tip));
    }
    const PointField* gbps = find_point_field("gbps_median");
    QVERIFY(gbps);
    QCOMPARE(model.headerData(ResultsModel::GbpsMedian, Qt::Horizontal, Qt::ToolTipRole).toString(),
             QString::fromStdString("gbps_median (GB/s): " + std::string(gbps->description)));
    QVERIFY(model.headerData(ResultsModel::Entries, Qt::Horizontal, Qt::ToolTipRole).toString().startsWith("entries "));
    // A simulated row has no repetitions: no pstdev; its min/max is the model band.
    std::vector<Point> sim = sample_points("movnti", 1);
    sim[0].source = "simulated";
    model.append("sim", sim);
    QVERIFY(model.data(model.index(5, ResultsModel::PstdevPct)).toString().isEmpty());
    QVERIFY(!model.data(model.index(0, ResultsModel::PstdevPct)).toString().isEmpty());
    QVERIFY(model.headerData(ResultsModel::GbpsMin, Qt::Horizontal).toString().contains("band low"));
    model.remove_dataset("sim");
    model.remove_dataset("a");
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.point(0).kernel, std::string("movnti"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
  }

  void export_writes_png_pdf_svg_and_saves_points() {
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "a.csv", sample_points("stosb", 2))}));
    for (const char* ext : {"png", "pdf", "svg"}) {
      const QString path = dir.path() + "/plot." + ext;
      QVERIFY(w.export_plot(path));
      QVERIFY2(QFileInfo(path).size() > 1000, ext);
    }
    QVERIFY(!w.export_plot(dir.path() + "/plot.gif"));
    QVERIFY(!w.export_plot("/proc/plot.png"));  // the reason, not the renderer's "No such file or directory"
    QVERIFY2(w.last_error().contains("/proc takes no new files"), qPrintable(w.last_error()));
    QVERIFY(w.save_points(dir.path() + "/saved.csv"));
    MainWindow w2;
    QVERIFY(w2.open_files({dir.path() + "/saved.csv"}));
    QCOMPARE(w2.results()->rowCount(), 2);
    // As JSON: this machine's identity only on this machine's measurements.
    std::vector<Point> here = sample_points("stosb", 2), away = here;
    for (Point& p : here) p.source = "measured", p.host = host_name();
    for (Point& p : away) p.source = "measured", p.host = "another-host";
    const auto saved_run = [&](const std::vector<Point>& pts, const QString& name) {
      MainWindow v;
      if (!v.open_files({write_csv_file(dir.path(), name + ".csv", pts)})) return RunInfo{};
      if (!v.save_points(dir.path() + "/" + name + ".json")) return RunInfo{};
      std::ifstream in((dir.path() + "/" + name + ".json").toStdString());
      return read_json(in).run;
    };
    const RunInfo mine = saved_run(here, "here"), theirs = saved_run(away, "away");
    QCOMPARE(mine.host, host_name());
    QVERIFY(!mine.topology.empty() && !mine.kernel_release.empty());
    QCOMPARE(theirs.host, std::string("another-host"));
    QVERIFY2(theirs.topology.empty() && theirs.kernel_release.empty() && theirs.cpu_model_name.empty(),
             theirs.topology.c_str());
    QVERIFY(!theirs.date.empty());
  }

  void settings_persist_between_sessions() {
    QTemporaryDir dir;
    QSettings s(dir.path() + "/s.ini", QSettings::IniFormat);
    const CpuFeatures cpu = detect_cpu_features();
    {
      ControlPanel p(cpu);
      p.set_request(tiny_measure("stosb", "2M..8M", "1,2", 7, 42));
      p.save(s);
    }
    ControlPanel p(cpu);
    p.load(s);
    const RunRequest r = p.request();
    QCOMPARE(r.kernels, QString("stosb"));
    QCOMPARE(r.sizes, QString("2M..8M"));
    QCOMPARE(r.threads, QString("1,2"));
    QCOMPARE(r.reps, 7);
    QCOMPARE(r.duration_ms, 42);
  }

  void scenario_selector_enables_only_what_applies() {
    const CpuFeatures cpu = detect_cpu_features();
    ControlPanel p(cpu);
    QStringList offered;
    for (int i = 0; i < p.scenario_box()->count(); ++i) offered << p.scenario_box()->itemText(i);
    QCOMPARE(offered, QStringList({"scaling", "victim", "mix", "pagefault", "tlbflush"}));
    auto on = [&](const char* w) { return p.option_widget(w)->isEnabledTo(&p); };
    struct Case {
      const char* scenario;
      bool victims, mix, entries, threads, fill, kernels;
    };
    for (const Case& c : {Case{"scaling", false, false, false, true, true, true},
                          Case{"victim", true, false, false, true, true, true},
                          Case{"mix", false, true, false, false, true, false},
                          Case{"pagefault", false, false, false, true, false, false},
                          Case{"tlbflush", false, false, true, true, false, false}}) {
      p.scenario_box()->setCurrentText(c.scenario);
      QVERIFY2(on("victims") == c.victims && on("aggressors") == c.victims, c.scenario);
      QVERIFY2(on("mix") == c.mix, c.scenario);
      QVERIFY2(on("entries") == c.entries, c.scenario);
      QVERIFY2(on("threads") == c.threads, c.scenario);
      QVERIFY2(on("fill") == c.fill, c.scenario);
      QVERIFY2(on("kernels") == c.kernels, c.scenario);
    }
    // Sizes left at a scenario's default follow the next one's (as `bwlab run`).
    p.scenario_box()->setCurrentText("scaling");
    RunRequest r = p.request();
    r.sizes = "16M,1G";
    p.set_request(r);
    p.scenario_box()->setCurrentText("pagefault");
    QCOMPARE(p.request().sizes, QString("64M"));
    p.scenario_box()->setCurrentText("tlbflush");
    QCOMPARE(p.request().sizes, QString("1M"));
    // In Simulate mode pagefault and tlbflush say they are measure-only; victim and mix are predicted.
    r = p.request();
    r.simulate = true;
    r.scenario = "tlbflush";
    p.set_request(r);
    QVERIFY2(p.scenario_note().contains("measure-only"), qPrintable(p.scenario_note()));
    r.scenario = "mix";
    p.set_request(r);
    QVERIFY2(!p.scenario_note().contains("measure-only"), qPrintable(p.scenario_note()));
    r.scenario = "victim";
    p.set_request(r);
    QVERIFY2(!p.scenario_note().contains("measure-only") && p.scenario_note().contains("always predicted"),
             qPrintable(p.scenario_note()));
    // Pages and membind offer the huge pages and remote memory.
    auto* pages = p.findChild<QComboBox*>("pages");
    auto* membind = p.findChild<QComboBox*>("membind");
    QVERIFY(pages && membind);
    QVERIFY(pages->findText("hugetlb2m") >= 0 && pages->findText("hugetlb1g") >= 0 && pages->findText("thp") >= 0);
    QVERIFY(membind->findText("remote") >= 0);
    QStringList machines;
    auto* machine = p.findChild<QComboBox*>("machine");
    QVERIFY(machine);
    for (int i = 0; i < machine->count(); ++i) machines << machine->itemText(i);
    for (const auto& name : machine_presets()) QVERIFY(machines.contains(QString::fromStdString(name)));
  }

  void simulate_refuses_a_measure_only_scenario() {
    MainWindow w;
    RunRequest r;
    r.simulate = true;
    r.machine = QString::fromStdString(machine_presets().front());
    r.scenario = "pagefault";
    r.threads = "1";
    w.panel()->set_request(r);
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    const QString error = done.at(0).at(1).toString();
    QVERIFY2(error.contains("measure-only") && error.contains("pagefault"), qPrintable(error));
    QCOMPARE(w.results()->rowCount(), 0);
  }

  // Simulate mode predicts the victim and mix scenarios through core's simulate_victim and
  // simulate_mix: the heat map fills with predicted cells, one per victim kernel and aggressor
  // count; a mix gives one row per kernel, the others as its peers.
  void simulate_predicts_the_victim_and_mix_scenarios() {
    const auto simulate = [](MainWindow& w, const QString& scenario, const QString& mix = {}) {
      RunRequest r;
      r.simulate = true;
      r.machine = "skylake-x-8270cl";
      r.scenario = scenario;
      r.kernels = "stosb";  // scaling's; victim and mix do not read it
      r.victims = "stosb,movnti";
      r.aggressors = "avx512-nt";
      r.mix = mix;
      r.sizes = "1G";
      r.threads = "2,26";
      w.panel()->set_request(r);
      QSignalSpy done(&w, &MainWindow::runFinished);
      w.start_run();
      if (!QTest::qWaitFor([&] { return done.count() == 1; }, kHangGuardMs)) return QString("no end");
      return done.at(0).at(1).toString();
    };
    MainWindow w;
    QCOMPARE(simulate(w, "victim"), QString());
    QCOMPARE(w.results()->rowCount(), 2 * 3);  // k = 0, 1, 25 per victim
    for (int i = 0; i < w.results()->rowCount(); ++i) {
      QCOMPARE(w.results()->point(i).scenario, std::string("victim"));
      QCOMPARE(w.results()->point(i).source, std::string("simulated"));
    }
    QCOMPARE(w.heatmap()->data_point_count(), 2 * 2);  // k = 0 hidden: 0% by definition
    QVERIFY(w.heatmap()->color_scale_visible());
    // The table says which rows are victim rows and beside what, next to the GB/s (the scenario
    // and peer columns were off-screen: a victim row read as a scaling row).
    QHeaderView* header = w.results_table()->horizontalHeader();
    int i = 0;
    for (const int c : {ResultsModel::Scenario, ResultsModel::Peer, ResultsModel::PeerThreads, ResultsModel::SlowdownPct}) {
      QVERIFY2(!w.results_table()->isColumnHidden(c), qPrintable(QString::number(c)));
      QVERIFY2(header->visualIndex(c) == header->visualIndex(ResultsModel::GbpsMedian) + 1 + i++, qPrintable(QString::number(c)));
    }
    MainWindow only_scaling;
    QCOMPARE(simulate(only_scaling, "scaling"), QString());
    QCOMPARE(only_scaling.results()->rowCount(), 2);  // stosb at 2 and 26 threads
    QVERIFY(only_scaling.results_table()->isColumnHidden(ResultsModel::Scenario));

    MainWindow m;
    QCOMPARE(simulate(m, "mix", "stosb:13,avx512-nt:13"), QString());
    QCOMPARE(m.results()->rowCount(), 2);
    QCOMPARE(m.results()->point(0).scenario, std::string("mix"));
    QCOMPARE(m.results()->point(0).threads, 13);
    QCOMPARE(m.results()->point(1).peer_kernel, std::string("stosb"));
    // The Topology tab colours the PUs of both parts (it showed only the last kernel's 13, the
    // first part's read "idle"), each framed in its part's colour, named in the legend.
    const std::map<int, double>& shown = m.topology_view()->pu_values();
    QCOMPARE(shown.size(), std::size_t(26));
    for (int i = 0; i < 2; ++i) {
      const Point& part = m.results()->point(i);
      for (const int pu : part.pus_planned) {
        QVERIFY2(shown.count(pu), qPrintable(QString("PU %1 of %2 not coloured").arg(pu).arg(QString::fromStdString(part.kernel))));
        QCOMPARE(shown.at(pu), part.gbps_per_thread_median);
        QCOMPARE(m.topology_view()->pu_parts().at(pu), i);
      }
    }
    QVERIFY2(m.topology_view()->legend_text().contains("mix stosb x13 (green) + avx512-nt x13 (orange) 1 GiB, 26 threads"),
             qPrintable(m.topology_view()->legend_text()));
  }

  void simulate_takes_a_json_machine_file() {
    QTemporaryDir dir;
    const QString path = dir.path() + "/m.json";
    {
      std::ofstream out(path.toStdString());
      write_machine_json(out, preset_table().front());
    }
    MainWindow w;
    RunRequest r;
    r.simulate = true;
    r.machine = path;
    r.topology = "package:1 core:2 pu:1";
    r.kernels = "stosb";
    r.sizes = "16M";
    r.threads = "1,2";
    w.panel()->set_request(r);
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QCOMPARE(done.at(0).at(1).toString(), QString());
    QCOMPARE(w.results()->rowCount(), 2);
    QCOMPARE(w.results()->point(0).source, std::string("simulated"));
    QCOMPARE(w.threads_plot()->data_point_count(), 2);
  }

  void bad_scenario_option_is_reported_not_run() {
    MainWindow w;
    RunRequest r = tiny_measure("stosb", "64K", "1", 1, 2);
    r.scenario = "mix";
    r.mix = "stosb:0";
    w.panel()->set_request(r);
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QVERIFY2(done.at(0).at(1).toString().contains("stosb:0"), qPrintable(done.at(0).at(1).toString()));
    QCOMPARE(w.results()->rowCount(), 0);
  }

  void victim_run_fills_the_heat_map() {
    const int nk = std::min(2, usable_pus());  // k = 0 (alone) and, with 2 PUs, k = 1
    MainWindow w;
    RunRequest r = tiny_measure("stosb", "64K", nk == 2 ? "1,2" : "1", 2, 3);
    r.scenario = "victim";
    r.victims = "stosb,movnti";
    r.aggressors = "stosb";
    w.panel()->set_request(r);
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QCOMPARE(done.at(0).at(1).toString(), QString());
    QCOMPARE(w.results()->rowCount(), 2 * nk);
    QCOMPARE(w.heat_map_box()->count(), 1);
    QCOMPARE(w.heatmap()->data_point_count(), 2 * (nk - 1));  // victim kernels x aggressor counts k > 0
    QCOMPARE(w.plot_scenario_box()->currentText(), QString("victim"));
    QCOMPARE(w.threads_plot()->curve_count(), 2);  // stosb beside stosb, movnti beside stosb
    QVERIFY(w.threads_plot()->legend_labels().contains("movnti beside stosb"));
    QVERIFY(w.threads_plot()->title().startsWith("Victim scenario"));
    QVERIFY(w.log()->toPlainText().contains("victim movnti"));
  }

  // A measured slowdown whose min..max overlaps the victim alone's is within the run's spread: its
  // cell is hatched, its figure in brackets, the subtitle says so, and it does not set the colour
  // scale (a noisy -22% was a solid, saturated cell). A model's cells never are.
  void heat_map_hatches_slowdowns_within_the_spread() {
    std::vector<Point> pts = victim_points({"stosb"}, "movnti", 3);
    for (Point& p : pts) p.gbps_min = p.gbps_median - 0.6, p.gbps_max = p.gbps_median + 0.6;
    pts[1].slowdown_pct = -40;  // k = 1: 9 +- 0.6 GB/s against 10 +- 0.6 alone: overlaps
    Dataset d;
    d.name = "noisy";
    d.points = pts;
    std::vector<HeatMap> maps = build_heat_maps({d});
    QCOMPARE(maps.size(), std::size_t(1));
    std::map<int, bool> within;
    for (const HeatCell& c : maps[0].cells) within[c.aggressors] = c.within_spread;
    QCOMPARE(within, (std::map<int, bool>{{0, false}, {1, true}, {2, false}, {3, false}}));
    QVERIFY2(maps[0].subtitle.find("hatched, in brackets: within the run's spread") != std::string::npos,
             maps[0].subtitle.c_str());
    PlotPanel heat(PlotKind::heatmap);
    heat.resize(800, 500);
    heat.set_heat_cells(maps[0].cells, QString::fromStdString(maps[0].subtitle));
    QCOMPARE(heat.heat_label_texts(), QStringList({"(-40.0%)", "+20.0%", "+30.0%"}));
    QCOMPARE(heat.heat_span(), 30.0);  // not 40: the bracketed cell is noise
    // ... and is drawn at the scale's end, which the subtitle says (a +43% cell read as the scale's 10%).
    QVERIFY2(heat.title().contains(QString::fromUtf8("1 hatched cell beyond the scale's \u00b130% drawn at its end")),
             qPrintable(heat.title()));
    // Cells their run flagged end in " !", and the subtitle says what that is; an interrupted run's
    // cells say their reps (fewer than asked) and that the run is partial (a partial run of 8
    // flagged cells said "2 reps of 100 ms per cell" and nothing else).
    d.points[2].flags = {"unstable: 16.8% pstdev of GB/s over 5 reps, try --reps 11 or a longer --duration"};
    d.points[3].reps = 2;
    d.partial = "interrupted by SIGINT after 4 finished points";
    maps = build_heat_maps({d});
    QVERIFY2(maps[0].subtitle.find(", 2..3 reps of ") != std::string::npos, maps[0].subtitle.c_str());
    QVERIFY2(maps[0].subtitle.find("; ! marks the cell the run flagged unstable or noisy") != std::string::npos,
             maps[0].subtitle.c_str());
    QVERIFY2(maps[0].subtitle.find("k = 0 column") == std::string::npos, maps[0].subtitle.c_str());
    // A flagged cell of the k = 0 column, hidden until its box is ticked, is counted apart (the
    // subtitle counted 4 cells over a map that showed 2).
    {
      Dataset alone = d;
      alone.points[0].flags = d.points[2].flags;
      const std::string sub = build_heat_maps({alone})[0].subtitle;
      QVERIFY2(sub.find("; ! marks the cell the run flagged unstable or noisy (hover it, or see the Table's flags), "
                        "and 1 cell in the k = 0 column (its box above shows it)") != std::string::npos,
               sub.c_str());
    }
    QVERIFY2(maps[0].subtitle.find("; partial run (interrupted by SIGINT after 4 finished points): only its finished "
                                   "cells") != std::string::npos,
             maps[0].subtitle.c_str());
    heat.set_heat_cells(maps[0].cells, QString::fromStdString(maps[0].subtitle));
    QCOMPARE(heat.heat_label_texts(), QStringList({"(-40.0%)", "+20.0% !", "+30.0%"}));
    for (Point& p : d.points) p.source = "simulated";
    maps = build_heat_maps({d});
    for (const HeatCell& c : maps[0].cells) QVERIFY(!c.within_spread);
    QVERIFY(maps[0].subtitle.find("hatched") == std::string::npos);
  }

  // At 1024x768 with 1.5x text "Table" was cut and "Runs" hidden behind the tab bar's scroll
  // arrows. Where the whole labels do not fit, every tab gets its short one (its tooltip the
  // whole); in a wide window the whole ones come back.
  void tabs_shorten_their_labels_rather_than_scroll() {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTabBar* bar = w.tabs()->tabBar();
    QTRY_COMPARE_WITH_TIMEOUT(w.tabs()->tabText(0), QString("GB/s vs threads"), kHangGuardMs);
    QCOMPARE(w.tabs()->tabToolTip(0), QString());
    w.set_text_scale(1.5);
    w.resize(1024, 768);
    QTRY_COMPARE_WITH_TIMEOUT(w.tabs()->tabText(0), QString("Threads"), kHangGuardMs);
    QCOMPARE(w.tabs()->tabText(2), QString("Heat map"));
    QCOMPARE(w.tabs()->tabToolTip(2), QString("Victim heat map"));
    QCOMPARE(w.tabs()->tabToolTip(4), QString());  // "Table" has no shorter form
    QTRY_VERIFY_WITH_TIMEOUT(bar->tabRect(w.tabs()->count() - 1).right() <= bar->width(), kHangGuardMs);
    w.set_text_scale(1.0);
    w.resize(1600, 900);
    QTRY_COMPARE_WITH_TIMEOUT(w.tabs()->tabText(2), QString("Victim heat map"), kHangGuardMs);
  }

  // The map box ("Aggressor:") was cut at its right edge at 1024x768 with 1.5x text, its fill gone
  // ("aggressor avx512-nt, 256 MiB, fi"). Its items leave out the word the label says; a box too
  // narrow elides at the right end, with a mark, and in a wide window the item is whole.
  void heat_map_box_elides_rather_than_clips() {
    QTemporaryDir dir;
    std::vector<Point> pts = victim_points({"stosb", "avx512-nt"}, "avx512-nt", 3);
    const QString csv =
        write_csv_file(dir.path(), "victims-of-a-very-long-measurement-series-on-the-lab-server-2026.csv", pts);
    MainWindow w;
    QVERIFY(w.open_files({csv}));
    w.set_view("heatmap");
    auto* box = dynamic_cast<ElidedComboBox*>(w.heat_map_box());
    QVERIFY(box);
    const QString item = box->currentText();
    QVERIFY2(item.startsWith("avx512-nt, ") && item.endsWith("-2026.csv]"), qPrintable(item));
    w.resize(2400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE_WITH_TIMEOUT(box->shown_text(), item, kHangGuardMs);
    w.set_text_scale(1.5);
    w.resize(1024, 768);
    QTRY_VERIFY_WITH_TIMEOUT(box->shown_text() != item, kHangGuardMs);
    const QString shown = box->shown_text();
    // Cut at its right end: the kernel and size it starts with stay ("1...ed) [v.json]" in the
    // middle read as broken).
    QVERIFY2(shown.startsWith("avx512-nt, 16 MiB") && shown.endsWith(QChar(u'…')), qPrintable(shown));
    // Nothing beyond its right edge: the box ends inside its bar.
    QVERIFY2(box->geometry().right() < box->parentWidget()->width(),
             qPrintable(QString("%1 of %2").arg(box->geometry().right()).arg(box->parentWidget()->width())));
  }

  void opening_victim_rows_fills_the_heat_map_and_keeps_scaling_curves_apart() {
    QTemporaryDir dir;
    std::vector<Point> pts = victim_points({"stosb", "movnti", "avx512-nt"}, "stosb", 3);
    const std::vector<Point> other = victim_points({"stosb", "movnti", "avx512-nt"}, "avx512-nt", 3);
    pts.insert(pts.end(), other.begin(), other.end());
    std::vector<Point> scaling = sample_points("stosb", 2);  // 16 MiB
    scaling.push_back(testsupport::sample_point("stosb", 1u << 30, 1, 5, 0.5));  // a second size for the Size box
    pts.insert(pts.end(), scaling.begin(), scaling.end());
    const QString csv = write_csv_file(dir.path(), "victims.csv", pts);
    MainWindow w;
    QVERIFY(w.open_files({csv}));
    QCOMPARE(w.heat_map_box()->count(), 2);  // one map per aggressor kernel
    QCOMPARE(w.heatmap()->data_point_count(), 3 * 3);  // k = 0 (alone) is off by default
    w.heat_map_box()->setCurrentIndex(1);
    QVERIFY(w.heat_map_box()->currentText().startsWith("avx512-nt"));
    QCOMPARE(w.heatmap()->data_point_count(), 3 * 3);
    // The GB/s plots show one scenario's rows: scaling by default, never the victim rows in them.
    QCOMPARE(w.plot_scenario_box()->count(), 2);
    QCOMPARE(w.plot_scenario_box()->currentText(), QString("scaling"));
    QCOMPARE(w.threads_plot()->data_point_count(), 3);
    QCOMPARE(w.threads_plot()->curve_count(), 2);
    // A size chosen in the Size box on the scaling rows does not thin the victim curves (each holds
    // one victim beside every aggressor count), and the box has nothing to offer there.
    QVERIFY(w.curve_filter_box()->count() >= 2);
    w.curve_filter_box()->setCurrentIndex(1);
    QVERIFY(w.threads_plot()->only().has_value());
    w.plot_scenario_box()->setCurrentText("victim");
    QCOMPARE(w.threads_plot()->data_point_count(), 2 * 3 * 4);
    QCOMPARE(w.threads_plot()->curve_count(), 2 * 3);
    QVERIFY(!w.curve_filter_box()->isEnabled());
    QCOMPARE(w.results()->rowCount(), int(pts.size()));
  }

  // A size typed twice is measured once, and the log says so, as `bwlab run` prints its notes.
  void a_size_typed_twice_is_measured_once_and_said() {
    MainWindow w;
    w.panel()->set_request(tiny_measure("stosb", "1M,1M", "1", 1, 2));
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QCOMPARE(w.results()->rowCount(), 1);
    QVERIFY2(w.log()->toPlainText().contains("names 1MiB more than once; each is measured once"),
             qPrintable(w.log()->toPlainText()));
  }

  void pagefault_run_lands_in_the_table() {
    MainWindow w;
    RunRequest r = tiny_measure("stosb", "1M", "1", 2, 3);
    r.scenario = "pagefault";
    w.panel()->set_request(r);
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QCOMPARE(done.at(0).at(1).toString(), QString());
    QCOMPARE(w.results()->rowCount(), 1);
    const Point& p = w.results()->point(0);
    QCOMPARE(p.scenario, std::string("pagefault"));
    auto cell = [&](int col) { return w.results()->data(w.results()->index(0, col)).toString(); };
    QCOMPARE(cell(ResultsModel::Scenario), QString("pagefault"));
    QVERIFY(!cell(ResultsModel::FaultsPerS).isEmpty());
    QVERIFY(cell(ResultsModel::SlowdownPct).isEmpty());  // not a victim row
    QVERIFY(cell(ResultsModel::MunmapNs).isEmpty());
    QCOMPARE(w.plot_scenario_box()->currentText(), QString("pagefault"));
    QCOMPARE(w.threads_plot()->data_point_count(), 1);
    QVERIFY(w.threads_plot()->title().startsWith("Page-fault clearing: GB/s made ready"));
    // Its threads fault pages in; they clear no buffer of their own (the axis said "each clearing its own buffer").
    QCOMPARE(w.threads_plot()->x_label(), QString("threads (each faulting in its own region)"));
    // No fill was chosen: the fault handler zeroes the pages (the subtitle said "fill zero").
    QVERIFY2(w.threads_plot()->title().contains("pages zeroed by the kernel"), qPrintable(w.threads_plot()->title()));
    QVERIFY2(!w.threads_plot()->title().contains("fill"), qPrintable(w.threads_plot()->title()));
    QCOMPARE(w.heatmap()->data_point_count(), 0);
  }

  void tlbflush_rows_show_in_the_table_not_in_the_gbps_plots() {
    Point t = sample_points("munmap", 1).front();
    t.scenario = "tlbflush";
    t.traffic_class = "os";
    t.gbps_median = t.gbps_min = t.gbps_max = t.gbps_pstdev_pct = Point::kNone;
    t.gbps_per_thread_median = Point::kNone;
    t.entries = 8;
    t.peer_threads = 1;
    t.munmap_ns_median = 12345;
    t.reader_ns_median = 6.5;
    t.reader_alone_ns = 4.5;
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(w.open_files({write_csv_file(dir.path(), "tlb.csv", {t})}));
    QCOMPARE(w.results()->rowCount(), 1);
    auto cell = [&](int col) { return w.results()->data(w.results()->index(0, col)).toString(); };
    QCOMPARE(cell(ResultsModel::MunmapNs), QString("12345"));
    QCOMPARE(cell(ResultsModel::Entries), QString("8"));
    QVERIFY(cell(ResultsModel::GbpsMedian).isEmpty());
    QCOMPARE(w.plot_scenario_box()->currentText(), QString("tlbflush"));
    QCOMPARE(w.threads_plot()->data_point_count(), 0);
    QVERIFY(w.threads_plot()->title().contains("not a GB/s plot"));
    // No GB/s axes under it, and the subtitle says where the figures are (it read "no points:
    // aggregate GB/s (sum over threads, nothing drawn yet)" over "GB/s aggregate" axes).
    QCOMPARE(w.threads_plot()->x_label(), QString());
    QVERIFY2(w.threads_plot()->title().contains("the Table tab lists them") &&
                 !w.threads_plot()->title().contains("aggregate GB/s"),
             qPrintable(w.threads_plot()->title()));
  }

  void bad_input_is_reported_not_run() {
    MainWindow w;
    w.panel()->set_request(tiny_measure("stosb", "12Q", "1", 1, 2));
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QVERIFY(done.at(0).at(1).toString().contains("12Q"));
    QCOMPARE(w.results()->rowCount(), 0);
    QCOMPARE(w.findChildren<QMessageBox*>().size(), 1);
  }

  // A refused Run leaves the Topology tab as it was: the demo's coloured PUs went blank.
  void a_refused_run_leaves_the_topology_as_it_was() {
    MainWindow w;
    QTemporaryDir empty;  // the demo's built-in sample, not this checkout's results/
    QVERIFY2(w.open_demo(empty.path()), qPrintable(w.last_error()));
    const std::map<int, double> before = w.topology_view()->pu_values();
    const std::string label = w.topology_view()->tree().label;
    QVERIFY(!before.empty());
    RunRequest r;
    r.simulate = true;
    r.machine = QString::fromStdString(machine_presets().front());
    r.scenario = "pagefault";  // measure-only: refused after the simulated machine's tree is shown
    r.threads = "1";
    w.panel()->set_request(r);
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QVERIFY(!done.at(0).at(1).toString().isEmpty());
    QCOMPARE(w.topology_view()->pu_values(), before);
    QCOMPARE(w.topology_view()->tree().label, label);
  }

  // The run goes through core's scenario_spec_from like `bwlab run`: text left in a field the
  // scenario does not read (disabled in the panel) is not given, so it is neither refused nor used.
  void disabled_fields_are_not_given() {
    MainWindow w;
    RunRequest r = tiny_measure("stosb", "12Q", "1", 1, 2);
    r.mix = "not:a:mix";  // scaling: Mix is disabled, so it must not be refused as --mix
    w.panel()->set_request(r);
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 5000);
    const QString error = done.at(0).at(1).toString();
    QVERIFY2(error.contains("12Q") && !error.contains("--mix"), qPrintable(error));
    QCOMPARE(w.results()->rowCount(), 0);
  }
};

QTEST_MAIN(GuiTest)
#include "gui_test.moc"
