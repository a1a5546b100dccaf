// SPDX-License-Identifier: MIT
#include "gui/plots/offscreen_app.hpp"

#include <cstdio>
#include <cstdlib>

#include <QApplication>

namespace bwlab::gui {

OffscreenApp::OffscreenApp() {
  if (QApplication::instance()) return;
  qputenv("QT_QPA_PLATFORM", "offscreen");
  // Qt's own event dispatcher, not GLib's: these commands run no event loop, and GLib is
  // uninstrumented code in which TSan has reported a race (see tests/tsan.supp).
  if (qEnvironmentVariableIsEmpty("QT_NO_GLIB")) qputenv("QT_NO_GLIB", "1");
  // Qt's note that XDG_RUNTIME_DIR is unset is noise for a command that only writes a file.
  qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& msg) {
    if (!msg.startsWith("QStandardPaths: XDG_RUNTIME_DIR")) std::fprintf(stderr, "%s\n", qPrintable(msg));
    if (type == QtFatalMsg) std::abort();
  });
  static int argc = 1;
  static char name[] = "bwlab";
  static char* argv[] = {name, nullptr};
  app_ = std::make_unique<QApplication>(argc, argv);
}

OffscreenApp::~OffscreenApp() = default;

}  // namespace bwlab::gui
