// SPDX-License-Identifier: MIT
#pragma once
#include <memory>

class QApplication;

namespace bwlab::gui {

// The QApplication a headless command (`bwlab plot`, `bwlab report`) needs to draw plots without
// a display: when none exists it sets QT_QPA_PLATFORM=offscreen (and QT_NO_GLIB=1), hides Qt's XDG_RUNTIME_DIR
// note and creates one for the lifetime of this object; when one exists (the GUI, Qt tests) it
// does nothing.
class OffscreenApp {
 public:
  OffscreenApp();
  ~OffscreenApp();
  OffscreenApp(const OffscreenApp&) = delete;
  OffscreenApp& operator=(const OffscreenApp&) = delete;

 private:
  std::unique_ptr<QApplication> app_;
};

}  // namespace bwlab::gui
