// SPDX-License-Identifier: MIT
#include "headless/unit_word.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/scenario/scenario.hpp"
#include "core/sweep/parse.hpp"

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

namespace {

// A list typed with spaces, joined back as one word: `value` (what the option took) and the words
// the shell split off after it ("16", {"MiB..1", "GiB"} -> "16MiB..1GiB"; "16M", {"1G"} ->
// "16M,1G"; "16", {"MB,32", "MB"} -> "16MB,32MB"; "1", {"..", "8"} -> "1..8"). Two items side by
// side ("16M 1G", "1 2", "8 max") are two items of the list; anything else joins as typed. A word
// that begins with one of `letters` begins an item when `letters_begin_items` ("max"), else it is
// a unit ("MB"). "" when a word holds anything but digits, `letters`, '.' and ','.
std::string joined_list_words(const std::string& value, const std::vector<std::string>& words, std::string_view letters,
                              bool letters_begin_items) {
  if (value.empty() || words.empty()) return {};
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  const auto list_char = [&](char c) { return digit(c) || c == '.' || c == ',' || letters.find(c) != std::string_view::npos; };
  std::string joined = value;
  for (const std::string& w : words) {
    if (w.empty() || !std::all_of(w.begin(), w.end(), list_char)) return {};
    const bool two_items = std::isalnum(static_cast<unsigned char>(joined.back())) != 0 &&
                           (digit(w.front()) || (letters_begin_items && letters.find(w.front()) != std::string_view::npos));
    joined += (two_items ? "," : "") + w;
  }
  return joined;
}

}  // namespace

std::string spaced_size_message(const std::string& option, const std::string& value,
                                const std::vector<std::string>& words) {
  // One unit alone ("--sizes 16 MB"): the unit's own message, "(16MB)".
  if (words.size() == 1)
    if (std::string unit = size_unit_word_message(words.front(), last_number_of(value)); !unit.empty()) return unit;
  const std::string joined = joined_list_words(value, words, "KMGTBIkmgtbi", false);
  if (joined.empty()) return {};
  try {
    if (option == "--llc") (void)parse_size(joined);
    else (void)parse_sizes(joined);
  } catch (const InputError&) {
    return {};
  }
  return fmt::format("'{}' was not expected: a size {} is one word, without spaces ({} {})", fmt::join(words, " "),
                     option == "--llc" ? "and its unit" : "list", option, joined);
}

std::string spaced_count_list_message(const std::string& option, const std::string& value,
                                      const std::vector<std::string>& words) {
  const std::string joined = joined_list_words(value, words, "max", true);
  if (joined.empty()) return {};
  try {
    if (option == "--threads") (void)parse_threads(joined, 1 << 20);
    else if (option == "--entries") (void)parse_entries(joined);
    else return {};
  } catch (const InputError&) {
    return {};
  }
  return fmt::format("'{}' was not expected: a list is one word, without spaces ({} {})", fmt::join(words, " "), option,
                     joined);
}

std::string spaced_name_list_message(const std::string& option, const std::string& value,
                                     const std::vector<std::string>& words) {
  std::string joined = value;
  for (const std::string& word : words)
    if (const std::string w = word.substr(std::min(word.size(), word.find_first_not_of(','))); !w.empty())
      joined += (joined.empty() || joined.back() == ',' ? "" : ",") + w;
  while (!joined.empty() && joined.back() == ',') joined.pop_back();
  if (joined.empty()) return {};
  for (std::size_t at = 0; at <= joined.size();) {
    const std::size_t comma = std::min(joined.find(',', at), joined.size());
    const std::string item = joined.substr(at, comma - at);
    if (item != "all" && find_kernel(item.substr(0, item.find(':'))) == nullptr) return {};
    at = comma + 1;
  }
  return fmt::format("'{}' was not expected: a list is one word, without spaces ({} {})", fmt::join(words, " "), option,
                     joined);
}

std::string last_number_of(const std::string& list) {
  if (list.empty() || std::isdigit(static_cast<unsigned char>(list.back())) == 0) return {};
  const std::size_t comma = list.find_last_of(',');
  return list.substr(comma == std::string::npos ? 0 : comma + 1);
}

}  // namespace bwlab::cli
