// SPDX-License-Identifier: MIT
#include "headless/help_format.hpp"

#include <algorithm>
#include <sstream>

#include "core/report/terminal.hpp"

namespace bwlab::cli {

std::string HelpFormatter::wrapped(const std::string& description) const {
  if (width_ == 0) return description;
  // The description column starts at the column width; CLI11 indents every line after a '\n' to it.
  const std::size_t room = std::max<std::size_t>(30, width_ > column_width_ ? width_ - column_width_ : 0);
  std::string out;
  std::istringstream lines(description);
  for (std::string line; std::getline(lines, line);) out += wrap_text(line, room, 0);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string HelpFormatter::make_option_desc(const CLI::Option* opt) const {
  return wrapped(CLI::Formatter::make_option_desc(opt));
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  std::stringstream out;
  CLI::detail::format_help(out, sub->get_display_name(true), wrapped(sub->get_description()), column_width_);
  return out.str();
}

}  // namespace bwlab::cli
