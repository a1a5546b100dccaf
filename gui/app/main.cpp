// SPDX-License-Identifier: MIT
// bwlab-gui: explore a machine's clearing bandwidth, measured or simulated.
// The command line is parsed before any QApplication exists: --help, --version and bad options
// need no display. --screenshot renders off-screen and exits.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <QApplication>
#include <QEventLoop>
#include <QLocale>
#include <QPixmap>
#include <QtMath>
#include <QTimer>

#include "core/report/atomic_file.hpp"
#include "gui/app/cli_options.hpp"
#include "gui/app/main_window.hpp"

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitNoDisplay = 1;

void settle(int ms) {  // let queued replots and layouts happen
  QEventLoop loop;
  QTimer::singleShot(ms, &loop, &QEventLoop::quit);
  loop.exec();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace bwlab::gui;
  const ParsedCommandLine cl = parse_gui_command_line(argc, argv);
  if (cl.outcome == ParseOutcome::exit_ok) {
    std::cout << cl.text << std::flush;
    return 0;
  }
  if (cl.outcome == ParseOutcome::exit_usage) {
    std::cerr << cl.text << "\n";
    return kExitUsage;
  }
  const GuiOptions& o = cl.options;
  const bool shot = !o.screenshot.empty();
  // Over ssh without X forwarding Qt aborted (exit 134) with "Reinstalling the application may fix
  // this problem", which it does not. Said plainly, with what works without a display.
  if (!shot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
      qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    std::cerr << "bwlab-gui: no display (DISPLAY and WAYLAND_DISPLAY are unset): log in with ssh -X, or without "
                 "a display write a picture with --screenshot out.png or `bwlab plot FILE --out out.png`\n";
    return kExitNoDisplay;
  }
  if (shot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  // A screenshot's stderr carries what it wrote and its errors, not Qt's notes on the offscreen
  // platform ("This plugin does not support propagateSizeHints()", an unset XDG_RUNTIME_DIR).
  if (shot)
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& msg) {
      if (!msg.startsWith("QStandardPaths: XDG_RUNTIME_DIR") && !msg.contains("does not support propagateSizeHints"))
        std::fprintf(stderr, "%s\n", qPrintable(msg));
      if (type == QtFatalMsg) std::abort();
    });

  QApplication app(argc, argv);
  QApplication::setOrganizationName("bwlab");
  // A screenshot never reads (or writes) the user's settings: the same inputs give the same picture.
  QApplication::setApplicationName(shot ? "bwlab-gui-screenshot" : "bwlab-gui");
  QLocale::setDefault(QLocale::c());  // numbers read the same everywhere, as in the CSV
  MainWindow window;
  window.resize(o.width, o.height);
  const auto fail = [&](const QString& what) {
    std::cerr << "bwlab-gui: " << what.toStdString() << "\n";
    return kExitUsage;
  };
  if (shot) {
    // Before any rendering, with the reason ("/proc takes no new files"), as the CLI checks its outputs:
    // it rendered first, then said only "cannot write the PNG".
    try {
      bwlab::check_writable(o.screenshot);
    } catch (const std::exception& e) {
      return fail(QString("--screenshot: %1").arg(e.what()));
    }
  }
  if (!o.session.empty() && !window.open_session(QString::fromStdString(o.session)) && shot)
    return fail(window.last_error());
  QStringList files;
  for (const auto& f : o.files) files << QString::fromStdString(f);
  if (!files.isEmpty() && !window.open_files(files) && shot) return fail(window.last_error());
  if (o.demo && !window.open_demo() && shot) return fail(window.last_error());
  if (!o.view.empty()) window.set_view(QString::fromStdString(o.view));
  if (o.text_scale > 0) window.set_text_scale(o.text_scale);
  if (!shot) {
    window.show();
    return app.exec();
  }
  window.setAttribute(Qt::WA_DontShowOnScreen, true);
  // --size is the PNG's size in pixels. Under QT_SCALE_FACTOR (a presentation's larger text) the
  // window is that size divided by the scale: grab() returns device pixels, and comparing them
  // with the request refused 1920x1080 at scale 1.5 as "below the minimum size".
  const qreal dpr = app.devicePixelRatio();
  const QSize logical(qRound(o.width / dpr), qRound(o.height / dpr));
  window.show();
  window.resize(logical);
  settle(300);
  (void)window.grab();  // a first paint settles lazily laid out parts (the table's scroll range)
  settle(100);
  QPixmap pixmap = window.grab();
  if (window.size() != logical) {
    // The window's real minimum (its layout's), not the size it ended up at (that echoes the request).
    const QSize min = window.minimumSizeHint().expandedTo(window.minimumSize());
    // Larger text makes the minimum larger: said, with the two ways out (it said only the minimum,
    // 1056x694 at --text-scale 2). Which smaller scale fits is not probed: the window keeps the
    // widths it first laid out at.
    return fail(QString("--size %1x%2 is below the window's minimum size %3x%4%5%6")
                    .arg(o.width).arg(o.height).arg(qCeil(min.width() * dpr)).arg(qCeil(min.height() * dpr))
                    .arg(dpr != 1 ? QString(" (at scale %1)").arg(dpr) : QString())
                    .arg(o.text_scale > 1 ? QString(" with --text-scale %1 (larger text needs a larger window: give a "
                                                    "smaller --text-scale or a larger --size)")
                                                .arg(o.text_scale)
                                          : QString()));
  }
  if (pixmap.size() != QSize(o.width, o.height))  // a pixel of rounding at a fractional scale
    pixmap = pixmap.scaled(o.width, o.height, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  if (pixmap.isNull() || !pixmap.save(QString::fromStdString(o.screenshot), "PNG"))
    return fail(QString("--screenshot %1: cannot write the PNG").arg(QString::fromStdString(o.screenshot)));
  std::printf("wrote %s (%dx%d)\n", o.screenshot.c_str(), pixmap.width(), pixmap.height());
  return 0;
}
