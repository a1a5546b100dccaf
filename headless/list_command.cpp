// SPDX-License-Identifier: MIT
#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/kernels/cpu_features.hpp"
#include "core/kernels/kernels.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

std::string default_kernels() {
  const CpuFeatures cpu = detect_cpu_features();
  std::string nt = "movntdq";
  for (const char* name : {"avx512-nt", "avx2-nt"})
    if (kernel_availability(*find_kernel(name), cpu).available) {
      nt = name;
      break;
    }
  return "stosb,movnti," + nt;
}

int list_command() {
  const CpuFeatures cpu = detect_cpu_features();
  const std::string present = fmt::format("{}", fmt::join(cpu.present(), " "));
  fmt::print("CPU: {} ({} family {} model {} stepping {}); features bwlab uses: {}\n\n", cpu.model_name, cpu.vendor,
             cpu.family, cpu.model, cpu.stepping, present.empty() ? "none" : present);
  fmt::print("{:<13} {:<50} {:<9} {:<22} {}\n", "kernel", "available here", "needs", "traffic", "what it does");
  for (const KernelInfo& k : kernel_table()) {
    const Availability a = kernel_availability(k, cpu);
    fmt::print("{:<13} {:<50} {:<9} {:<22} {}\n", k.name, a.available ? "yes" : "no: " + a.reason,
               to_string(k.requires_feature), to_string(k.traffic), k.description);
  }
  fmt::print("\nAlias: movnt = movnti. Kernels marked zero-only refuse --fill other than zero.\n");
  return 0;
}

}  // namespace bwlab::cli
