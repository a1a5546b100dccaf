// SPDX-License-Identifier: MIT
#include "headless/output_file.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

namespace bwlab::cli {

OutputFile OutputFile::of(const std::string& path) {
  if (path.empty()) return {};
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec) || fs::file_size(path, ec) == 0 || ec) return {path, path, path};
  // A symlink's file is replaced, not the link (as write_file_atomically writes through it); the
  // .partial file sits beside that file, so the final rename stays on one filesystem.
  fs::path real(path);
  if (fs::is_symlink(fs::symlink_status(path, ec)))
    if (fs::path resolved = fs::weakly_canonical(path, ec); !ec) real = resolved;
  fs::path p = real;
  p.replace_extension(".partial" + real.extension().string());
  return {path, p.string(), real.string()};
}

void OutputFile::finish() const {
  if (!deferred()) return;
  std::error_code ec;
  // The finished run's file takes the earlier one's mode too (a 600 baseline became 644).
  if (const auto mode = std::filesystem::status(real, ec).permissions(); !ec)
    std::filesystem::permissions(progress, mode, std::filesystem::perm_options::replace, ec);
  ec.clear();
  std::filesystem::rename(progress, real, ec);
  if (ec)
    throw std::runtime_error(fmt::format("cannot replace {} with the finished run's {}: {}", target, progress, ec.message()));
}

std::vector<std::string> existing_files(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const std::string& p : paths)
    if (!p.empty() && std::filesystem::exists(p, ec)) out.push_back(p);
  return out;
}

}  // namespace bwlab::cli
