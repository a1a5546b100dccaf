// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/topology/topology.hpp"

namespace bwlab {

// Where threads go.
//  compact: one PU per core, cores in order, SMT siblings only after every core has one.
//  scatter: round-robin over NUMA nodes (or packages when there is one node per package
//           or no NUMA information), one PU per core first, then siblings.
//  list:    an explicit list of PU OS indices, thread i on the i-th.
//  none:    threads are not bound: the OS places them (and may move them). plan_pus gives the
//           scatter order, which is where Linux's load balancer is expected to put busy threads
//           (idle packages and cores first); the model uses that, measured runs bind nothing and
//           record where the threads ran.
struct Placement {
  enum class Kind { compact, scatter, list, none };
  Kind kind = Kind::compact;
  std::vector<int> list;
  std::string label() const;  // "compact", "scatter", "list:0,2,4", "none"
  bool binds() const { return kind != Kind::none; }
};

// The PU a thread of an unbound (placement none) team is planned on: any allowed PU.
inline constexpr int kAnyPu = -1;

// "compact", "scatter", "none", or a PU list such as "0,2,4" or "0-3,8". Throws InputError.
Placement parse_placement(std::string_view text);
// The placement words besides a PU list: compact, scatter, none.
const std::vector<std::string>& placement_words();

// The PU OS indices for `threads` threads, only among allowed PUs.
// Throws InputError when the placement cannot host that many threads, naming the allowed PUs.
std::vector<int> plan_pus(const Topology& topo, const Placement& placement, int threads);

// What "max" threads means for `placement` on `topo`: a PU list's length (at most the allowed PUs),
// else the allowed PUs ("max" was the topology's 104 PUs beside --placement 0,2,4,6).
int max_threads_for(const Topology& topo, const Placement& placement);

// Formats OS indices as "0-3,8" (ranges collapsed).
std::string format_pu_list(const std::vector<int>& pus);

}  // namespace bwlab
