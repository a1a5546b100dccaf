// SPDX-License-Identifier: MIT
#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "core/kernels/cpu_features.hpp"
#include "core/kernels/kernels.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

int list_command() {
  const CpuFeatures cpu = detect_cpu_features();
  const std::string present = fmt::format("{}", fmt::join(cpu.present(), " "));
  fmt::print("CPU: {} ({} family {} model {} stepping {}); features bwlab uses: {}\n\n", cpu.model_name, cpu.vendor,
             cpu.family, cpu.model, cpu.stepping, present.empty() ? "none" : present);
  fmt::print("{:<13} {:<50} {:<9} {:<22} {}\n", "kernel", "available here", "needs", "traffic", "what it does");
  for (const KernelInfo& k : kernel_table()) {
    const Availability a = kernel_availability(k, cpu);
    fmt::print("{:<13} {:<50} {:<9} {:<22} {}\n", k.name, a.available ? "yes" : "no: " + a.reason,
               to_string(k.requires_feature), to_string(k.traffic),
               k.zero_only ? fmt::format("{} [zero-only]", k.description) : std::string(k.description));
  }
  fmt::print("\nAlias: movnt = movnti. Kernels marked [zero-only] refuse --fill other than zero.\n");
  return 0;
}


Command add_list_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("list", "list the clearing kernels, and which ones this CPU can run")
      ->footer("\nExample:\n  bwlab list\n");
  return {sub, [] { return list_command(); }};
}

}  // namespace bwlab::cli
