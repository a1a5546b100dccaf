// SPDX-License-Identifier: MIT
// Fuzz target: hwloc XML topology files (Topology::from_xml reads a path, so the input is
// written to a private temporary file first).
#include <unistd.h>

#include <cstdio>
#include <string>

#include "core/errors.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  static const std::string path = "/tmp/bwlab-fuzz-xml-" + std::to_string(getpid()) + ".xml";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    return 0;
  }
  try {
    const bwlab::Topology topo = bwlab::Topology::from_xml(path);
    (void)topo.summary();
    const int n = static_cast<int>(topo.allowed_pus().size());
    if (n > 0) (void)bwlab::plan_pus(topo, bwlab::Placement{bwlab::Placement::Kind::scatter, {}}, n);
  } catch (const bwlab::InputError&) {
  }
  return 0;
}
