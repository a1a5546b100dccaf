// SPDX-License-Identifier: MIT
// A small driver for the CLI tests: runs the built `bwlab` (path in $BWLAB_BIN) with
// arguments, stdout and stderr captured separately, and reports the exit code.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/report/csv.hpp"
#include "tests/support/child_process.hpp"

namespace bwlab::clitest {

namespace fs = std::filesystem;

// Path of the bwlab executable under test; empty when BWLAB_BIN is not set.
inline std::string bwlab_bin() {
  const char* p = std::getenv("BWLAB_BIN");
  return p ? std::string(p) : std::string();
}

using testsupport::read_text;
using testsupport::split_lines;
using testsupport::TempDir;
using CliResult = testsupport::ChildResult;

// The points of a CSV that bwlab wrote.
inline std::vector<Point> read_csv_file(const fs::path& p) {
  std::ifstream in(p);
  return read_csv(in);
}

// Bad input: exit 2, one "bwlab: error:" line naming `what`, nothing on stdout.
inline void expect_refused(const CliResult& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_TRUE(r.out.empty()) << r.describe();
  EXPECT_EQ(r.err.rfind("bwlab: error: ", 0), 0u) << r.describe();
  EXPECT_NE(r.err.find(what), std::string::npos) << "expected '" << what << "'\n" << r.describe();
}

// `run` or `simulate` with --kernels all --fill 0xff --csv `csv`: done, the note on stderr (beside
// simulate's note on the kernels the machine lacks), clzero (zero-only) left out of the points,
// stosb kept.
inline void expect_clzero_left_out(const CliResult& r, const fs::path& csv) {
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  ASSERT_FALSE(r.err.empty()) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "note: --kernels all leaves clzero out of this run: it writes only zeros, and every kernel runs "
                      "every fill (0xff); measure it with --fill zero"),
            lines.end())
      << r.describe();
  std::ifstream in(csv);
  const std::vector<Point> points = read_csv(in);
  EXPECT_EQ(std::count_if(points.begin(), points.end(), [](const Point& p) { return p.kernel == "clzero"; }), 0);
  EXPECT_TRUE(std::any_of(points.begin(), points.end(), [](const Point& p) { return p.kernel == "stosb"; }));
}

// One bwlab process ($BWLAB_BIN), as testsupport::ChildProcess runs it.
class CliProcess : public testsupport::ChildProcess {
 public:
  explicit CliProcess(const std::vector<std::string>& args, std::uint64_t max_file_bytes = 0)
      : ChildProcess(checked_bin(), args, {}, max_file_bytes) {}

 private:
  static std::string checked_bin() {
    const std::string bin = bwlab_bin();
    if (bin.empty()) throw std::runtime_error("BWLAB_BIN is not set (ctest sets it; by hand: export BWLAB_BIN=.../bwlab)");
    return bin;
  }
};

inline CliResult run_cli(const std::vector<std::string>& args,
                         // Hang guard, not a timing: `simulate --validate` of the seeds refits every preset and
                         // took 46-58 s under ASan on a 2-vCPU machine, and once ran past a 60 s guard.
                         std::chrono::milliseconds timeout = std::chrono::milliseconds(240000)) {
  CliProcess p(args);
  return p.wait(timeout);
}

// bwlab as on a nearly full disk: no file it writes may grow past `max_file_bytes` (EFBIG).
inline CliResult run_cli_with_file_limit(const std::vector<std::string>& args, std::uint64_t max_file_bytes) {
  CliProcess p(args, max_file_bytes);
  return p.wait(std::chrono::milliseconds(60000));  // hang guard
}

}  // namespace bwlab::clitest
