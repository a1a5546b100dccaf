// SPDX-License-Identifier: MIT
#include "headless/unit_word.hpp"

#include <cctype>

namespace bwlab::cli {

std::string size_unit_word_message(const std::string& word, const std::string& number) {
  std::string head;  // "--sizes 16 MiB,1G": the unit's word carries the rest of the list
  for (const char c : word.substr(0, word.find(',')))
    head += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const char* unit : {"B", "K", "M", "G", "T", "KB", "MB", "GB", "TB", "KIB", "MIB", "GIB", "TIB"})
    if (head == unit)
      return "'" + word + "' was not expected: a size and its unit are one word, without a space (" +
             (number.empty() ? "16" : number) + word + ")";
  return {};
}

std::string last_number_of(const std::string& list) {
  if (list.empty() || std::isdigit(static_cast<unsigned char>(list.back())) == 0) return {};
  const std::size_t comma = list.find_last_of(',');
  return list.substr(comma == std::string::npos ? 0 : comma + 1);
}

}  // namespace bwlab::cli
