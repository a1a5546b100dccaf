// SPDX-License-Identifier: MIT
// bwlab-gui: explore a machine's clearing bandwidth, measured or simulated.
#include <QApplication>
#include <QLocale>
#include <QStringList>

#include "gui/app/main_window.hpp"

int main(int argc, char** argv) {
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
