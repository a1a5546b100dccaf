// SPDX-License-Identifier: MIT
// Fuzz target: synthetic topology strings (hwloc's parser behind Topology::from_synthetic),
// then placement plans on whatever topology results.
#include <string>

#include "core/errors.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  if (size > 256) return 0;  // hwloc would build huge machines from long strings: not our parser's problem
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const bwlab::Topology topo = bwlab::Topology::from_synthetic(text);
    if (topo.pus().size() > 4096) return 0;
    (void)topo.summary();
    const int n = static_cast<int>(topo.allowed_pus().size());
    for (auto kind : {bwlab::Placement::Kind::compact, bwlab::Placement::Kind::scatter})
      (void)bwlab::plan_pus(topo, bwlab::Placement{kind, {}}, n);
  } catch (const bwlab::InputError&) {
  }
  return 0;
}
