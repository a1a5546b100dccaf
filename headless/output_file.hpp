// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

namespace bwlab::cli {

// Where a run writes an output as it goes. A file that exists when the run starts (an earlier run,
// a CI baseline) is replaced only when the run finishes: until then the points go to NAME.partial.EXT
// beside it, so an interrupted rerun keeps the earlier file whole (it was replaced by the first
// points, and the earlier run was lost). run and calibrate (whose interrupted points go there) use it.
struct OutputFile {
  std::string target;    // the path given
  std::string progress;  // where points are written while the run goes: target, or its .partial sibling
  std::string real;      // the file replaced at the end: target, or where the symlink target points
  // For `path` as it is now ("" gives an empty OutputFile).
  static OutputFile of(const std::string& path);
  bool deferred() const { return progress != target; }
  // The run finished: its file takes the earlier one's place. Throws std::runtime_error.
  void finish() const;
};

// The paths of `paths` that name a file there now (empty ones skipped): the files of an earlier run
// an interrupted one says it left as they were ("not touched"), not those it never made.
std::vector<std::string> existing_files(const std::vector<std::string>& paths);

}  // namespace bwlab::cli
