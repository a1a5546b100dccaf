// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/report/atomic_file.hpp"

namespace bwlab {
namespace {

namespace fs = std::filesystem;

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("bwlab_report_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  fs::path dir_;
};

TEST_F(AtomicFile, WritesAndLeavesNoTemp) {
  const fs::path target = dir_ / "a" / "out.csv";
  fs::create_directories(target.parent_path());
  write_file_atomically(target, "hello\n");
  EXPECT_EQ(slurp(target), "hello\n");
  write_file_atomically(target, "replaced\n");
  EXPECT_EQ(slurp(target), "replaced\n");
  int entries = 0;
  for (const auto& e : fs::directory_iterator(target.parent_path())) {
    ++entries;
    EXPECT_EQ(e.path().filename(), "out.csv");
  }
  EXPECT_EQ(entries, 1);
}

// A file rewritten keeps its mode, as `>` keeps it: a private 600 result became 644.
TEST_F(AtomicFile, ARewrittenFileKeepsItsMode) {
  const fs::path target = dir_ / "private.csv";
  write_file_atomically(target, "first\n");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
  write_file_atomically(target, "second\n");
  EXPECT_EQ(slurp(target), "second\n");
  EXPECT_EQ(fs::status(target).permissions(), fs::perms::owner_read | fs::perms::owner_write);
}

TEST_F(AtomicFile, ASymlinkStaysALinkAndItsTargetIsWritten) {
  fs::create_directories(dir_ / "real");
  const fs::path target = dir_ / "real" / "t.csv", link = dir_ / "link.csv";
  write_file_atomically(target, "old\n");
  fs::create_symlink(target, link);
  check_writable(link);
  write_file_atomically(link, "new\n");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_EQ(slurp(target), "new\n");
}

// A link whose target does not exist yet (results/latest.csv -> runs/today.csv, relative, through a
// second link): the target is created and the links stay links; the first link was replaced by a file.
TEST_F(AtomicFile, ADanglingSymlinkChainCreatesItsTarget) {
  fs::create_directories(dir_ / "runs");
  const fs::path link = dir_ / "latest.csv", hop = dir_ / "runs" / "hop.csv", target = dir_ / "runs" / "today.csv";
  fs::create_symlink("runs/hop.csv", link);
  fs::create_symlink("today.csv", hop);
  check_writable(link);
  write_file_atomically(link, "new\n");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(hop)));
  ASSERT_TRUE(fs::is_regular_file(fs::symlink_status(target)));
  EXPECT_EQ(slurp(target), "new\n");
  EXPECT_EQ(slurp(link), "new\n");
}

TEST_F(AtomicFile, DevicesAndFifosAreRefusedNotReplaced) {
  // A rename over /dev/full turned the device node into a CSV file (found by a newcomer, as root).
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const fs::path& p : {fs::path("/dev/null"), fifo}) {  // checking writes nothing
    try {
      check_writable(p);
      ADD_FAILURE() << p << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
  }
  // Writing is tried on the FIFO only: without the fix a write would replace the node it names.
  EXPECT_THROW(write_file_atomically(fifo, "x\n"), std::runtime_error);
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(AtomicFile, ANameThatIsOnlyAnExtensionIsRefused) {
  // `report --out .html` wrote a hidden file ".html" (and was told to "use a .html file name").
  for (const fs::path& p : {fs::path(".csv"), dir_ / ".HTML", dir_ / ".png", dir_ / "..png"}) {
    try {
      check_writable(p);
      ADD_FAILURE() << p << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("is only an extension"), std::string::npos) << e.what();
      const std::string file = p.filename().string();  // "..png": results.png
      const std::string said = e.what(), suggested = "/results" + file.substr(file.find_last_of('.'));
      EXPECT_TRUE(said.size() > suggested.size() && said.ends_with(suggested.substr(p.has_parent_path() ? 0 : 1)))
          << said;
    }
  }
  // A hidden file with a name of its own is the user's choice; so is a dot-name bwlab does not write.
  for (const fs::path& p : {dir_ / ".session.json", dir_ / ".bwlab"}) EXPECT_NO_THROW(check_writable(p)) << p;
}

TEST_F(AtomicFile, OwnDescriptorLinksAreRefused) {
  // `--csv /dev/stdout > res.csv` renamed the first point's file over res.csv: the shell's
  // descriptor kept the deleted file, and the run's later points went to "res.csv (deleted)".
  const fs::path out = dir_ / "res.csv";
  const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  const fs::path self = "/proc/self/fd/" + std::to_string(fd), dev = "/dev/fd/" + std::to_string(fd);
  for (const fs::path& p : {self, dev}) {
    try {
      check_writable(p);
      ADD_FAILURE() << p << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("one of bwlab's open files"), std::string::npos) << e.what();
    }
    EXPECT_THROW(write_file_atomically(p, "x\n"), std::runtime_error) << p;
  }
  ::close(fd);
  EXPECT_EQ(fs::file_size(out), 0u);  // the file behind the descriptor is untouched
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 1u);  // and no other file appeared beside it
}

TEST_F(AtomicFile, TheFileStandardOutputGoesToIsRefused) {
  // `--json res.json > res.json`: the table went to the replaced file's descriptor, lost, exit 0.
  const fs::path out = dir_ / "res.json", other = dir_ / "other.json";
  const int saved = ::dup(1);
  ASSERT_GE(saved, 0);
  const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::dup2(fd, 1), 1);
  std::string message;
  try {
    check_writable(out);
  } catch (const InputError& e) {
    message = e.what();
  }
  bool other_ok = true;
  try {
    check_writable(other);
  } catch (const InputError&) {
    other_ok = false;
  }
  ::dup2(saved, 1);
  ::close(saved);
  ::close(fd);
  EXPECT_NE(message.find("it is bwlab's standard output too"), std::string::npos) << message;
  EXPECT_TRUE(other_ok);  // another file in the same folder is fine
}

