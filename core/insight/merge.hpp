// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include "core/insight/fleet.hpp"
#include "core/report/json.hpp"

namespace bwlab {

struct NamedRun {
  std::string name;    // the file it came from, for messages
  JsonDocument doc;
};

struct MergeResult {
  std::vector<FleetRow> rows;          // every point of every run, in input order
  std::vector<std::string> warnings;   // e.g. a partial run
};

// Every point of every run, each tagged with its run's CPU identity. Throws InputError when
// there is no run, a run has no host, a run holds points not measured (source simulated or
// imported: a fleet merges measured runs), or two runs hold a point with the same parameters for
// the same host (the same host measured twice: keep one run per host).
MergeResult merge_runs(const std::vector<NamedRun>& runs);

// The refusals of merge_runs that concern one run alone (points not measured, no host), so that a
// caller can leave that run out and merge the others (bwlab merge --keep-going). Throws InputError.
void check_mergeable(const NamedRun& run);

}  // namespace bwlab
