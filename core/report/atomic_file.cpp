// SPDX-License-Identifier: MIT
#include "core/report/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/sweep/suggest.hpp"

namespace bwlab {

namespace fs = std::filesystem;

namespace {

// ".csv", ".HTML", "..png": a file name that is nothing but dots and one of the extensions
// bwlab's outputs take.
bool only_an_extension(const std::string& file) {
  const std::size_t dots = file.find_first_not_of('.');
  if (dots == 0 || dots == std::string::npos) return false;
  std::string ext = file.substr(dots);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* known : {"csv", "json", "html", "htm", "png", "svg", "pdf", "xml", "txt"})
    if (ext == known) return true;
  return false;
}

[[noreturn]] void fail(const fs::path& path, const std::string& reason) {
  throw std::runtime_error("cannot write " + path.string() + ": " + reason);
}

bool write_all(int fd, std::string_view content) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

// /proc or /sys (procfs, sysfs): no file of ours can be created there.
bool virtual_filesystem(const fs::path& dir) {
  struct statfs fs {};
  constexpr long kProc = 0x9fa0, kSys = 0x62656572;  // PROC_SUPER_MAGIC, SYSFS_MAGIC (linux/magic.h)
  return ::statfs(dir.c_str(), &fs) == 0 && (static_cast<long>(fs.f_type) == kProc || static_cast<long>(fs.f_type) == kSys);
}

// Whether `path`'s chain of symlinks passes through a link of /proc (/dev/stdout is
// /proc/self/fd/1, /dev/fd/3 is /proc/self/fd/3): one of bwlab's own open files. `--csv
// /dev/stdout > res.csv` renamed the first point's file over res.csv; the shell's descriptor kept
// the old, deleted file, the link then read "res.csv (deleted)" and the whole run went to a file
// of that name, while res.csv held one point and the exit code was 0.
bool through_descriptor(const fs::path& path) {
  std::error_code ec;
  fs::path at = path;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(at, ec)); ++hops) {
    const fs::path dir = at.parent_path().empty() ? fs::path(".") : at.parent_path();
    if (virtual_filesystem(dir)) return true;
    const fs::path next = fs::read_symlink(at, ec);
    if (ec) return false;
    at = next.is_absolute() ? next : at.parent_path() / next;
  }
  return false;
}

// Where an output really goes: a symlink's target (its chain resolved), so the rename replaces
// the target's contents and the link stays a link; else `path` itself. Empty when `path` names an
// existing file that is not a regular one (a device such as /dev/full, a FIFO, a socket): a rename
// would replace that node with a regular file, and bwlab rewrites its outputs whole after every
// point, which a pipe or terminal would receive again and again.
fs::path output_target(const fs::path& path) {
  if (through_descriptor(path)) return {};
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);  // follows symlinks
  if (!ec && fs::exists(st) && !fs::is_regular_file(st)) return {};
  // The chain is followed link by link: weakly_canonical stops at a dangling link (one whose target
  // does not exist yet) and returned the link itself, which the rename then replaced with a file.
  fs::path at = path;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(at, ec)); ++hops) {
    const fs::path next = fs::read_symlink(at, ec);
    if (ec) return path;
    at = next.is_absolute() ? next : at.parent_path() / next;
  }
  if (at == path) return path;
  const fs::path target = fs::weakly_canonical(at, ec);
  return ec ? path : target;
}

}  // namespace

void write_file_atomically(const fs::path& requested, std::string_view content) {
  if (requested.empty()) throw std::runtime_error("cannot write an empty path");
  const fs::path path = output_target(requested);
  if (path.empty()) fail(requested, "not a regular file (outputs are files, written whole: a run's after every point)");
  const fs::path parent = path.parent_path();
  std::error_code ec;
  if (!parent.empty() && !fs::is_directory(parent, ec)) fail(path, "no such directory " + parent.string());
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());

  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail(path, std::strerror(errno));
  // The file it replaces keeps its mode, as `>` in a shell keeps it (a private 600 result became
  // 644, readable by all, and a 444 one writable).
  struct stat before{};
  bool ok = true;
  if (::stat(path.c_str(), &before) == 0 && S_ISREG(before.st_mode)) ok = ::fchmod(fd, before.st_mode & 07777) == 0;
  ok = ok && write_all(fd, content) && ::fsync(fd) == 0;
  int err = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    fail(path, std::strerror(err));
  }
  // Make the rename itself durable; failure here does not lose the file, so it is ignored.
  const fs::path dir = parent.empty() ? fs::path(".") : parent;
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

