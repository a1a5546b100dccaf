// SPDX-License-Identifier: MIT
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace bwlab {

// The check every command makes on a path it will read (a data file, a machine file, a CSV to
// fit or validate): throws InputError "PATH: is a directory" when it names a directory, which a
// stream would otherwise read as an empty file or fail on with a raw library error. A path that
// does not exist passes (a machine argument may be a preset name); its reader says it cannot
// read it.
void check_input_file(const std::filesystem::path& path);

// Refuses one file given twice among a command's inputs ("a.json a.json": "a.json is listed
// twice: give each file once"; "a.json ./a.json": "... are the same file"), which merge counted as
// two hosts and plot drew as two sets of curves, one "(= ...)" the other. Throws InputError.
void check_listed_once(const std::vector<std::string>& files);

// `text` without a leading UTF-8 byte-order mark (EF BB BF), which Excel and PowerShell write: it
// made the first CSV column read as "\xEF\xBB\xBFsource" ("unknown column 'source'", the mark
// invisible) and a JSON file "not JSON". Every reader of a user's file reads through this.
std::string_view without_bom(std::string_view text);

}  // namespace bwlab
