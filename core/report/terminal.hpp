// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

namespace bwlab {

// How text goes to one output stream: how wide it may be and whether it may be coloured.
// The default (width 0, no colour) is what files and pipes get: the wide table, byte for byte.
struct TerminalStyle {
  std::size_t width = 0;  // columns; 0 = unlimited (not a terminal)
  bool color = false;     // ANSI colours allowed
};

// The rules, with every input injectable (tests): not a TTY -> {0, false}, whatever COLUMNS
// says (piped output stays identical); a TTY -> the width the terminal reports (`tty_columns`,
// from TIOCGWINSZ), else the COLUMNS variable, else 80; colour unless NO_COLOR is set and
// non-empty (https://no-color.org) or TERM is "dumb". Null pointers mean unset variables.
TerminalStyle terminal_style(bool is_tty, std::size_t tty_columns, const char* columns_env, const char* no_color_env,
                             const char* term_env);

// The style of file descriptor `fd` (1 = stdout, 2 = stderr) from isatty, TIOCGWINSZ and the
// environment.
TerminalStyle detect_terminal_style(int fd);

// Whether a table turns compact (one line per point, fewer columns) on `style`: only on a
// terminal, when it is narrower than 100 columns or than `wide_columns`, the table's wide layout.
bool wants_compact(const TerminalStyle& style, std::size_t wide_columns);

enum class Tint { flag, simulated, error };  // yellow, cyan, red

// `text` wrapped in the ANSI colour of `tint` when style.color, else `text` unchanged.
std::string paint(const TerminalStyle& style, Tint tint, std::string_view text);

// Splits `text` at spaces into lines of at most `width` columns (0: one line); continuation
// lines start with `indent` spaces. A word longer than a line is cut. Every line ends in '\n'.
std::string wrap_text(std::string_view text, std::size_t width, std::size_t indent = 2);

// `text` (lines ending in '\n') with each line longer than `width` wrapped by wrap_text, its
// leading spaces (or a "[prediction] " tag) repeated on its continuation lines, indented 2 more;
// a table row (a run of two spaces
// after its first word: aligned columns) is left whole, as wrapping would break its columns.
// `width` 0: unchanged. For prose a command prints to a terminal (verdict's Recommendation and
// notes ran 200+ columns on an 80-column terminal).
std::string wrap_prose(std::string_view text, std::size_t width);

// Writes `text` wrapped at style.width, each line painted as a flag (yellow) when coloured.
void print_flag_line(std::ostream& out, const TerminalStyle& style, std::string_view text);

}  // namespace bwlab
