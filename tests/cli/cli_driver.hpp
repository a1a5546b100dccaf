// SPDX-License-Identifier: MIT
// A small driver for the CLI tests: runs the built `bwlab` (path in $BWLAB_BIN) with
// arguments, stdout and stderr captured separately, and reports the exit code.
#pragma once
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace bwlab::clitest {

namespace fs = std::filesystem;

// Path of the bwlab executable under test; empty when BWLAB_BIN is not set.
inline std::string bwlab_bin() {
  const char* p = std::getenv("BWLAB_BIN");
  return p ? std::string(p) : std::string();
}

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "bwlab-cli-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct CliResult {
  int exit_code = -1;    // WEXITSTATUS, or 128 + signal when killed by a signal
  int term_signal = 0;   // the signal that killed it, 0 if it exited
  bool timed_out = false;
  std::string out, err;

  // For failure messages.
  std::string describe() const {
    auto cut = [](const std::string& s) { return s.size() > 4000 ? s.substr(0, 4000) + "\n[...]" : s; };
    std::string d = "exit " + std::to_string(exit_code);
    if (term_signal) d += " (killed by signal " + std::to_string(term_signal) + ")";
    if (timed_out) d += " (timed out)";
    return d + "\n--- stdout ---\n" + cut(out) + "--- stderr ---\n" + cut(err) + "--------------";
  }
};

// Bad input: exit 2, one "bwlab: error:" line naming `what`, nothing on stdout.
inline void expect_refused(const CliResult& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_TRUE(r.out.empty()) << r.describe();
  EXPECT_EQ(r.err.rfind("bwlab: error: ", 0), 0u) << r.describe();
  EXPECT_NE(r.err.find(what), std::string::npos) << "expected '" << what << "'\n" << r.describe();
}

// One bwlab process: started by the constructor (fork/exec, stdin from /dev/null, stdout and
// stderr to files), so a test can signal it while it runs.
class CliProcess {
 public:
  explicit CliProcess(const std::vector<std::string>& args) {
    const std::string bin = bwlab_bin();
    if (bin.empty()) throw std::runtime_error("BWLAB_BIN is not set (ctest sets it; by hand: export BWLAB_BIN=.../bwlab)");
    const std::string out_path = (io_.path() / "stdout").string();
    const std::string err_path = (io_.path() / "stderr").string();
    std::vector<std::string> argv_s;
    argv_s.push_back(bin);
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);

    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {  // child: async-signal-safe calls only
      const int in = ::open("/dev/null", O_RDONLY);
      const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (in < 0 || out < 0 || err < 0) ::_exit(126);
      ::dup2(in, STDIN_FILENO);
      ::dup2(out, STDOUT_FILENO);
      ::dup2(err, STDERR_FILENO);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    started_ = std::chrono::steady_clock::now();
  }
  ~CliProcess() {
    if (!reaped_ && pid_ > 0) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }
  CliProcess(const CliProcess&) = delete;
  CliProcess& operator=(const CliProcess&) = delete;

  pid_t pid() const { return pid_; }
  std::chrono::steady_clock::duration age() const { return std::chrono::steady_clock::now() - started_; }
  bool send(int sig) const { return !reaped_ && ::kill(pid_, sig) == 0; }
  // What the process has written to stderr so far (it may still be writing).
  std::string err_so_far() const { return read_text(io_.path() / "stderr"); }

  // True once the process has ended (reaps it).
  bool poll() {
    if (reaped_) return true;
    const pid_t r = ::waitpid(pid_, &status_, WNOHANG);
    if (r == pid_) reaped_ = true;
    return reaped_;
  }

  // Waits up to `timeout`; a process still running then is killed (SIGKILL) and timed_out set.
  CliResult wait(std::chrono::milliseconds timeout) {
    CliResult r;
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (!poll()) {
      if (std::chrono::steady_clock::now() >= until) {
        r.timed_out = true;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status_, 0);
        reaped_ = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (WIFEXITED(status_)) {
      r.exit_code = WEXITSTATUS(status_);
    } else if (WIFSIGNALED(status_)) {
      r.term_signal = WTERMSIG(status_);
      r.exit_code = 128 + r.term_signal;
    }
    r.out = read_text(io_.path() / "stdout");
    r.err = read_text(io_.path() / "stderr");
    return r;
  }

 private:
  TempDir io_;
  pid_t pid_ = -1;
  int status_ = 0;
  bool reaped_ = false;
  std::chrono::steady_clock::time_point started_;
};

inline CliResult run_cli(const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout = std::chrono::milliseconds(60000)) {  // hang guard
  CliProcess p(args);
  return p.wait(timeout);
}

}  // namespace bwlab::clitest
