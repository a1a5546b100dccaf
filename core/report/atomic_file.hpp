// SPDX-License-Identifier: MIT
#pragma once
#include <filesystem>
#include <string_view>

namespace bwlab {

// Writes `content` to a temporary file beside `path`, flushes it and renames it over `path`,
// so readers see the old file or the new one, never half of one. Creates missing parent
// directories. Throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Throws InputError when `path` could not be written (parent missing and not creatable, not
// writable, or a directory). Used to refuse bad output paths before measuring.
void check_writable(const std::filesystem::path& path);

}  // namespace bwlab
