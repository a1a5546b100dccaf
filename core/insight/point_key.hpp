// SPDX-License-Identifier: MIT
#pragma once
#include <string>

#include "core/report/record.hpp"

namespace bwlab {

// The parameters that identify a point within one run: source, scenario, kernel, fill,
// threads, placement, membind, pages, size_bytes. Two runs' points with the same key measured
// the same thing. Host and CPU are not part of it (compare matches across hosts on purpose;
// merge and verdict add the host where it matters).
std::string point_key(const Point& p);

// The same parameters, readable: "stosb 1GiB 2T zero [measured scaling compact local 4k]".
std::string point_label(const Point& p);

}  // namespace bwlab
