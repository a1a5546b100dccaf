// SPDX-License-Identifier: MIT
#include "core/report/input_file.hpp"

#include <string>
#include <system_error>

#include "core/errors.hpp"

namespace bwlab {

void check_input_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path.string() + ": is a directory");
}

std::string_view without_bom(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  return text.starts_with(kBom) ? text.substr(kBom.size()) : text;
}

}  // namespace bwlab
