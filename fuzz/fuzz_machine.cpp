// SPDX-License-Identifier: MIT
// Fuzz target: machine parameter files (`bwlab simulate --machine file.json`), then one
// prediction with whatever was accepted: any input gives a machine or an InputError.
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/topology/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const bwlab::MachineParams m = bwlab::read_machine_json(in, "fuzz");
    static const bwlab::Topology topo = bwlab::Topology::from_synthetic("package:2 numa:1 core:4 pu:2");
    bwlab::SweepSpec spec;
    spec.kernels = {"stosb", "movnti"};
    spec.sizes = {1u << 20, 1u << 30};
    spec.threads = {1, 16};
    (void)bwlab::simulate_sweep(spec, topo, m);
  } catch (const bwlab::InputError&) {
  }
  return 0;
}
