// SPDX-License-Identifier: MIT
// Speed of the model: every kernel x 16 sizes x every thread count 1..256 on
// 'package:2 numa:1 core:64 pu:2'. A benchmark, not a test: prints the time and exits 0.
#include <chrono>
#include <cstdio>

#include "core/kernels/kernels.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/sweep/parse.hpp"

int main() {
  using namespace bwlab;
  MachineParams m = preset_table().front();  // skylake-x-8270cl figures
  m.features.push_back("clzero");            // so that every kernel of the table is simulated
  const Topology topo = Topology::from_synthetic("package:2 numa:1 core:64 pu:2");
  SweepSpec spec;
  for (const auto& k : kernel_table()) spec.kernels.emplace_back(k.name);
  spec.sizes = parse_sizes("64K..2G");
  spec.threads = parse_threads("1..max", 256);
  for (const char* placement : {"compact", "scatter"}) {
    spec.placement = parse_placement(placement);
    const auto t0 = std::chrono::steady_clock::now();
    const auto points = simulate_sweep(spec, topo, m);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("simulate_bench: %zu points (%zu kernels x %zu sizes x %zu thread counts, %s) in %.3f s\n",
                points.size(), spec.kernels.size(), spec.sizes.size(), spec.threads.size(), placement, s);
  }
  return 0;
}
