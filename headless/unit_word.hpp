// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

namespace bwlab::cli {

// "--sizes 16 MB" splits a size from its unit: the shell hands "MB" over as a word of its own, which
// CLI11 leaves over (or a command's FILE argument takes). When `word` is a size unit on its own
// ("MB", "GiB", or "MiB,1G" carrying the rest of a list) this returns the one-line message naming the
// one-word form, with `number` (the digits typed before it; "" for a stock 16) in front; else "".
std::string size_unit_word_message(const std::string& word, const std::string& number);

// The message for a size option's value that the shell split: `words` left over after `value`
// ("--sizes 16 MiB..1 GiB": "16", {"MiB..1", "GiB"}), naming the one word to type ("--sizes
// 16MiB..1GiB"); "" when the words do not make, with `value`, a valid --sizes list (or --llc size).
std::string spaced_size_message(const std::string& option, const std::string& value,
                                const std::vector<std::string>& words);

// The same for a count list ("--threads 1 .. 8", "--entries 1, 2, 4"): `words` left over after
// `value`, joined back ("1..8", "1,2,4") and parsed as `option` parses it (--threads: counts, 'max'
// and ranges; --entries), naming the one word to type; "" when they make no valid list with it.
std::string spaced_count_list_message(const std::string& option, const std::string& value,
                                      const std::vector<std::string>& words);

// The same for a name list ("--kernels stosb movnti", "--mix stosb:1, movnti:1"): `words` joined
// to `value` with commas ("stosb,movnti"), named when every item is a kernel (--mix: KERNEL:N);
// else "".
std::string spaced_name_list_message(const std::string& option, const std::string& value,
                                     const std::vector<std::string>& words);

// The last number of a size list as typed ("1G,2" -> "2"), "" unless the list ends in a digit.
std::string last_number_of(const std::string& list);

}  // namespace bwlab::cli
