// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>
#include <string_view>

namespace bwlab::cli {

// Writes `text` and a newline to stderr, wrapped at the terminal's width (less one column) when
// stderr is a terminal, continuation lines indented `indent`; whole when it is a file or a pipe.
// Warnings, notes and "point N:" lines ran 150 columns on a 60-column terminal.
void print_stderr_line(std::string_view text, std::size_t indent = 2);

}  // namespace bwlab::cli
