// SPDX-License-Identifier: MIT
#include "core/report/input_file.hpp"

#include <sys/stat.h>

#include <map>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "core/errors.hpp"

namespace bwlab {

void check_input_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path.string() + ": is a directory");
}

void check_listed_once(const std::vector<std::string>& files) {
  std::map<std::string, std::string> listed;  // the file (device and inode, else canonical path) -> as given
  for (const std::string& f : files) {
    std::error_code ec;
    std::string key = std::filesystem::weakly_canonical(f, ec).string();
    if (ec) key = f;
    // A hard link is the same file under another name: drawn twice, as "a.csv a.csv" was.
    if (struct stat st{}; ::stat(f.c_str(), &st) == 0) key = fmt::format("inode {}:{}", st.st_dev, st.st_ino);
    if (const auto [it, fresh] = listed.emplace(key, f); !fresh)
      throw InputError(it->second == f ? fmt::format("{} is listed twice: give each file once", f)
                                       : fmt::format("{} and {} are the same file: give each file once", it->second, f));
  }
}

std::string_view without_bom(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  return text.starts_with(kBom) ? text.substr(kBom.size()) : text;
}

}  // namespace bwlab
