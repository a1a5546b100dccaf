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
  std::string s = cli_text;
  for (const auto& [re, to] : rules) s = std::regex_replace(s, re, to);
  return s;
}

}  // namespace bwlab::gui
