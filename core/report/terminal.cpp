// SPDX-License-Identifier: MIT
#include "core/report/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
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

std::string wrap_prose(std::string_view text, std::size_t width) {
  if (width == 0) return std::string(text);
  std::string out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    const bool ended = nl != std::string_view::npos;  // a last line without '\n' stays without one
    text.remove_prefix(ended ? nl + 1 : text.size());
    // The lead: leading spaces, or a tag such as "[prediction] " and the spaces after it; each
    // continuation line repeats it (a tag marks every line, for grep).
    std::size_t lead = std::min(line.find_first_not_of(' '), line.size());
    if (line.substr(lead).starts_with('[')) {
      const std::size_t tag_end = line.find("] ", lead);
      if (tag_end != std::string_view::npos && line.substr(lead, tag_end - lead).find(' ') == std::string_view::npos)
        lead = std::min(line.find_first_not_of(' ', tag_end + 1), line.size());
    }
    const std::string_view lead_text = line.substr(0, lead), body = line.substr(lead);
    if (line.size() <= width || body.find("  ") != std::string_view::npos || lead + 16 > width) {
      out.append(line);
      if (ended) out += '\n';
      continue;
    }
    const std::string wrapped = wrap_text(body, width - lead, 2);
    for (std::size_t at = 0; at < wrapped.size();) {
      const std::size_t end = wrapped.find('\n', at);
      out.append(lead_text);
      out.append(wrapped, at, end + 1 - at);
      at = end + 1;
    }
    if (!ended) out.pop_back();
  }
  return out;
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