void check_writable(const fs::path& path) {
  const std::string name = path.string();
  if (path.empty()) throw InputError("empty output path");
  // `--csv -` wrote a file named "-" in the current folder (inputs read '-' as standard input).
  if (name == "-")
    throw InputError("cannot write -: bwlab writes its outputs to files, not to standard output; name a file");
  // `--out .html` (the name forgotten) wrote a hidden file named ".html" that `ls` does not show;
  // the report said "use a .html file name" to a name that was one.
  if (const std::string file = path.filename().string(); only_an_extension(file))
    throw InputError(fmt::format("cannot write {}: '{}' is only an extension (it would be a hidden file that ls does "
                                 "not show); name the file before it, e.g. {}",
                                 name, file, (path.parent_path() / ("results" + file.substr(file.find_last_of('.')))).string()));
  const auto refuse = [&](int err) { throw InputError("cannot write " + name + ": " + std::strerror(err)); };
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec && st.type() != fs::file_type::not_found) throw InputError("cannot write " + name + ": " + ec.message());
  if (st.type() == fs::file_type::directory) refuse(EISDIR);
  if (through_descriptor(path))
    throw InputError("cannot write " + name + ": it is one of bwlab's open files (a /proc/self/fd link such as /dev/stdout); "
                     "outputs are files written whole (a run's after every point), through a new file renamed over "
                     "them: name a file instead");
  // `--json res.json > res.json`: the shell's descriptor kept the file the rename replaced, and
  // the table went to it, lost, with exit 0.
  struct stat target_st{};
  if (::stat(path.c_str(), &target_st) == 0 && S_ISREG(target_st.st_mode))
    for (const auto& [fd, stream] : {std::pair{1, "standard output"}, std::pair{2, "standard error"}}) {
      struct stat fd_st{};
      if (::fstat(fd, &fd_st) == 0 && fd_st.st_dev == target_st.st_dev && fd_st.st_ino == target_st.st_ino)
        throw InputError("cannot write " + name + ": it is bwlab's " + stream + " too (redirected to it); the file is " +
                         "replaced whole, so what is printed would be lost: name another file");
    }
  if (output_target(path).empty())
    throw InputError("cannot write " + name + ": not a regular file (outputs are files, written whole: a run's after "
                     "every point; a device, FIFO or socket would be replaced or fed the file again and again)");
  // write_file_atomically creates a temporary file in the parent and renames it over `path`; it
  // creates no directory, so the parent must be there. Probe it for real (permission bits say
  // nothing for root, /proc or a read-only mount) and remove the probe; nothing is left behind.
  const fs::path target = output_target(path);  // a symlink's target's folder gets the file
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const fs::file_status ds = fs::status(dir, ec);
  if (ec && ds.type() != fs::file_type::not_found) throw InputError("cannot write " + name + ": " + ec.message());
  if (!fs::exists(ds)) throw InputError("cannot write " + name + ": no such directory " + dir.string());
  if (ds.type() != fs::file_type::directory) refuse(ENOTDIR);
  // An existing file the user may not write (chmod 444) is not replaced behind their back: the
  // rename would succeed in a writable folder. As `>` in a shell: root may, a read-only mount may not.
  if (fs::exists(st) && ::access(target.c_str(), W_OK) != 0)
    throw InputError("cannot write " + name + ": " + std::strerror(errno) + " (the file is not writable; it is kept)");
  const fs::path probe = dir / (".bwlab-probe." + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  // ENOENT from a folder that exists: /proc and /sys answer so to any new name; strerror's
  // "No such file or directory" would send the user looking for a missing folder.
  // sysfs answers EACCES, even to root: "Permission denied" read as a chmod away.
  if (fd < 0 && (errno == ENOENT || ((errno == EACCES || errno == EPERM) && virtual_filesystem(dir))))
    throw InputError("cannot write " + name + ": the folder " + dir.string() +
                     " takes no new files (a virtual filesystem such as /proc or /sys)");
  if (fd < 0) refuse(errno);
  ::close(fd);
  ::unlink(probe.c_str());
}

namespace {

// Two paths name one file: the same after symlinks and ".." are resolved, or one inode (a hard link).
bool same_file(const std::string& a, const std::string& b) {
  const auto resolved = [](const std::string& p) {
    std::error_code ec;
    fs::path r = fs::weakly_canonical(fs::absolute(p), ec);
    return ec ? fs::absolute(p).lexically_normal() : r;
  };
  std::error_code ec;
  return resolved(a) == resolved(b) || fs::equivalent(a, b, ec);
}

}  // namespace

void check_not_an_input(const OutputPath& output, const std::vector<std::string>& inputs) {
  if (output.path.empty()) return;
  for (const std::string& in : inputs)
    if (!in.empty() && same_file(output.path, in))
      throw InputError(output.option + " " + output.path + " is also an input of this command: writing it would "
                       "destroy " + in + "; write elsewhere");
}

namespace {
// Whether `path` ends in the other format's suffix (.csv for JSON, .json for CSV; any case): every
// reader goes by the suffix.
bool named_as_the_other(const std::string& path, FileFormat format) {
  return lower_case(fs::path(path).extension().string()) == (format == FileFormat::json ? ".csv" : ".json");
}
}  // namespace

void check_output_suffixes(const std::vector<OutputPath>& outputs) {
  for (const OutputPath& o : outputs) {
    if (o.option == "--csv" && named_as_the_other(o.path, FileFormat::csv))
      throw InputError("--csv " + o.path + ": a CSV under a .json name would be refused by every reader as not JSON; "
                       "did you mean --json " + o.path + "?");
    if (o.option == "--json" && named_as_the_other(o.path, FileFormat::json))
      throw InputError("--json " + o.path + ": JSON under a .csv name would be read as a CSV; did you mean --csv " +
                       o.path + "?");
  }
}

void check_output_format(const OutputPath& output, FileFormat format, std::string_view what) {
  if (!named_as_the_other(output.path, format)) return;
  const fs::path path(output.path);
  const bool json = format == FileFormat::json;
  throw InputError(fmt::format("{}{}: {} is {}, but every reader reads a {} file as {}; name it {}",
                               output.option.empty() ? "" : output.option + " ", output.path, what,
                               json ? "JSON" : "CSV", lower_case(path.extension().string()), json ? "CSV" : "JSON",
                               fs::path(path).replace_extension(json ? ".json" : ".csv").string()));
}

void check_distinct_outputs(const std::vector<OutputPath>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (!outputs[i].path.empty() && !outputs[j].path.empty() && same_file(outputs[i].path, outputs[j].path))
        throw InputError(outputs[i].option + " and " + outputs[j].option + " name the same file " + outputs[j].path +
                         ": give each its own");
}

}  // namespace bwlab
