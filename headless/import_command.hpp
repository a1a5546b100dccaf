// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

namespace bwlab::cli {

// `bwlab import FORMAT FILE... [--cpu ...] [--note ...] --csv OUT.csv | --json OUT.json`:
// other tools' results as bwlab points (core/import), source=imported.
struct ImportOptions {
  std::string format;
  std::vector<std::string> files;
  std::string cpu, note;
  std::string csv, json;
  std::string command_line;
};

// Exit codes: 0 written, 2 bad input (unknown format, unreadable file, unknown or partial text).
int import_command(const ImportOptions& o);

}  // namespace bwlab::cli
