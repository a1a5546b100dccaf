// SPDX-License-Identifier: MIT
#pragma once
#include <span>
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

// The label of the first point of `points` that repeats an earlier one of the same host (same
// point_key): a file holding several runs of one set-up, whose curves would join them in zig-zags
// and whose verdict is refused. Empty when every point is its host's only one.
std::string repeated_point_label(std::span<const Point> points);

}  // namespace bwlab
