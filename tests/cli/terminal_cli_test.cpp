// SPDX-License-Identifier: MIT
// Terminal manners from the outside: piped stdout is the wide table whatever COLUMNS and
// NO_COLOR say (scripts keep parsing it), with no colour escapes.
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

}  // namespace
}  // namespace bwlab::clitest
