// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>
#include <string>

#include <CLI/CLI.hpp>

namespace bwlab::cli {

// CLI11's help with each option's and command's description wrapped in its own column at `width`
// columns: on an 80-column terminal `simulate --help` ran 300-column lines that the terminal
// folded back under the options' names. `width` 0 (stdout not a terminal: a file, a pipe,
// help2man) prints CLI11's help unchanged, one line per option. Set on the app before its
// subcommands are added: they take their parent's formatter.
class HelpFormatter : public CLI::Formatter {
 public:
  explicit HelpFormatter(std::size_t width) : width_(width) {}
  std::string make_option_desc(const CLI::Option* opt) const override;
  std::string make_subcommand(const CLI::App* sub) const override;

 private:
  std::string wrapped(const std::string& description) const;
  std::size_t width_;
};

}  // namespace bwlab::cli
