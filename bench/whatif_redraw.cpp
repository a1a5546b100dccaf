// SPDX-License-Identifier: MIT
// Speed of the what-if machine panel (issue 14's goal: from a change to the redraw under 50 ms
// for 3 kernels x 256 thread counts). A benchmark, not a test: prints figures and exits 0.
//
// Offscreen, the whole window: a simulated sweep of stosb, movnti, avx2-nt at 1 GiB per thread,
// threads 1..max on a 2-socket 64-core SMT2 machine (zen4, 256 PUs: 768 points). Each repetition
// flips the DRAM channels 12 <-> 8 in the panel and times, on one clock:
//   resim+rebuild  the change -> the coalesced re-simulation -> the window has replaced the
//                  simulated run (results table, series of both plots, heat maps) and rebuilt
//                  its plots (their replot is queued at that moment);
//   to drawn       ... -> the event queue drained: both plots' queued replots and the paints
//                  of the offscreen backing store done.
// Usage: whatif_redraw [repetitions, default 30] [--png FILE: grab the window after the runs]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <QApplication>
#include <QDir>
#include <QSpinBox>
#include <QTemporaryDir>

#include "gui/app/control_panel.hpp"
#include "gui/app/machine_panel.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/results_model.hpp"
#include "gui/plots/plot_panel.hpp"
#include "gui/app/whatif.hpp"

namespace {

using Clock = std::chrono::steady_clock;

void print(const char* what, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) { return ms[static_cast<std::size_t>(q * double(ms.size() - 1) + 0.5)]; };
  std::printf("  %-15s median %6.1f ms   quartiles %6.1f .. %6.1f ms   min %6.1f   max %6.1f ms\n", what, at(0.5),
              at(0.25), at(0.75), ms.front(), ms.back());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace bwlab;
  using namespace bwlab::gui;
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QTemporaryDir config;  // QSettings of this run only, never the user's
  qputenv("XDG_CONFIG_HOME", QDir(config.path()).absolutePath().toUtf8());
  const int reps = argc > 1 ? std::max(3, std::atoi(argv[1])) : 30;
  const QString png = argc > 3 && QString(argv[2]) == "--png" ? QString(argv[3]) : QString();
  QApplication app(argc, argv);

  MainWindow w;
  w.resize(1600, 1000);
  w.show();
  RunRequest r;
  r.simulate = true;
  r.kernels = "stosb,movnti,avx2-nt";
  r.sizes = "1G";
  r.threads = "1..max";
  r.placement = "compact";
  w.panel()->set_request(r);
  auto* whatif = w.findChild<WhatIf*>("whatif");
  if (!whatif) {
    std::fprintf(stderr, "whatif_redraw: the window has no what-if panel\n");
    return 1;
  }
  MachinePanel* m = whatif->panel();
  int redraws = 0;
  QObject::connect(whatif, &WhatIf::simulated, &app, [&] { ++redraws; });  // after the window's own slot
  auto wait_redraw = [&](int before) {
    while (redraws == before) QCoreApplication::processEvents(QEventLoop::AllEvents);
  };
  model::SpecSheet s;
  s.uarch = "zen4";
  s.sockets = 2, s.cores = 64, s.smt = 2, s.channels = 12, s.mts = 4800;
  s.llc_bytes = 256ull << 20;
  s.base_ghz = 3.1, s.turbo_ghz = 3.75;
  m->set_spec(s);
  wait_redraw(0);
  QCoreApplication::processEvents();
  const std::size_t points = w.datasets().front().points.size();

  std::vector<double> rebuilt, drawn;
  for (int i = 0; i < reps; ++i) {
    const int before = redraws;
    const auto t0 = Clock::now();
    m->channels_box()->setValue(i % 2 ? 12 : 8);
    wait_redraw(before);
    const auto t1 = Clock::now();
    QCoreApplication::processEvents(QEventLoop::AllEvents);  // the queued replots and paints
    const auto t2 = Clock::now();
    rebuilt.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    drawn.push_back(std::chrono::duration<double, std::milli>(t2 - t0).count());
  }
  std::printf("whatif_redraw: %zu points per redraw (3 kernels x 256 thread counts, 1 size) on zen4 2 sockets x 64 "
              "cores x SMT2, offscreen (%s), %d repetitions, channels 12 <-> 8:\n",
              points, qPrintable(QGuiApplication::platformName()), reps);
  print("resim+rebuild", rebuilt);
  print("to drawn", drawn);

  // Where the time goes: each part alone, on the same 768 points.
  std::vector<double> sim, threads_plot, size_plot, table;
  const Dataset run = w.datasets().front();
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    whatif->blockSignals(true);  // the re-simulation alone (core solve + points), not the window's update
    whatif->resimulate();
    whatif->blockSignals(false);
    auto t1 = Clock::now();
    sim.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    t0 = Clock::now();
    w.threads_plot()->set_datasets(w.datasets());
    w.threads_plot()->replot_now();
    t1 = Clock::now();
    threads_plot.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    t0 = Clock::now();
    w.size_plot()->set_datasets(w.datasets());
    w.size_plot()->replot_now();
    t1 = Clock::now();
    size_plot.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    t0 = Clock::now();
    w.results()->remove_dataset(run.name);
    w.results()->append(run.name, run.points);
    t1 = Clock::now();
    table.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    QCoreApplication::processEvents(QEventLoop::AllEvents);
  }
  std::printf("  parts alone (same points; the size plot draws the ends and powers of two of the thread counts: "
              "%d curves):\n", w.size_plot()->curve_count());
  print("re-simulate", sim);
  print("threads plot", threads_plot);
  print("size plot", size_plot);
  print("results table", table);
  if (!png.isEmpty()) {
    m->channels_box()->setValue(12);
    QCoreApplication::processEvents(QEventLoop::AllEvents);
    QCoreApplication::processEvents(QEventLoop::AllEvents);
    if (!w.grab().save(png)) {
      std::fprintf(stderr, "whatif_redraw: cannot write %s\n", qPrintable(png));
      return 2;
    }
    std::printf("  window grabbed to %s\n", qPrintable(png));
  }
  return 0;
}
