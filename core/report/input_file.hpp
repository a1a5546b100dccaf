// SPDX-License-Identifier: MIT
#pragma once
#include <filesystem>
#include <string_view>

namespace bwlab {

// The check every command makes on a path it will read (a data file, a machine file, a CSV to
// fit or validate): throws InputError "PATH: is a directory" when it names a directory, which a
// stream would otherwise read as an empty file or fail on with a raw library error. A path that
// does not exist passes (a machine argument may be a preset name); its reader says it cannot
// read it.
void check_input_file(const std::filesystem::path& path);

// `text` without a leading UTF-8 byte-order mark (EF BB BF), which Excel and PowerShell write: it
// made the first CSV column read as "\xEF\xBB\xBFsource" ("unknown column 'source'", the mark
// invisible) and a JSON file "not JSON". Every reader of a user's file reads through this.
std::string_view without_bom(std::string_view text);

}  // namespace bwlab
