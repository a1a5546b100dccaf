// SPDX-License-Identifier: MIT
#include "headless/stderr_line.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include "core/report/terminal.hpp"

namespace bwlab::cli {

void print_stderr_line(std::string_view text, std::size_t indent) {
  const std::size_t width = detect_terminal_style(STDERR_FILENO).width;  // 0: not a terminal
  fmt::print(stderr, "{}", wrap_text(text, width > 1 ? width - 1 : 0, indent));
}

}  // namespace bwlab::cli
