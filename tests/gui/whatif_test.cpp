// SPDX-License-Identifier: MIT
// The what-if machine panel, offscreen: machine edits re-simulate the simulated run (thread range
// and points follow the machine), the model's direction with more channels, save/load of the
// machine file against `bwlab machine spec`, and the model's explanation on hover. No test asserts
// a bandwidth figure or a duration.
#include <map>
#include <set>
#include <utility>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDockWidget>
#include <QFile>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QPlainTextEdit>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/model/uarch.hpp"
#include "core/topology/topology.hpp"
#include "gui/app/control_panel.hpp"
#include "gui/app/machine_panel.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/results_model.hpp"
#include "gui/app/topology_view.hpp"
#include "gui/app/whatif.hpp"
#include "gui/plots/plot_panel.hpp"
#include "gui/plots/series.hpp"
#include "tests/support/child_process.hpp"

using namespace bwlab;
using namespace bwlab::gui;

namespace {

constexpr int kHangGuardMs = 60000;

RunRequest sim_request(const QString& threads) {
  RunRequest r;
  r.simulate = true;
  r.kernels = "stosb,movnti,avx2-nt";
  r.sizes = "1G";
  r.threads = threads;
  r.placement = "compact";
  return r;
}

const Dataset* simulated_run(const MainWindow& w) {
  for (const auto& d : w.datasets())
    if (d.name == WhatIf::kDatasetName) return &d;  // named in the legend beside another simulated run
  return nullptr;
}

int max_threads(const Dataset& d) {
  int m = 0;
  for (const auto& p : d.points) m = std::max(m, p.threads);
  return m;
}

QByteArray read_all(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class WhatIfTest : public QObject {
  Q_OBJECT

  // Sets the machine's fields in one event-loop pass and waits for the one redraw they coalesce into.
  static void edit(WhatIf* whatif, const std::function<void()>& change) {
    QSignalSpy spy(whatif, &WhatIf::simulated);
    change();
    QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 1, kHangGuardMs);
    QTest::qWait(20);
    QCOMPARE(spy.count(), 1);  // coalesced: several edits, one re-simulation
  }

  // The dock's machine set to one socket of `cores` cores without SMT, and simulated.
  static void one_socket(WhatIf* whatif, int cores) {
    edit(whatif, [&] {
      whatif->panel()->sockets_box()->setValue(1);
      whatif->panel()->cores_box()->setValue(cores);
      whatif->panel()->smt_box()->setValue(1);
    });
  }

 private slots:
  void dock_follows_simulate_mode() {
    MainWindow w;
    auto* dock = w.findChild<QDockWidget*>("machine_dock");
    auto* whatif = w.findChild<WhatIf*>("whatif");
    QVERIFY(dock && whatif);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    RunRequest measure = sim_request("1..max");
    measure.simulate = false;
    w.panel()->set_request(measure);
    QVERIFY(!dock->isVisible());
    QVERIFY(!whatif->active());
    w.panel()->set_request(sim_request("1..max"));
    QVERIFY(dock->isVisible());
    QVERIFY(whatif->active());
    // Clicked open by a user, the dock draws its machine at once (the plot stayed blank until a
    // field of the dock was edited).
    w.panel()->set_request(measure);
    QVERIFY(simulated_run(w) == nullptr);
    auto* simulate = w.panel()->findChild<QRadioButton*>("simulate");
    QVERIFY(simulate);
    simulate->click();
    QVERIFY(dock->isVisible());
    QVERIFY(simulated_run(w) != nullptr);
    QVERIFY(!simulated_run(w)->points.empty());
  }

  // Simulate mode on a 1024x768 projector, and at 1.5x text on a 1280x800 one: the dock beside the
  // control panel and the plots made the window's minimum 1158 px wide (1519 px at 1.5x), so it
  // could not be shown whole. The plot tab's bar, the heat map's hint, the control panel's combo
  // boxes and the dock's form now give way.
  void simulate_mode_fits_a_1024_px_screen() {
    for (const auto& [scale, width] : {std::pair{1.0, 1024}, std::pair{1.5, 1280}}) {
      MainWindow w;
      w.set_text_scale(scale);
      w.panel()->set_request(sim_request("1..max"));
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      auto* dock = w.findChild<QDockWidget*>("machine_dock");
      QVERIFY(dock && dock->isVisible());
      QTest::qWait(50);  // the text scale's refit of the control panel runs from the event loop
      const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
      QVERIFY2(min.width() <= width, qPrintable(QString("x%1: the window needs %2 px").arg(scale).arg(min.width())));
      w.resize(width, 768);
      QTRY_COMPARE_WITH_TIMEOUT(w.width(), width, kHangGuardMs);
      QVERIFY(dock->isVisible());
    }
    // Where there is room the control panel's combo boxes show their items whole: giving way to 12
    // characters, "(the what-if machine)" showed as "he what-if machine)" in a 1920 px window.
    MainWindow w;
    w.panel()->set_request(sim_request("1..max"));
    w.resize(1920, 1080);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* machine = w.panel()->findChild<QComboBox*>("machine");
    QVERIFY(machine);
    QTRY_VERIFY2_WITH_TIMEOUT(machine->width() >= machine->sizeHint().width(),
                              qPrintable(QString("%1 px for %2").arg(machine->width()).arg(machine->sizeHint().width())),
                              kHangGuardMs);
    // The extra width goes to the plot: the dock took ~480 px of a 1400 px window, mostly blank
    // below its fields, and the plot kept ~450 px at every window width.
    auto* dock = w.findChild<QDockWidget*>("machine_dock");
    QVERIFY(dock && dock->isVisible());
    QTRY_VERIFY2_WITH_TIMEOUT(dock->width() <= dock->minimumSizeHint().width() + 8,
                              qPrintable(QString("dock %1 px, it needs %2").arg(dock->width()).arg(dock->minimumSizeHint().width())),
                              kHangGuardMs);
  }

  // The dock says the run follows the control panel's sweep: a size typed there re-simulates (the
  // plot kept 16M and 1G until a dock field changed), and unticking the kernel a refused machine
  // names clears the refusal. While refused, the status says the plot shows the last machine.
  void control_panel_edits_resimulate() {
    MainWindow w;
    auto* whatif = w.findChild<WhatIf*>("whatif");
    QVERIFY(whatif);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    RunRequest r = sim_request("1,2");
    r.sizes = "16M,1G";
    w.panel()->set_request(r);
    QVERIFY(whatif->resimulate());
    const auto sizes_of = [&] {
      std::set<std::uint64_t> s;
      for (const Point& p : simulated_run(w)->points) s.insert(p.size_bytes);
      return s;
    };
    QCOMPARE(sizes_of(), (std::set<std::uint64_t>{16ull << 20, 1ull << 30}));
    auto* sizes = w.panel()->findChild<QLineEdit*>("sizes");
    QVERIFY(sizes);
    sizes->setFocus();
    sizes->selectAll();
    QTest::keyClicks(sizes, "1G");
    QTest::keyClick(sizes, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(sizes_of(), (std::set<std::uint64_t>{1ull << 30}), kHangGuardMs);

    // avx512-nt on a Broadwell sheet is refused; unticking it re-simulates.
    QCheckBox* avx512 = w.panel()->kernel_box("avx512-nt");
    QVERIFY(avx512);
    if (!avx512->isChecked()) avx512->click();
    const std::string before = whatif->machine().name;
    auto* uarch = whatif->panel()->findChild<QComboBox*>("uarch");
    QVERIFY(uarch);
    uarch->setCurrentIndex(uarch->findText("broadwell"));
    auto* status = whatif->panel()->findChild<QLabel*>("machine_status");
    QVERIFY(status);
    QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith("not simulated: "), kHangGuardMs);
    QVERIFY2(status->text().contains("avx512-nt"), qPrintable(status->text()));
    QVERIFY2(status->text().endsWith(QString("; the plot still shows the last machine simulated, %1")
                                         .arg(QString::fromStdString(before))),
             qPrintable(status->text()));
    avx512->click();
    QTRY_VERIFY_WITH_TIMEOUT(!status->text().startsWith("not simulated"), kHangGuardMs);
    QVERIFY(whatif->machine().name.starts_with("broadwell"));
  }

  // Started in Simulate mode (the settings of a window that quit in it), the dock's machine is
  // drawn at once: the plot said "No points yet: press Run" beside a filled-in dock.
  void starting_in_simulate_mode_draws_the_machine() {
    struct ClearSettings {  // even when a check fails: later tests start in Measure mode
      ~ClearSettings() { QSettings().clear(); }
    } clear_settings;
    QSettings().setValue("run/simulate", true);
    MainWindow w;
    auto* whatif = w.findChild<WhatIf*>("whatif");
    QVERIFY(whatif && whatif->active());
    QTRY_VERIFY_WITH_TIMEOUT(simulated_run(w) != nullptr, kHangGuardMs);
    QVERIFY(!simulated_run(w)->points.empty());
    // A file opened at start (bwlab-gui FILE, a session, --demo: main opens them before the event
    // loop) is not joined by a what-if run it did not ask for.
    QTemporaryDir dir;
    const QString csv = dir.path() + "/a.csv";
    QVERIFY(w.save_points(csv));
    MainWindow with_file;
    QVERIFY2(with_file.open_files({csv}), qPrintable(with_file.last_error()));
    QTest::qWait(50);
    QVERIFY(simulated_run(with_file) == nullptr);
    QCOMPARE(with_file.datasets().size(), std::size_t(1));
  }

  // The plots' machine lines follow the drawn runs. A run simulated on a preset beside the what-if
  // run: the what-if machine's lines, named, and the preset's DRAM peaks, named (its socket marks
  // and link are the what-if machine's to draw). The what-if run unticked: the preset's DRAM peak and
  // socket mark (the what-if machine's stood over the preset's curves), and its run keeps its
  // machine (a saved session has it). The Topology tab colours the last point on a scale up to the
  // most one thread got in the run (a simulation's points arrive at once: the scale was that
  // point's own, every PU at its darkest).
  void machine_lines_follow_the_drawn_runs() {
    MainWindow w;
    w.panel()->set_request(sim_request("1..max"));
    auto* whatif = w.findChild<WhatIf*>("whatif");
    QVERIFY(whatif->resimulate());
    QVERIFY(simulated_run(w) != nullptr);
    const MachineParams preset = *load_machine("skylake-x-8270cl");
    const QString whatif_peak = QString("DRAM peak per node %1 GB/s").arg(whatif->machine().dram_peak_gbps_per_node, 0, 'f', 1);
    const QString preset_peak = QString("DRAM peak per node %1 GB/s").arg(preset.dram_peak_gbps_per_node, 0, 'f', 1);
    QVERIFY(whatif_peak != preset_peak);
    RunRequest r = sim_request("1,26,27,52");
    r.machine = "skylake-x-8270cl";
    w.panel()->set_request(r);
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QCOMPARE(done.at(0).at(1).toString(), QString());
    const QString both = w.threads_plot()->drawn_ceilings().join("|");
    QVERIFY2(both.contains(whatif_peak + " (" + QString::fromStdString(whatif->machine().name) + ")") &&
                 both.contains(preset_peak + " (skylake-x-8270cl)") && !both.contains("27T (skylake-x-8270cl)") &&
                 !both.contains("memory only) (skylake-x-8270cl)"),
             qPrintable(both));
    // Two simulated runs: each curve's legend entry names its run (six look-alike entries did not).
    QStringList legend;
    for (const Series& c : build_series(w.datasets(), PlotKind::threads, false, "scaling")) legend << QString::fromStdString(c.label);
    QVERIFY2(legend.filter("[run 1: simulated skylake-x-8270cl").size() == 3 &&
                 legend.filter(QString("[%1]").arg(WhatIf::kDatasetName)).size() == 3,
             qPrintable(legend.join("|")));
    int whatif_index = -1, run_index = -1;
    for (std::size_t i = 0; i < w.runs().size(); ++i)
      (w.runs()[i].origin == "what-if" ? whatif_index : run_index) = static_cast<int>(i);
    QVERIFY(whatif_index >= 0 && run_index >= 0);
    QVERIFY(!w.runs()[static_cast<std::size_t>(run_index)].data.machine.empty());  // the run records its machine
    w.set_run_checked(whatif_index, false);
    const QString alone = w.threads_plot()->drawn_ceilings().join("|");
    QVERIFY2(alone.contains(preset_peak) && !alone.contains(whatif_peak) &&
                 alone.contains("first point on socket 2: 27T"),
             qPrintable(alone));
    QVERIFY2(w.log()->toPlainText().contains("the plots' machine lines (DRAM peak, link, LLC, sockets) are "
                                             "skylake-x-8270cl's"),
             qPrintable(w.log()->toPlainText()));
    // A saved session keeps the Run's machine: reopened, the same lines (the log had blamed a CSV).
    QTemporaryDir dir;
    QVERIFY(w.save_session(dir.path() + "/lab.json"));
    MainWindow restored;
    QVERIFY(restored.open_session(dir.path() + "/lab.json"));
    QCOMPARE(restored.threads_plot()->drawn_ceilings().join("|"), alone);
    QVERIFY2(!restored.log()->toPlainText().contains("a CSV does not"), qPrintable(restored.log()->toPlainText()));
    // The last point (stosb... at 52 threads) is below the scale's top: one thread alone got more.
    const auto& values = w.topology_view()->pu_values();
    QVERIFY(!values.empty());
    const double top = std::max_element(values.begin(), values.end(), [](const auto& a, const auto& b) {
                         return a.second < b.second;
                       })->second;
    QVERIFY2(top < w.topology_view()->colour_scale_max(), qPrintable(QString("%1 vs %2").arg(top).arg(w.topology_view()->colour_scale_max())));
  }

  void smt_stops_at_what_the_microarchitecture_runs() {
    // Every row of the table runs at most 2 hardware threads per core (max_smt), and `machine spec`
    // refuses more: the box must not offer a machine the CLI would refuse.
    MachinePanel m;
    QSpinBox* smt = m.smt_box();
    auto* uarch = m.findChild<QComboBox*>("uarch");
    QVERIFY(uarch);
    for (int i = 0; i < uarch->count(); ++i) {
      uarch->setCurrentIndex(i);
      const model::Uarch* u = model::find_uarch(uarch->currentText().toStdString());
      QVERIFY(u);
      QCOMPARE(smt->maximum(), u->max_smt);
      QVERIFY(smt->toolTip().contains(QString("at most %1").arg(u->max_smt)));
    }
    smt->setValue(2);
    smt->stepUp();
    QCOMPARE(smt->value(), 2);
    smt->selectAll();
    QTest::keyClicks(smt, "4");  // typing 4 is not accepted
    smt->interpretText();
    QCOMPARE(smt->value(), 2);
    // What the panel builds, the spec sheet rules accept.
    QVERIFY(model::machine_from_spec(m.spec()).dram_peak_gbps_per_node > 0);
  }

  void cores_change_thread_range_and_points() {
    MainWindow w;
    w.panel()->set_request(sim_request("1..max"));
    auto* whatif = w.findChild<WhatIf*>("whatif");
    MachinePanel* m = whatif->panel();
    edit(whatif, [&] {
      m->sockets_box()->setValue(2);
      m->cores_box()->setValue(8);
      m->smt_box()->setValue(2);
    });
    const Dataset* run = simulated_run(w);
    QVERIFY(run);
    QCOMPARE(max_threads(*run), 32);                  // 1..max = every PU of 2 x 8 x 2
    QCOMPARE(int(run->points.size()), 3 * 32);        // 3 kernels x 32 thread counts x 1 size
    QCOMPARE(w.results()->rowCount(), 3 * 32);        // the table holds the new points, not both
    const double before = run->points.back().gbps_median;
    edit(whatif, [&] { m->cores_box()->setValue(4); });
    run = simulated_run(w);
    QCOMPARE(max_threads(*run), 16);
    QCOMPARE(int(run->points.size()), 3 * 16);
    QCOMPARE(w.results()->rowCount(), 3 * 16);
    QVERIFY(run->points.back().gbps_median != before || run->points.back().threads != 32);
    for (const auto& p : run->points) QCOMPARE(QString::fromStdString(p.source), QString("simulated"));

    // Thread counts the user fixed stay fixed.
    w.panel()->set_request(sim_request("1,2,4"));
    edit(whatif, [&] { m->cores_box()->setValue(16); });
    QCOMPARE(max_threads(*simulated_run(w)), 4);
    QCOMPARE(int(simulated_run(w)->points.size()), 3 * 3);

    // A fixed count the machine cannot host: the panel says why, the last points stay.
    w.panel()->set_request(sim_request("1,64"));
    QSignalSpy spy(whatif, &WhatIf::simulated);
    m->sockets_box()->setValue(1);
    QTRY_VERIFY_WITH_TIMEOUT(m->status().startsWith("not simulated"), kHangGuardMs);
    QCOMPARE(spy.count(), 0);
    QCOMPARE(int(simulated_run(w)->points.size()), 3 * 3);
  }

  // The dock follows the panel's scenario: with mix it said "not simulated: no thread count to
  // simulate" in red (it always simulated a scaling sweep); victim and mix now redraw as Run does.
  void dock_follows_the_victim_and_mix_scenarios() {
    MainWindow w;
    auto* whatif = w.findChild<WhatIf*>("whatif");
    MachinePanel* m = whatif->panel();
    RunRequest r = sim_request("1,2,4");
    r.scenario = "mix";
    r.mix = "stosb:2,avx2-nt:2";
    w.panel()->set_request(r);
    edit(whatif, [&] { m->cores_box()->setValue(8); });
    QVERIFY2(!m->status().startsWith("not simulated"), qPrintable(m->status()));
    const Dataset* run = simulated_run(w);
    QVERIFY(run);
    QCOMPARE(int(run->points.size()), 2);
    for (const auto& p : run->points) QCOMPARE(p.scenario, std::string("mix"));
    r.scenario = "victim";
    r.victims = "stosb";
    r.aggressors = "avx2-nt";
    w.panel()->set_request(r);
    edit(whatif, [&] { m->cores_box()->setValue(6); });
    run = simulated_run(w);
    QCOMPARE(int(run->points.size()), 3);  // k = 0, 1, 3
    for (const auto& p : run->points) QCOMPARE(p.scenario, std::string("victim"));
  }

  void run_keeps_a_copy_of_the_what_if_machine() {
    // Run in Simulate mode simulated the Simulated machine box's preset while the dock showed another
    // machine. The box's first choice is now the dock's machine: Run keeps its points as a run of
    // their own, which the next edit of the dock does not change.
    MainWindow w;
    RunRequest r = sim_request("1..max");
    r.machine = kWhatIfMachine;
    w.panel()->set_request(r);
    QCOMPARE(w.panel()->request().machine, QString(kWhatIfMachine));
    auto* whatif = w.findChild<WhatIf*>("whatif");
    MachinePanel* m = whatif->panel();
    edit(whatif, [&] {
      m->sockets_box()->setValue(1);
      m->cores_box()->setValue(6);
      m->smt_box()->setValue(1);
    });
    const std::string host = "model:" + whatif->machine().name;
    QSignalSpy done(&w, &MainWindow::runFinished);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kHangGuardMs);
    QCOMPARE(done.at(0).at(1).toString(), QString());
    const KeptRun* kept = nullptr;
    for (const KeptRun& k : w.runs())
      if (k.origin == "simulated") kept = &k;
    QVERIFY(kept);
    QVERIFY2(QString::fromStdString(kept->data.name).contains("what-if " + QString::fromStdString(whatif->machine().name)),
             kept->data.name.c_str());
    QCOMPARE(int(kept->data.points.size()), 3 * 6);  // 3 kernels x threads 1..6 (the dock's PUs)
    std::vector<double> figures;
    for (const Point& p : kept->data.points) {
      QCOMPARE(p.host, host);
      figures.push_back(p.gbps_median);
    }
    // The dock changes; the kept run does not.
    edit(whatif, [&] { m->channels_box()->setValue(1); });
    QVERIFY(simulated_run(w)->points.back().gbps_median < figures.back());  // 1 channel: the dock's run drops
    for (const KeptRun& k : w.runs())
      if (k.origin == "simulated") {
        QCOMPARE(int(k.data.points.size()), 3 * 6);
        for (std::size_t i = 0; i < figures.size(); ++i) QCOMPARE(k.data.points[i].gbps_median, figures[i]);
      }
    // A preset in the box still runs the preset.
    r.machine = "skylake-x-8270cl";
    r.threads = "1,2";
    w.panel()->set_request(r);
    w.start_run();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, kHangGuardMs);
    QCOMPARE(done.at(1).at(1).toString(), QString());
    QCOMPARE(w.runs().back().data.points.front().host, std::string("model:skylake-x-8270cl"));
  }

  // A session saved with a what-if run, opened again: the dock's next simulation makes a run of its
  // own beside the saved one (it replaced the saved run in place, silently).
  void a_sessions_what_if_run_stays_when_the_dock_simulates() {
    QTemporaryDir dir;
    const QString session = dir.path() + "/wi.json";
    std::vector<double> saved;
    {
      MainWindow w;
      w.panel()->set_request(sim_request("1..max"));
      auto* whatif = w.findChild<WhatIf*>("whatif");
      one_socket(whatif, 4);
      for (const KeptRun& k : w.runs())
        if (k.origin == "what-if")
          for (const Point& p : k.data.points) saved.push_back(p.gbps_median);
      QVERIFY(!saved.empty());
      QVERIFY(w.save_session(session));
    }
    MainWindow w;
    QVERIFY(w.open_session(session));
    QCOMPARE(w.runs().size(), std::size_t(1));
    const std::string saved_name = w.runs()[0].data.name;
    QVERIFY2(w.log()->toPlainText().contains(": 1 run\n") || w.log()->toPlainText().endsWith(": 1 run"),
             qPrintable(w.log()->toPlainText()));
    w.panel()->set_request(sim_request("1..max"));
    auto* whatif = w.findChild<WhatIf*>("whatif");
    one_socket(whatif, 6);
    QCOMPARE(w.runs().size(), std::size_t(2));
    QCOMPARE(w.runs()[0].data.name, saved_name);
    QCOMPARE(w.runs()[0].data.points.size(), saved.size());
    for (std::size_t i = 0; i < saved.size(); ++i) QCOMPARE(w.runs()[0].data.points[i].gbps_median, saved[i]);
    QCOMPARE(w.runs()[1].origin, std::string("what-if"));
    QVERIFY(w.runs()[1].data.name != saved_name);  // two legend entries, told apart
    QCOMPARE(max_threads(w.runs()[1].data), 6);
    // The next edit replaces the dock's own run, keeping its name; the saved one stays.
    const std::string dock_name = w.runs()[1].data.name;
    edit(whatif, [&] { whatif->panel()->cores_box()->setValue(5); });
    QCOMPARE(w.runs().size(), std::size_t(2));
    QCOMPARE(w.runs()[1].data.name, dock_name);
    QCOMPARE(max_threads(w.runs()[1].data), 5);
    QCOMPARE(w.runs()[0].data.points.size(), saved.size());
  }

  void more_channels_never_lower() {
    MainWindow w;
    w.panel()->set_request(sim_request("1..max"));
    auto* whatif = w.findChild<WhatIf*>("whatif");
    MachinePanel* m = whatif->panel();
    std::map<std::pair<std::string, int>, double> few;
    edit(whatif, [&] {
      m->cores_box()->setValue(16);
      m->channels_box()->setValue(2);
    });
    for (const auto& p : simulated_run(w)->points) few[{p.kernel, p.threads}] = p.gbps_median;
    edit(whatif, [&] { m->channels_box()->setValue(8); });
    int higher = 0;
    QCOMPARE(simulated_run(w)->points.size(), few.size());
    for (const auto& p : simulated_run(w)->points) {
      const double before = few.at({p.kernel, p.threads});
      QVERIFY2(p.gbps_median >= before * (1 - 1e-9),
               qPrintable(QString("%1 %2T: %3 < %4").arg(QString::fromStdString(p.kernel)).arg(p.threads)
                              .arg(p.gbps_median).arg(before)));
      higher += p.gbps_median > before * 1.01;
    }
    QVERIFY(higher > 0);  // 2 channels bind 64 threads somewhere: the change is visible
  }

  void save_load_round_trip_equals_cli() {
    QTemporaryDir dir;
    MachinePanel m;
    model::SpecSheet s;
    s.uarch = "cascadelake-sp";
    s.sockets = 2, s.cores = 18, s.smt = 2, s.channels = 6, s.mts = 2666;
    s.llc_bytes = static_cast<std::uint64_t>(24.75 * (1 << 20));
    s.base_ghz = 2.3, s.turbo_ghz = 3.9;
    m.set_spec(s);
    const QString saved = dir.filePath("gui.json"), cli = dir.filePath("cli.json");
    QString error;
    QVERIFY2(m.save_machine(saved, &error), qPrintable(error));
    const testsupport::ChildResult bwlab = testsupport::run_child(
        BWLAB_BIN_FOR_GUI,
        {"machine", "spec", "--uarch", "cascadelake-sp", "--sockets", "2", "--cores", "18", "--smt", "2", "--channels",
         "6", "--mts", "2666", "--llc", "24.75M", "--base-ghz", "2.3", "--turbo-ghz", "3.9", "--out", cli.toStdString()},
        std::chrono::milliseconds(kHangGuardMs));
    QVERIFY2(bwlab.exit_code == 0, bwlab.describe().c_str());
    QVERIFY(!read_all(saved).isEmpty());
    QCOMPARE(read_all(saved), read_all(cli));

    // Load fills the panel (from the CLI's file) and announces one change.
    m.set_spec(model::SpecSheet{"zen3", 1, 8, 1, 2, 3200, 32u << 20, 0, 0});
    QTest::qWait(0);
    QSignalSpy spy(&m, &MachinePanel::specChanged);
    QVERIFY2(m.load_machine(cli, &error), qPrintable(error));
    QVERIFY(m.spec() == s);
    QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 1, kHangGuardMs);

    // A machine file without a spec sheet (a preset's) is refused with the reason; the panel keeps its fields.
    const QString preset = dir.filePath("preset.json");
    save_machine_file(preset.toStdString(), *load_machine("skylake-x-8270cl"));
    QVERIFY(!m.load_machine(preset, &error));
    QVERIFY2(error.contains("not built from a spec sheet"), qPrintable(error));
    QVERIFY(m.spec() == s);
    QVERIFY(!m.save_machine(dir.filePath("gui.json/under-a-file.json"), &error));
    QVERIFY2(error.contains("cannot"), qPrintable(error));
  }

  void hover_shows_the_model_explanation() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.panel()->set_request(sim_request("1..max"));
    auto* whatif = w.findChild<WhatIf*>("whatif");
    MachinePanel* m = whatif->panel();
    edit(whatif, [&] {
      m->cores_box()->setValue(8);
      m->channels_box()->setValue(2);
    });
    PlotPanel* plot = w.threads_plot();
    plot->replot_now();
    const std::vector<Series> series = build_series(w.datasets(), PlotKind::threads, false, "scaling");
    QVERIFY(!series.empty());
    const MachineParams machine = model::machine_from_spec(m->spec());
    const Topology topo = Topology::from_synthetic(machine.topology);
    for (int index : {0, int(series[0].points.size()) - 1}) {
      const Point& p = series[0].points[static_cast<std::size_t>(index)];
      const std::string why = explain_simulated_point(p, topo, machine);
      const auto at = why.find("binds: ");
      QVERIFY(at != std::string::npos);
      const QString binds = QString::fromStdString(why.substr(at, why.find('\n', at) - at));
      const QString tip = plot->details_at(plot->pixel_of(0, index));
      QVERIFY2(tip.contains(binds), qPrintable(tip + "\n-- expected: " + binds));
      QVERIFY2(tip.contains("Why (model"), qPrintable(tip));
      QVERIFY2(tip.contains("RFO") || tip.contains("non-temporal") || tip.contains("LLC-resident"), qPrintable(tip));
    }
    // The two ends of a 2-channel sweep do not bind on the same limit: the tooltip follows the point.
    const std::string first = explain_simulated_point(series[0].points.front(), topo, machine);
    const std::string last = explain_simulated_point(series[0].points.back(), topo, machine);
    QVERIFY(first != last);
    // A point that is not the what-if machine's has no model explanation.
    Point other = series[0].points.front();
    other.source = "measured";
    QVERIFY(whatif->explain(other).isEmpty());
  }
};

QTEST_MAIN(WhatIfTest)
#include "whatif_test.moc"
