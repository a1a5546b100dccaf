// SPDX-License-Identifier: MIT
// Takes the screenshots in docs/ from real runs on this machine (not a test):
//   build/bwlab calibrate --out /tmp/m.json --reps 2 --duration 100ms
//   xvfb-run -a -s '-screen 0 1600x1000x24' build/tests/gui/gui_screenshots docs /tmp/m.json
// and the time from Run to the first point (issue 7):
//   QT_QPA_PLATFORM=offscreen build/tests/gui/gui_screenshots --first-point [16M]
#include <QApplication>
#include <QEventLoop>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>

#include "gui/app/control_panel.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/results_model.hpp"
#include "gui/plots/plot_panel.hpp"

using namespace bwlab::gui;

namespace {

void wait_for(MainWindow& w, int min_rows = -1) {
  QEventLoop loop;
  QObject::connect(&w, &MainWindow::runFinished, &loop, &QEventLoop::quit);
  QTimer poll;
  if (min_rows > 0) {
    QObject::connect(&poll, &QTimer::timeout, [&] {
      if (w.results()->rowCount() >= min_rows) loop.quit();
    });
    poll.start(50);
  }
  loop.exec();
}

void shot(MainWindow& w, int tab, const QString& path) {
  w.tabs()->setCurrentIndex(tab);
  QEventLoop loop;
  QTimer::singleShot(300, &loop, &QEventLoop::quit);  // let queued replots happen
  loop.exec();
  w.grab().save(path);
  std::printf("wrote %s\n", qPrintable(path));
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("bwlab-screenshots");
  const QString dir = argc > 1 ? argv[1] : "docs";
  if (dir == "--first-point") {  // issue 7: time from Run to the first window shown and the first point drawn
    MainWindow w;
    w.show();
    RunRequest r;
    r.kernels = "stosb,movnti,avx512-nt";
    r.sizes = argc > 2 ? argv[2] : "16M";
    r.reps = 5;
    r.duration_ms = 200;
    w.panel()->set_request(r);
    w.start_run();
    wait_for(w, 1);
    std::printf("sizes %s, 3 kernels, 5 reps of 200 ms: first window shown %lld ms, first point drawn %lld ms after Run\n",
                qPrintable(r.sizes), static_cast<long long>(w.first_window_ms()), static_cast<long long>(w.first_point_ms()));
    w.close();
    return 0;
  }
  MainWindow w;
  w.resize(1500, 900);
  w.show();

  RunRequest sweep;
  sweep.kernels = "stosb,movnti,avx512-nt";
  sweep.sizes = "64K..256M";
  sweep.threads = "1";
  sweep.reps = 3;
  sweep.duration_ms = 40;
  w.panel()->set_request(sweep);
  w.start_run();
  wait_for(w);
  shot(w, 1, dir + "/gui-size.png");

  RunRequest scaling = sweep;
  scaling.sizes = "16M,1G";
  scaling.threads = "1..max";
  scaling.reps = 5;
  scaling.duration_ms = 200;
  w.panel()->set_request(scaling);
  w.start_run();
  wait_for(w, 3);
  shot(w, 3, dir + "/gui-topology.png");  // mid-run: PUs coloured by the last point
  wait_for(w);
  shot(w, 0, dir + "/gui-threads.png");
  shot(w, 4, dir + "/gui-table.png");

  // A real victim run: 3 victims x 2 aggressor kernels, k = 0..max-1, one heat map per aggressor.
  RunRequest victim = sweep;
  victim.scenario = "victim";
  victim.kernels = "stosb,movnti,avx512-nt";
  victim.victims = "stosb,movnti,avx512-nt";
  victim.aggressors = "avx512-nt,stosb";
  victim.sizes = "256M";
  victim.threads = "1..max";
  victim.reps = 3;
  victim.duration_ms = 100;
  w.panel()->set_request(victim);
  w.start_run();
  wait_for(w);
  shot(w, 2, dir + "/gui-heatmap.png");

  // Measured and simulated, the same scaling sweep, overlaid: the machine is argv[2] (a file from
  // `bwlab calibrate`) or the first preset.
  RunRequest measured = scaling;
  measured.sizes = "1G";
  w.panel()->set_request(measured);
  w.start_run();
  wait_for(w);
  RunRequest simulated = measured;
  simulated.simulate = true;
  simulated.machine = argc > 2 ? argv[2] : "";
  simulated.topology = "local";
  w.panel()->set_request(simulated);
  w.start_run();
  wait_for(w);
  shot(w, 0, dir + "/gui-overlay.png");
  w.close();
  return 0;
}
