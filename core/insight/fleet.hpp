// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/report/record.hpp"

namespace bwlab {

// The CPU a point was measured on, as the JSON's "run" records it.
struct CpuIdentity {
  std::string vendor;      // GenuineIntel, AuthenticAMD, ...
  int family = 0, model = 0, stepping = 0;
  std::string microcode;   // "" when it was not readable
  // Its last-level caches as the run recorded them (run.llc_bytes, run.llc_count; 0: not
  // recorded): verdict --by cpu judges each host's in-cache rows by its own, not this machine's.
  std::uint64_t llc_bytes = 0;
  int llc_count = 0;
  bool operator==(const CpuIdentity&) const = default;
};
CpuIdentity cpu_identity(const RunInfo& run);
// "GenuineIntel 6/207/2" (family/model/stepping, decimal as /proc/cpuinfo prints them).
std::string cpu_label(const CpuIdentity& c);

struct FleetRow {
  CpuIdentity cpu;
  Point point;
};

// The fleet CSV: the columns cpu_vendor,cpu_family,cpu_model_number,cpu_stepping,microcode,
// llc_bytes,llc_count, followed by exactly the columns of the normal bwlab CSV (write_csv's
// header), so the normal schema stays one definition. Read back through read_csv for the point
// columns; files written before the two llc columns read, with the caches unknown.
std::string_view fleet_leading_header();  // "cpu_vendor,...,microcode,llc_bytes,llc_count"
void write_fleet_csv(std::ostream& out, std::span<const FleetRow> rows);
// Throws InputError naming the line on malformed input (including a wrong point header).
std::vector<FleetRow> read_fleet_csv(std::istream& in);
// True when `text` starts with the fleet header's leading columns.
bool is_fleet_csv(std::string_view text);

}  // namespace bwlab
