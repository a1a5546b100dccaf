// SPDX-License-Identifier: MIT
#include "headless/wrapped_stdout.hpp"

#include <unistd.h>

#include <iostream>

#include "core/report/terminal.hpp"

namespace bwlab::cli {

WrappedStdout::WrappedStdout() : width_(detect_terminal_style(STDOUT_FILENO).width) {
  if (width_ > 0) saved_ = std::cout.rdbuf(gathered_.rdbuf());
}

WrappedStdout::~WrappedStdout() {
  if (saved_ == nullptr) return;
  std::cout.rdbuf(saved_);
  std::cout << wrap_prose(gathered_.str(), width_) << std::flush;
}

}  // namespace bwlab::cli
