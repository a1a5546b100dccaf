// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include "core/model/machine.hpp"
#include "core/model/solver.hpp"

namespace bwlab::model {

// Why a solved point runs at its rate, in a few plain lines: bytes read and written in memory
// per byte cleared (RFO evaded or not), which limit binds (core concurrency, LLC, DRAM node,
// inter-socket link) with its utilisation, and the loaded latency. Used by
// `bwlab simulate --explain` and available to the GUI.
std::string explain_point(const std::string& title, const std::vector<LoadGroup>& groups, const Solution& sol,
                          const Shape& shape, const MachineParams& m);

}  // namespace bwlab::model
