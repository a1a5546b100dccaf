// SPDX-License-Identifier: MIT
#pragma once
#include <exception>
#include <iosfwd>
#include <span>
#include <vector>

#include "core/report/record.hpp"

namespace bwlab {

// A JSON library error's reason without its "[json.exception.type_error.302] " tag ("type must be
// number, but is string"): what readers of JSON files the user gave say after their own context.
std::string json_error_reason(const std::exception& e);

// {"schema_version":1, "run":{...RunInfo...}, "units":{...}, "points":[...]}
// NaN and infinities are written as null. Locale-independent.
void write_json(std::ostream& out, const RunInfo& run, std::span<const Point> points);

struct JsonDocument {
  RunInfo run;
  std::vector<Point> points;
};
// Reads what write_json wrote. Throws InputError on malformed input or an unknown schema_version.
JsonDocument read_json(std::istream& in);

}  // namespace bwlab
