// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include "core/report/record.hpp"
#include "core/topology/topology.hpp"
#include "gui/plots/ceilings.hpp"

namespace bwlab::gui {

// Where a run's threads start using a second package and where they start sharing cores with
// SMT siblings, as threads-plot marks: the smallest thread count of a scaling point whose PUs
// (pus, else pus_planned) reach a second package ("first point on socket 2: 19T"), or a PU of
// smt_rank > 0 ("first point with SMT siblings: 37T"), on `topology` (the machine the points ran
// or were simulated on: the caller checks that). A sparse sweep's mark is at its first such
// point, not where the placement crossed. Points without PUs, or PUs the topology lacks, mark
// nothing. `scenario` is the plot's: victim points mark at their aggressor count k, the victim
// plot's x ("first point on socket 2: k = 25"); mix points mark nothing (a part's thread count is
// not where the machine's threads are). No Qt.
std::vector<Ceiling> placement_marks(const std::vector<Point>& points, const Topology& topology,
                                     const std::string& scenario = "scaling");

}  // namespace bwlab::gui
