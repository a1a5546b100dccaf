// SPDX-License-Identifier: MIT
#include "gui/app/form_wording.hpp"

#include <regex>
#include <utility>
#include <vector>

namespace bwlab::gui {

std::string form_wording(const std::string& cli_text) {
  if (cli_text.find("--") == std::string::npos) return cli_text;
  // Whole phrases first (advice with a number), then each option's bare name.
  static const std::vector<std::pair<std::regex, std::string>> rules = [] {
    std::vector<std::pair<std::regex, std::string>> r;
    auto add = [&](const char* re, const char* to) { r.emplace_back(std::regex(re), to); };
    add(R"(try --reps (\d+) or a longer --duration)", "raise Repetitions to $1 or lengthen the Window");
    // --reject-noisy has no box in the form: the command line's option, named as a command.
    add(R"(rerun with --reject-noisy \(and more --reps\))",
        "rerun with `bwlab run --reject-noisy` (command line only) and more Repetitions");
    add(R"(\(--reject-noisy is for --scenario scaling;)",
        "(`bwlab run --reject-noisy`, command line only, is for the scaling scenario;");
    add(R"(--reject-noisy measures such windows again)",
        "`bwlab run --reject-noisy` (command line only) measures such windows again");
    add(R"(use --reps (\d+) or more)", "set Repetitions to $1 or more");
    add(R"(try --reps (\d+))", "raise Repetitions to $1");
    add(R"(--reps (\d+))", "Repetitions $1");
    add(R"(--reps auto)", "automatic repetitions (CLI only)");
    add(R"(a longer --duration)", "a longer Window");
    add(R"(--duration\b)", "Window");
    add(R"(--reps\b)", "Repetitions");
    add(R"(--sizes\b)", "Sizes");
    add(R"(--threads\b)", "Threads");
    add(R"(--kernels\b)", "the kernel boxes");
    add(R"(--placement\b)", "Placement");
    add(R"(--membind\b)", "Membind");
    add(R"(--pages\b)", "Pages");
    add(R"(--fill\b)", "Fill");
    add(R"(--scenario\b)", "Scenario");
    add(R"(--victim\b)", "Victims");
    add(R"(--aggressor\b)", "Aggressors");
    add(R"(--mix\b)", "Mix");
    add(R"(--entries\b)", "Entries");
    add(R"(--topology\b)", "Topology");
    add(R"(--machine\b)", "Machine");
    return r;
  }();
  // A quoted command (`bwlab verdict --machine MACHINE`) is a command to type, not a form's words:
  // only the text outside backticks is reworded.
  std::string out;
  std::size_t at = 0;
  while (at < cli_text.size()) {
    const std::size_t open = cli_text.find('`', at);
    std::string plain = cli_text.substr(at, open == std::string::npos ? std::string::npos : open - at);
    for (const auto& [re, to] : rules) plain = std::regex_replace(plain, re, to);
    out += plain;
    if (open == std::string::npos) break;
    const std::size_t close = cli_text.find('`', open + 1);
    out += cli_text.substr(open, close == std::string::npos ? std::string::npos : close + 1 - open);
    if (close == std::string::npos) break;
    at = close + 1;
  }
  return out;
}

}  // namespace bwlab::gui