TEST_F(AtomicFile, AnOutputThatIsAnInputIsRefused) {
  const fs::path in = dir_ / "run.json", hard = dir_ / "hard.json";
  write_file_atomically(in, "{}\n");
  fs::create_hard_link(in, hard);
  EXPECT_NO_THROW(check_not_an_input({"--out", (dir_ / "other.json").string()}, {in.string()}));
  for (const fs::path& out : {in, dir_ / "." / "run.json", hard})
    EXPECT_THROW(check_not_an_input({"--out", out.string()}, {in.string()}), InputError) << out;
}

TEST_F(AtomicFile, FailureNamesPathAndLeavesNoTemp) {
  const fs::path target = dir_ / "out.csv";
  fs::create_directories(target);  // a directory where the file should go
  try {
    write_file_atomically(target, "x");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write " + target.string()), std::string::npos)
        << e.what();
  }
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 1);  // only the directory
}

TEST_F(AtomicFile, ParentIsAFile) {
  EXPECT_THROW(write_file_atomically("/etc/hostname/x.csv", "x"), std::runtime_error);
}

// `--csv -` wrote a file named "-" (inputs read '-' as standard input): refused, naming what to do.
TEST_F(AtomicFile, CheckWritableRefusesDash) {
  try {
    check_writable("-");
    ADD_FAILURE() << "'-' accepted as an output";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "cannot write -: bwlab writes its outputs to files, not to standard output; name a file");
  }
  EXPECT_NO_THROW(check_writable(dir_ / "-"));  // a path that merely ends in a file named '-' is a file
}

TEST_F(AtomicFile, CheckWritableAcceptsNewAndExistingFiles) {
  EXPECT_NO_THROW(check_writable(dir_ / "new.csv"));
  write_file_atomically(dir_ / "old.csv", "x");
  EXPECT_NO_THROW(check_writable(dir_ / "old.csv"));
}

// A file its user may not write (chmod 444) was replaced by the rename and came back writable. It
// is refused and kept. Root may write it (as `>` may), so as root the check runs in a child that
// drops to nobody (uid 65534) in a folder open to it.
TEST_F(AtomicFile, ReadOnlyFileIsRefusedAndKept) {
  const fs::path ro = dir_ / "ro.csv";
  write_file_atomically(ro, "keep\n");
  fs::permissions(ro, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::permissions(dir_, fs::perms::all);
  const auto check = [&]() -> std::string {
    try {
      check_writable(ro);
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  if (::geteuid() != 0) {
    EXPECT_EQ(check(), "cannot write " + ro.string() + ": Permission denied (the file is not writable; it is kept)");
  } else {
    EXPECT_NO_THROW(check_writable(ro));  // root: as a shell's `>`
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
      ::_exit(check() == "cannot write " + ro.string() + ": Permission denied (the file is not writable; it is kept)"
                  ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "as nobody: 1 = accepted or another message, 3 = could not drop to nobody";
  }
  EXPECT_EQ(slurp(ro), "keep\n");
}

// A typo in a folder name must not create the folder: the parent has to exist, and is named.
TEST_F(AtomicFile, MissingParentIsRefusedAndNotCreated) {
  const fs::path target = dir_ / "not" / "yet" / "there.csv";
  try {
    check_writable(target);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot write " + target.string() + ": no such directory " + (dir_ / "not" / "yet").string());
  }
  try {
    write_file_atomically(target, "x");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot write " + target.string() + ": no such directory " + (dir_ / "not" / "yet").string());
  }
  EXPECT_FALSE(fs::exists(dir_ / "not"));  // nothing created
}

TEST_F(AtomicFile, CheckWritableRejectsDirectory) {
  try {
    check_writable(dir_);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + dir_.string() + ": Is a directory");
  }
}

TEST_F(AtomicFile, CheckWritableRejectsPathUnderAFile) {
  try {
    check_writable("/etc/hostname/x.csv");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write /etc/hostname/x.csv: Not a directory");
  }
  write_file_atomically(dir_ / "file", "x");
  EXPECT_THROW(check_writable(dir_ / "file" / "deeper" / "x.csv"), InputError);
}

// /proc lets nobody, root included, create a file or a directory: the permission bits would say
// yes for root, so only a real probe catches it (the bug: the sweep ran, then the write failed).
TEST_F(AtomicFile, CheckWritableProbesForRealUnderProc) {
  const auto message = [](const fs::path& p) {
    try {
      check_writable(p);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("/proc/x.csv"),
            "cannot write /proc/x.csv: the folder /proc takes no new files (a virtual filesystem such as /proc or /sys)");
  EXPECT_EQ(message("/proc/missing/dir/x.csv"), "cannot write /proc/missing/dir/x.csv: no such directory /proc/missing/dir");
}

TEST_F(AtomicFile, CheckWritableLeavesNoProbeBehind) {
  check_writable(dir_ / "new.csv");
  EXPECT_THROW(check_writable(dir_ / "missing" / "dir" / "new.csv"), InputError);
  EXPECT_TRUE(fs::is_empty(dir_));
}

// As root (this machine's test runs) a read-only directory is writable, so this skips there.
TEST_F(AtomicFile, CheckWritableRejectsReadOnlyDirUnlessRoot) {
  if (::geteuid() == 0) GTEST_SKIP() << "root can write anywhere";
  const fs::path ro = dir_ / "ro";
  fs::create_directories(ro);
  fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_THROW(check_writable(ro / "x.csv"), InputError);
  fs::permissions(ro, fs::perms::owner_all);
}

}  // namespace
}  // namespace bwlab
