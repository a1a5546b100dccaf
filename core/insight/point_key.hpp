// SPDX-License-Identifier: MIT
#pragma once
#include <string>

#include "core/report/record.hpp"

namespace bwlab {

// The parameters that identify a point within one run: source, scenario, kernel, fill,
// threads, placement, membind, pages, size_bytes, and the scenario columns role, peer_kernel,
// peer_threads and entries (a victim's aggressors, a mix's partners, tlbflush's E). Two runs' points with the same key measured
// the same thing. Host and CPU are not part of it (compare matches across hosts on purpose;
// merge and verdict add the host where it matters).
std::string point_key(const Point& p);

// The same parameters, readable: "stosb 1GiB 2T zero [measured scaling compact local 4k]",
// "stosb 1MiB 2T zero beside 1x movnti [measured victim ...]", "munmap 1MiB 1T  E=8 [...]".
std::string point_label(const Point& p);

}  // namespace bwlab
