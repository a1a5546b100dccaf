// SPDX-License-Identifier: MIT
// bwlab-gui: explore a machine's clearing bandwidth, measured or simulated.
#include <cstdio>
#include <cstring>

#include <QApplication>
#include <QLocale>
#include <QStringList>

#include "core/version.hpp"
#include "gui/app/main_window.hpp"

int main(int argc, char** argv) {
  // Answered before QApplication exists, so they work without a display (help2man runs them at build time).
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--version") == 0) {
      std::printf("bwlab-gui %s\n", bwlab::kVersion);
      return 0;
    }
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf(
          "Usage: bwlab-gui [FILE.csv|FILE.json]...\n"
          "Explore a machine's clearing bandwidth (rep stosb against non-temporal stores), measured or simulated.\n"
          "Files given are opened as overlays.\n\n"
          "Options:\n"
          "  -h, --help   print this help and exit\n"
          "  --version    print the version and exit\n");
      return 0;
    }
  }
  QApplication app(argc, argv);
  QApplication::setOrganizationName("bwlab");
  QApplication::setApplicationName("bwlab-gui");
  QLocale::setDefault(QLocale::c());  // numbers read the same everywhere, as in the CSV
  bwlab::gui::MainWindow window;
  window.resize(1400, 860);
  window.show();
  const QStringList files = app.arguments().mid(1);  // bwlab-gui a.csv b.csv: open them as overlays
  if (!files.isEmpty()) window.open_files(files);
  return app.exec();
}
