// SPDX-License-Identifier: MIT
// Terminal manners from the outside: piped stdout is the wide table whatever COLUMNS and
// NO_COLOR say (scripts keep parsing it), with no colour escapes.
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_driver.hpp"

namespace bwlab::clitest {
namespace {

// Sets an environment variable for the child processes started in one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) ::setenv(name_, old_.c_str(), 1);
    else ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

TEST(TerminalCli, PipedTableIgnoresColumnsAndHasNoColour) {
  // Three kernels: the wide table is over 100 columns, so a terminal of 40 would get the compact one.
  const std::vector<std::string> args{"simulate", "--machine", "skylake-x-8270cl", "--kernels",
                                      "stosb,movnti,avx512-nt", "--sizes", "16M,1G", "--threads", "1,26"};
  const CliResult plain = run_cli(args);
  ASSERT_EQ(plain.exit_code, 0) << plain.describe();
  EXPECT_EQ(plain.out.find('\033'), std::string::npos);
  std::size_t longest = 0;
  for (std::size_t pos = 0, nl; (nl = plain.out.find('\n', pos)) != std::string::npos; pos = nl + 1)
    longest = std::max(longest, nl - pos);
  EXPECT_GT(longest, 100u) << plain.out;  // the wide layout
  {
    ScopedEnv columns("COLUMNS", "40");
    ScopedEnv term("TERM", "xterm-256color");
    const CliResult narrow = run_cli(args);
    ASSERT_EQ(narrow.exit_code, 0) << narrow.describe();
    EXPECT_EQ(narrow.out, plain.out);
    EXPECT_EQ(narrow.err.find('\033'), std::string::npos) << narrow.err;
  }
  // Errors are plain too when stderr is not a terminal.
  const CliResult bad = run_cli({"simulate", "--machine", "no-such-machine"});
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_EQ(bad.err.rfind("bwlab: error: ", 0), 0u) << bad.err;
}

// `args` run by bwlab on a pseudo-terminal `columns` wide: what a user sees.
std::string on_terminal(const std::vector<std::string>& args, unsigned short columns) {
  winsize size{};
  size.ws_col = columns, size.ws_row = 50;
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, &size);
  if (pid == 0) {
    std::vector<char*> argv;
    std::string bin = bwlab_bin();
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  std::string out;
  if (pid < 0) return out;
  char buf[4096];
  for (ssize_t n; (n = ::read(master, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  return out;
}

// verdict's Recommendation and notes ran 200+ columns on an 80-column terminal: its prose wraps
// there, its table rows stay whole, and piped it is byte for byte what it was.
TEST(TerminalCli, VerdictProseWrapsOnATerminalOnly) {
  const std::vector<std::string> args{"verdict", "--machine", "skylake-x-8270cl", "--kernels", "stosb,movnti",
                                      "--sizes", "16M,1G", "--threads", "1,26"};
  const std::string seen = on_terminal(args, 80);
  ASSERT_NE(seen.find("Predicted recommendation: "), std::string::npos) << seen;
  bool table_row = false;
  for (std::size_t pos = 0, nl; (nl = seen.find('\n', pos)) != std::string::npos; pos = nl + 1) {
    std::string line = seen.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();  // the terminal's line ending
    const std::size_t tag = line.rfind("[prediction] ", 0) == 0 ? 13 : 0;
    if (line.find("  ", line.find_first_not_of(' ', tag)) != std::string::npos) {
      table_row = table_row || line.size() > 80;
      continue;
    }
    EXPECT_LE(line.size(), 80u) << line;
  }
  EXPECT_TRUE(table_row) << seen;  // the wide table kept whole
  const CliResult piped = run_cli(args);
  ASSERT_EQ(piped.exit_code, 0) << piped.describe();
  const std::size_t rec = piped.out.find("Predicted recommendation: ");
  ASSERT_NE(rec, std::string::npos);
  EXPECT_GT(piped.out.find('\n', rec) - rec, 80u) << piped.out;  // one line, as before
}

// The progress line at 60 columns was cut mid-figure ("... rep 1/3       elapsed 0"): the point's
// name gives way, the clock stays whole, the line fits; the warnings and point lines wrap.
TEST(TerminalCli, ProgressKeepsItsClockAndLinesWrapOnANarrowTerminal) {
  const std::string seen = on_terminal({"run", "--kernels", "stosb,movnti", "--sizes", "64K", "--threads", "1",
                                        "--reps", "2", "--duration", "1ms"},
                                       60);
  int progress = 0, said = 0;
  for (std::size_t pos = 0; pos < seen.size();) {
    std::size_t end = seen.find_first_of("\r\n", pos);
    if (end == std::string::npos) end = seen.size();
    std::string line = seen.substr(pos, end - pos);
    pos = end + 1;
    // Warnings and "point N:" lines wrap at the width too (they ran 150 columns).
    if (line.rfind("warning: ", 0) == 0 || line.rfind("point ", 0) == 0) {
      ++said;
      EXPECT_LE(line.size(), 60u) << line;
    }
    if (line.find(" elapsed ") == std::string::npos) continue;
    ++progress;
    while (!line.empty() && line.back() == ' ') line.pop_back();  // padded to the width
    EXPECT_LE(line.size(), 60u) << line;
    const std::size_t eta = line.rfind("  ETA ");
    ASSERT_NE(eta, std::string::npos) << line;
    const std::string clock = line.substr(eta + 6);  // "0:00": whole
    EXPECT_TRUE(clock.size() >= 4 && clock[clock.size() - 3] == ':') << line;
  }
  EXPECT_GT(progress, 0) << seen;
  EXPECT_GE(said, 2) << seen;  // a "point N:" line per kernel
}

// simulate's "simulated N points with machine ... on ..." ran ~150 columns on a terminal: it
// wraps there, and piped it stays one line.
TEST(TerminalCli, SimulateSummaryWrapsOnATerminalOnly) {
  const std::vector<std::string> args{"simulate", "--machine", "skylake-x-8270cl", "--kernels", "stosb",
                                      "--sizes", "16M", "--threads", "1"};
  const std::string seen = on_terminal(args, 60);
  const std::size_t at = seen.find("simulated 1 point with machine");
  ASSERT_NE(at, std::string::npos) << seen;
  const std::size_t end = seen.find('\n', at);
  ASSERT_NE(end, std::string::npos) << seen;
  EXPECT_LE(end - at, 61u) << seen;  // 60 columns and the terminal's '\r'
  const CliResult piped = run_cli(args);
  ASSERT_EQ(piped.exit_code, 0) << piped.describe();
  const std::size_t line = piped.err.find("simulated 1 point with machine");
  ASSERT_NE(line, std::string::npos) << piped.err;
  EXPECT_GT(piped.err.find('\n', line) - line, 60u) << piped.err;  // one line, as before
}

// `simulate --help` ran 300-column option lines on a terminal, folded back under the options'
// names. On a terminal each description wraps in its own column; piped (help2man, grep) every
// option is one line, as CLI11 prints it. The top help's command list wraps the same way.
TEST(TerminalCli, HelpDescriptionsWrapInTheirColumnOnATerminalOnly) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"simulate", "--help"},
                                               std::vector<std::string>{"--help"}}) {
    const std::string seen = on_terminal(args, 100);
    const std::size_t from = seen.find(args.size() == 2 ? "Options:" : "Subcommands:");
    ASSERT_NE(from, std::string::npos) << seen;
    const std::size_t to = seen.find("\r\n\r\n", from);  // the blank line after the list
    ASSERT_NE(to, std::string::npos) << seen;
    int continued = 0;
    for (std::size_t pos = from, nl; (nl = seen.find('\n', pos)) != std::string::npos && pos < to; pos = nl + 1) {
      std::string line = seen.substr(pos, nl - pos);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      EXPECT_LE(line.size(), 100u) << line;
      if (line.rfind(std::string(30, ' '), 0) == 0 && line[30] != ' ') ++continued;  // under the descriptions
    }
    EXPECT_GT(continued, 0) << seen;
  }
  const CliResult piped = run_cli({"simulate", "--help"});
  ASSERT_EQ(piped.exit_code, 0) << piped.describe();
  const std::size_t at = piped.out.find("  --validate TEXT");
  ASSERT_NE(at, std::string::npos) << piped.out;
  const std::size_t end = piped.out.find('\n', at);
  EXPECT_GT(end - at, 200u) << piped.out;  // one line
  EXPECT_NE(piped.out.substr(at, end - at).find("no sweep option or output"), std::string::npos) << piped.out;
}

}  // namespace
}  // namespace bwlab::clitest
