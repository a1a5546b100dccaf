// SPDX-License-Identifier: MIT
#include "core/report/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <ostream>
#include <string>

namespace bwlab {

TerminalStyle terminal_style(bool is_tty, std::size_t tty_columns, const char* columns_env, const char* no_color_env,
                             const char* term_env) {
  if (!is_tty) return {};
  TerminalStyle s;
  s.width = tty_columns;
  if (s.width == 0 && columns_env) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(columns_env, &end, 10);
    if (end != columns_env && *end == '\0' && v > 0 && v < 100000) s.width = v;
  }
  if (s.width == 0) s.width = 80;
  const bool no_color = no_color_env && *no_color_env;
  const bool dumb = term_env && std::string_view(term_env) == "dumb";
  s.color = !no_color && !dumb;
  return s;
}

bool wants_compact(const TerminalStyle& style, std::size_t wide_columns) {
  return style.width > 0 && (style.width < 100 || wide_columns > style.width);
}

TerminalStyle detect_terminal_style(int fd) {
  const bool tty = isatty(fd) != 0;
  std::size_t columns = 0;
  winsize ws{};
  if (tty && ioctl(fd, TIOCGWINSZ, &ws) == 0) columns = ws.ws_col;
  return terminal_style(tty, columns, std::getenv("COLUMNS"), std::getenv("NO_COLOR"), std::getenv("TERM"));
}

std::string paint(const TerminalStyle& style, Tint tint, std::string_view text) {
  if (!style.color || text.empty()) return std::string(text);
  const char* code = tint == Tint::flag ? "\033[33m" : tint == Tint::simulated ? "\033[36m" : "\033[31m";
  return code + std::string(text) + "\033[0m";
}

std::string wrap_text(std::string_view text, std::size_t width, std::size_t indent) {
  if (width == 0 || text.size() <= width) return std::string(text) + '\n';
  if (indent + 8 > width) indent = 0;
  std::string out, line;
  bool has_word = false;
  const auto next_line = [&] {
    out += line + '\n';
    line.assign(indent, ' ');
    has_word = false;
  };
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(pos, end - pos);
    pos = end + 1;
    while (!word.empty()) {
      if (line.size() + (has_word ? 1 : 0) + word.size() <= width) {
        if (has_word) line += ' ';
        line += word;
        has_word = true;
        break;
      }
      if (has_word) {
        next_line();
        continue;
      }
      const std::size_t room = width - line.size();  // a word longer than a whole line: cut it
      line += word.substr(0, room);
      word.remove_prefix(room);
      next_line();
    }
  }
  if (has_word) out += line + '\n';
  return out;
}

void print_flag_line(std::ostream& out, const TerminalStyle& style, std::string_view text) {
  const std::string lines = wrap_text(text, style.width);
  std::size_t pos = 0;
  for (std::size_t nl; (nl = lines.find('\n', pos)) != std::string::npos; pos = nl + 1)
    out << paint(style, Tint::flag, std::string_view(lines).substr(pos, nl - pos)) << '\n';
}

}  // namespace bwlab
