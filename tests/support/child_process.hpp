// SPDX-License-Identifier: MIT
// Running an executable from a test: fork/exec with stdout and stderr captured to files, the
// exit code or signal, a hang guard. No gtest, no Qt: the CLI tests (tests/cli/cli_driver.hpp)
// and the GUI's Qt tests share it.
#pragma once
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace bwlab::testsupport {

namespace fs = std::filesystem;

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

struct ChildResult {
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

// One process: started by the constructor (fork/exec, stdin from /dev/null, stdout and stderr
// to files), so a test can signal it while it runs. The environment is the test's, less the
// variables named in `unset`. With `max_file_bytes` > 0 the child may write files up to that size
// only (RLIMIT_FSIZE, SIGXFSZ ignored): writes beyond fail with EFBIG, as on a full disk, without
// touching a device. Plain fork + execve: the child only calls async-signal-safe
// functions, which ThreadSanitizer accepts in a multi-threaded parent (QProcess's vfork-style
// clone shares TSan's state with the parent and made it die at the next thread start).
class ChildProcess {
 public:
  ChildProcess(const std::string& bin, const std::vector<std::string>& args, const std::vector<std::string>& unset = {},
               std::uint64_t max_file_bytes = 0) {
    if (bin.empty()) throw std::runtime_error("ChildProcess: no executable given");
    const std::string out_path = (io_.path() / "stdout").string();
    const std::string err_path = (io_.path() / "stderr").string();
    std::vector<std::string> argv_s;
    argv_s.push_back(bin);
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_s;
    for (char** e = environ; *e; ++e) {
      const std::string kv = *e;
      const std::string name = kv.substr(0, kv.find('='));
      if (std::find(unset.begin(), unset.end(), name) == unset.end()) env_s.push_back(kv);
    }
    std::vector<char*> envp;
    for (auto& kv : env_s) envp.push_back(kv.data());
    envp.push_back(nullptr);

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
      if (max_file_bytes > 0) {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;  // stays ignored across execve
        const rlimit limit{static_cast<rlim_t>(max_file_bytes), static_cast<rlim_t>(max_file_bytes)};
        if (::sigaction(SIGXFSZ, &ignore, nullptr) != 0 || ::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(125);
      }
      ::execve(argv[0], argv.data(), envp.data());
      ::_exit(127);
    }
    started_ = std::chrono::steady_clock::now();
  }
  ~ChildProcess() {
    if (!reaped_ && pid_ > 0) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

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
  ChildResult wait(std::chrono::milliseconds timeout) {
    ChildResult r;
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

inline ChildResult run_child(const std::string& bin, const std::vector<std::string>& args,
                             std::chrono::milliseconds timeout = std::chrono::milliseconds(60000),  // hang guard
                             const std::vector<std::string>& unset = {}) {
  ChildProcess p(bin, args, unset);
  return p.wait(timeout);
}

}  // namespace bwlab::testsupport
