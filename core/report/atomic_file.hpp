// SPDX-License-Identifier: MIT
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace bwlab {

// Writes `content` to a temporary file beside `path`, flushes it and renames it over `path`,
// so readers see the old file or the new one, never half of one. Creates no directory: a missing
// parent is refused. Throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Throws InputError "cannot write PATH: REASON" when write_file_atomically could not write
// `path`: a directory, a missing parent ("no such directory DIR"), a parent that is a file, or a
// parent in which no entry can be created (probed by creating and removing a file there, so
// /proc, read-only mounts and permissions are all caught, for root too), or a name that is only an
// output extension (".csv", ".html": the name before it forgotten). Creates nothing.
// Used to refuse every output path before measuring or any heavy step.
void check_writable(const std::filesystem::path& path);

// Refuses two outputs of one command that name the same file (one would overwrite the other, e.g.
// `--csv a.csv --json a.csv`): throws InputError naming both options. Empty paths are skipped.
struct OutputPath {
  std::string option;  // "--csv"
  std::string path;
};
void check_distinct_outputs(const std::vector<OutputPath>& outputs);

// Refuses a --csv output whose name ends in .json and a --json output ending in .csv (any case):
// `run --csv x.json` wrote a CSV that every reader then refused as "not JSON". Other names pass.
void check_output_suffixes(const std::vector<OutputPath>& outputs);

// Refuses an output of one format under the other's name: a JSON file (`what`: "a machine file")
// whose name ends in .csv, or a CSV file ending in .json (any case): every reader goes by the
// name's suffix, so `merge --out fleet.json` wrote a CSV that `verdict` then refused as not JSON.
// Throws InputError "OPTION PATH: WHAT is JSON, ...; name it STEM.json". Other names pass.
enum class FileFormat { csv, json };
void check_output_format(const OutputPath& output, FileFormat format, std::string_view what);

// Refuses an output that names one of the command's input files (`export v.json --out v.json`
// would overwrite the run with its export): throws InputError naming the option and the file.
void check_not_an_input(const OutputPath& output, const std::vector<std::string>& inputs);

}  // namespace bwlab
