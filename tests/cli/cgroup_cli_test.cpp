// SPDX-License-Identifier: MIT
// A real memory cgroup (v1 or v2, whichever this host lets root create) limited to 1.5 GiB: bwlab
// started inside it with 2 threads x 1 GiB refuses (exit 2, naming the cgroup limit) instead of
// being OOM-killed. Skips with the reason where not root or no memory controller is writable.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "tests/cli/cli_driver.hpp"

namespace bwlab::clitest {
namespace {

// This process's group under the mount for `controllers` ("memory" for v1, "" for v2).
std::string own_group(const std::string& controllers) {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string c = line.substr(a + 1, b - a - 1);
    if ((controllers.empty() && c.empty()) || (!controllers.empty() && ("," + c + ",").find("," + controllers + ",") != std::string::npos))
      return line.substr(b + 1);
  }
  return "";
}

// A child memory cgroup, removed (once empty) by the destructor.
struct ChildGroup {
  fs::path dir;
  std::string limit_file;
  std::string why_not;
  ~ChildGroup() {
    std::error_code ec;
    if (!dir.empty()) fs::remove(dir, ec);  // rmdir: the group's files are not removable
  }
};

bool write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

void make_group(ChildGroup& g, std::uint64_t limit) {
  const std::string name = "bwlab-test-" + std::to_string(::getpid());
  struct Candidate { std::string mount, controllers, limit_file; };
  const Candidate candidates[] = {{"/sys/fs/cgroup/memory", "memory", "memory.limit_in_bytes"},
                                  {"/sys/fs/cgroup", "", "memory.max"},
                                  {"/sys/fs/cgroup/unified", "", "memory.max"}};
  for (const auto& c : candidates) {
    if (!fs::exists(fs::path(c.mount) / "cgroup.procs")) continue;
    const std::string group = own_group(c.controllers);
    fs::path parent = fs::path(c.mount + group);
    if (!fs::is_directory(parent)) parent = c.mount;
    const fs::path dir = parent / name;
    std::error_code ec;
    if (!fs::create_directory(dir, ec)) continue;
    if (fs::exists(dir / c.limit_file) && write_file(dir / c.limit_file, std::to_string(limit))) {
      g.dir = dir;
      g.limit_file = c.limit_file;
      return;
    }
    fs::remove(dir, ec);
  }
  g.why_not = "no cgroup memory controller (v1 /sys/fs/cgroup/memory or v2 memory.max) accepts a child group here";
}

TEST(CgroupLimit, RunInsideAOneAndAHalfGiBGroupIsRefusedNotOomKilled) {
  const std::string bin = bwlab_bin();
  if (bin.empty()) GTEST_SKIP() << "BWLAB_BIN not set";
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to create a memory cgroup";
  ChildGroup g;
  make_group(g, 3ull << 29);  // 1.5 GiB
  if (g.dir.empty()) GTEST_SKIP() << g.why_not;

  TempDir tmp;
  const fs::path err_path = tmp.path() / "stderr.txt";
  const std::string procs = (g.dir / "cgroup.procs").string();
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // Into the group first, then bwlab: the whole process runs under the limit.
    const int fd = ::open(procs.c_str(), O_WRONLY);
    const std::string me = std::to_string(::getpid());
    if (fd < 0 || ::write(fd, me.data(), me.size()) != static_cast<ssize_t>(me.size())) ::_exit(120);
    ::close(fd);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0);
    ::dup2(null, 1);
    ::dup2(err, 2);
    ::execl(bin.c_str(), bin.c_str(), "run", "--kernels", "stosb", "--sizes", "1G", "--threads", "2",
            "--reps", "1", "--duration", "50ms", static_cast<char*>(nullptr));
    ::_exit(121);
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);  // hang guard
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      FAIL() << "bwlab did not finish in 60 s";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const std::string err = read_text(err_path);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0) << "\n" << err;
  ASSERT_NE(WEXITSTATUS(status), 120) << "could not join " << procs;
  EXPECT_EQ(WEXITSTATUS(status), 2) << err;
  EXPECT_NE(err.find(g.limit_file), std::string::npos) << err;
  EXPECT_NE(err.find(g.dir.string()), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), err.size() - 1) << "one line:\n" << err;
}

}  // namespace
}  // namespace bwlab::clitest
