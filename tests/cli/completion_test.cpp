// SPDX-License-Identifier: MIT
// `bwlab completion bash`: the script is generated from the CLI11 app, so every command of
// `bwlab --help` is completed, options and kernel names come out right, and a shell other than
// bash is refused.
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/engine/buffer.hpp"
#include "core/import/import.hpp"
#include "core/scenario/scenario.hpp"
#include "core/topology/placement.hpp"
#include "tests/cli/cli_driver.hpp"

namespace bwlab::clitest {
namespace {

// The names listed under "Subcommands:" in a help text.
std::vector<std::string> commands_in_help(const std::string& help) {
  std::vector<std::string> names;
  bool in_list = false;
  static const std::regex row("^  ([a-z0-9-]+) .*");
  for (const std::string& line : split_lines(help)) {
    std::smatch m;
    if (line == "Subcommands:") in_list = true;
    else if (in_list && std::regex_match(line, m, row)) names.push_back(m[1]);
    else if (in_list) in_list = false;
  }
  return names;
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) {
    if (!s.empty()) s += ' ';
    s += w;
  }
  return s;
}

class Completion : public ::testing::Test {
 protected:
  void SetUp() override {
    const CliResult r = run_cli({"completion", "bash"});
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    script_ = dir_.path() / "bwlab.bash";
    std::FILE* f = std::fopen(script_.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(r.out.c_str(), f);
    std::fclose(f);
  }

  // What bash offers for the command line `words` (the last word is the one being completed).
  std::string complete(const std::vector<std::string>& words) {
    std::string array;
    for (const std::string& w : words) array += " '" + w + "'";
    const fs::path out = dir_.path() / "reply";
    const std::string cmd = "bash -c 'source \"$1\"; COMP_WORDS=(\"${@:2}\"); COMP_CWORD=$(($# - 2)); _bwlab; "
                            "echo \"${COMPREPLY[*]}\"' _ '" + script_.string() + "'" + array + " > '" + out.string() + "' 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::string reply = read_text(out);
    if (!reply.empty() && reply.back() == '\n') reply.pop_back();
    return reply;
  }

  TempDir dir_;
  fs::path script_;
};

TEST_F(Completion, OffersEveryCommandOfTheHelpAndTheirNestedCommands) {
  const CliResult help = run_cli({"--help"});
  ASSERT_EQ(help.exit_code, 0) << help.describe();
  const std::vector<std::string> commands = commands_in_help(help.out);
  ASSERT_GE(commands.size(), 12u) << help.out;
  std::string all;
  for (const std::string& c : commands) all += (all.empty() ? "" : " ") + c;
  EXPECT_EQ(complete({"bwlab", ""}), all);
  EXPECT_EQ(complete({"bwlab", "ru"}), "run");
  EXPECT_EQ(complete({"bwlab", "machine", "s"}), "spec show");
}

TEST_F(Completion, OffersTheOptionsOfTheCommandBeingTyped) {
  EXPECT_EQ(complete({"bwlab", "run", "--ker"}), "--kernels");
  EXPECT_EQ(complete({"bwlab", "run", "--quiet", "--dur"}), "--duration");
  EXPECT_EQ(complete({"bwlab", "machine", "spec", "--ch"}), "--channels");
  EXPECT_EQ(complete({"bwlab", "list", "--ker"}), "");  // list has no --kernels
}

TEST_F(Completion, OffersKernelNamesInsideACommaList) {
  EXPECT_EQ(complete({"bwlab", "run", "--kernels", "sto"}), "stosb stosq");
  EXPECT_EQ(complete({"bwlab", "run", "-k", "stosb,movn"}), "stosb,movnti stosb,movntdq");
  EXPECT_EQ(complete({"bwlab", "run", "--scenario", "victim", "--victim", "clz"}), "clzero");
  EXPECT_EQ(complete({"bwlab", "run", "--threads", ""}), "");  // a value with nothing to offer
}

// Values come from the tables the commands check them against: every scenario of core's table,
// every import format, every export format; a prefix narrows them, and other values stay empty.
TEST_F(Completion, OffersScenarioNamesAndImportExportFormats) {
  std::vector<std::string> scenarios;
  for (Scenario s : all_scenarios()) scenarios.emplace_back(to_string(s));
  EXPECT_EQ(complete({"bwlab", "run", "--scenario", ""}), joined(scenarios));
  EXPECT_EQ(complete({"bwlab", "run", "--quiet", "--scenario", "p"}), "pagefault");
  const std::vector<std::string> imports(import::formats().begin(), import::formats().end());
  EXPECT_EQ(complete({"bwlab", "import", ""}), joined(imports));
  EXPECT_EQ(complete({"bwlab", "import", "--cpu", "x", "pm"}), "pmbw");  // an option's value is no positional
  EXPECT_EQ(complete({"bwlab", "export", "--format", ""}), "gbench");
  EXPECT_EQ(complete({"bwlab", "export", "-f", "gb"}), "gbench");
}

// The sweep choices of run and simulate, plot's kinds, presets and microarchitectures, from the
// tables their parsers use; a machine is a preset or a file, so files are offered beside them.
TEST_F(Completion, OffersPlacementsBindingsPagesKindsPresetsAndUarchs) {
  for (const char* command : {"run", "simulate"}) {
    EXPECT_EQ(complete({"bwlab", command, "--placement", ""}), joined(placement_words())) << command;
    EXPECT_EQ(complete({"bwlab", command, "-p", "sc"}), "scatter") << command;
    EXPECT_EQ(complete({"bwlab", command, "--membind", ""}), joined(membind_words()) + " node:0") << command;
    EXPECT_EQ(complete({"bwlab", command, "--pages", "huge"}), "hugetlb2m hugetlb1g") << command;
    EXPECT_EQ(complete({"bwlab", command, "--fill", "z"}), "zero") << command;
  }
  EXPECT_EQ(complete({"bwlab", "topo", "--placement", "c"}), "compact");
  EXPECT_EQ(complete({"bwlab", "plot", "--kind", ""}), "threads size auto");
  EXPECT_EQ(complete({"bwlab", "plot", "--llc", "n"}), "none");
  EXPECT_EQ(complete({"bwlab", "plot", "--rows", "v"}), "victim");
  EXPECT_EQ(complete({"bwlab", "simulate", "--scenario", "m"}), "mix");
  EXPECT_EQ(complete({"bwlab", "simulate", "--machine", "skylake-x"}), "skylake-x-8270cl");
  EXPECT_EQ(complete({"bwlab", "plot", "--machine", "a"}), "auto");
  EXPECT_EQ(complete({"bwlab", "machine", "show", "icelake-x"}), "icelake-x-8358");
  EXPECT_EQ(complete({"bwlab", "machine", "spec", "--uarch", "cascadelake-"}), "cascadelake-sp");
  EXPECT_EQ(complete({"bwlab", "verdict", "--against-model", "broadwell"}), "broadwell-x-e5-2630v4");
  EXPECT_EQ(complete({"bwlab", "verdict", "--by", ""}), "cpu");
  EXPECT_EQ(complete({"bwlab", "verdict", "--placement", "sc"}), "scatter");
  EXPECT_EQ(complete({"bwlab", "verdict", "--membind", "inter"}), "interleave");
  EXPECT_EQ(complete({"bwlab", "calibrate", "--base", "lo"}), "local");
  EXPECT_EQ(complete({"bwlab", "run", "--json-format", "g"}), "gbench");
  for (const char* command : {"run", "simulate", "topo"})
    EXPECT_EQ(complete({"bwlab", command, "--topology", "loc"}), "local") << command;
  // A machine file: the directory's files are offered with the presets.
  const fs::path file = dir_.path() / "mymachine.json";
  std::ofstream(file) << "{}";
  EXPECT_EQ(complete({"bwlab", "simulate", "-m", (dir_.path() / "mym").string()}), file.string());
  // calibrate --base takes a machine file too (its own warnings say "then --base m.json").
  EXPECT_EQ(complete({"bwlab", "calibrate", "--base", (dir_.path() / "mym").string()}), file.string());
}

// --reps offers auto and common counts, --mix kernel:threads pairs in a comma list, and report
// only JSON files (it offered the directory's CSVs, which it refuses).
TEST_F(Completion, OffersRepsMixPairsAndJsonForReport) {
  EXPECT_EQ(complete({"bwlab", "run", "--reps", "a"}), "auto");
  EXPECT_EQ(complete({"bwlab", "run", "--scenario", "mix", "--mix", "sto"}), "stosb:1 stosq:1");
  EXPECT_EQ(complete({"bwlab", "run", "--mix", "stosb:1,avx512-n"}), "stosb:1,avx512-nt:1");
  std::ofstream(dir_.path() / "run.json") << "{}";
  std::ofstream(dir_.path() / "run.csv") << "x";
  fs::create_directory(dir_.path() / "runs");
  const std::string prefix = (dir_.path() / "ru").string();
  std::string offered = complete({"bwlab", "report", prefix});
  EXPECT_NE(offered.find((dir_.path() / "run.json").string()), std::string::npos) << offered;
  EXPECT_NE(offered.find((dir_.path() / "runs").string()), std::string::npos) << offered;
  EXPECT_EQ(offered.find("run.csv"), std::string::npos) << offered;
}

// --option=value: bash splits the word at '=' ("--scenario" "=" "vi"); it offered file names
// ("--scenario=vic." in a directory holding vic.csv) and no kernel names.
TEST_F(Completion, OffersValuesAfterAnEqualsSign) {
  EXPECT_EQ(complete({"bwlab", "run", "--scenario", "=", "vi"}), "victim");
  EXPECT_EQ(complete({"bwlab", "run", "--kernels", "=", "st"}), "stosb stosq");
  EXPECT_EQ(complete({"bwlab", "plot", "--kind", "="}), "threads size auto");
  EXPECT_EQ(complete({"bwlab", "import", "--cpu", "=", "x", "pm"}), "pmbw");  // the value is no positional
}

// A command that takes no file (list, machine uarchs, run) offered the directory's files.
TEST_F(Completion, OffersNoFilesWhereACommandTakesNone) {
  std::ofstream(dir_.path() / "results.csv") << "x";
  const std::string prefix = (dir_.path() / "res").string();
  for (const std::vector<std::string>& words : std::vector<std::vector<std::string>>{
           {"bwlab", "list", prefix}, {"bwlab", "machine", "uarchs", prefix}, {"bwlab", "run", "--quiet", prefix}})
    EXPECT_EQ(complete(words), "") << words[1];
  EXPECT_EQ(complete({"bwlab", "verdict", prefix}), prefix + "ults.csv");
  EXPECT_EQ(complete({"bwlab", "completion", ""}), "bash");  // it offered the command list
}

TEST(CompletionCommand, RefusesAShellOtherThanBash) {
  expect_refused(run_cli({"completion", "zsh"}), "only bash");
}

TEST(CompletionCommand, IsNotListedInTheHelp) {
  const CliResult help = run_cli({"--help"});
  ASSERT_EQ(help.exit_code, 0) << help.describe();
  EXPECT_EQ(help.out.find("completion"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace bwlab::clitest
