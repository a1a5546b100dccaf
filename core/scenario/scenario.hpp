// SPDX-License-Identifier: MIT
#pragma once
#include <atomic>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/sweep/sweep.hpp"

namespace bwlab {

// What a run measures (the `scenario` column of every point).
//  scaling    every thread runs the same kernel (run_sweep).
//  victim     one victim thread runs kernel A while k aggressors run kernel B, k = 0..max-1.
//  mix        threads split between kernels, e.g. stosb:1,avx512-nt:1.
//  pagefault  each thread maps fresh anonymous memory, touches every page, unmaps (the OS clears).
//  tlbflush   one thread maps, touches and munmaps E pages while k readers read their own memory.
enum class Scenario { scaling, victim, mix, pagefault, tlbflush };
std::string_view to_string(Scenario s);
Scenario parse_scenario(std::string_view text);  // throws InputError listing the scenarios
// Every scenario, in the order `bwlab run --help` lists them (parse_scenario and the shell
// completion read this table).
std::span<const Scenario> all_scenarios();

// --sizes when none is given: 64M for pagefault, 1M for tlbflush, 16M,1G otherwise.
std::string_view scenario_default_sizes(Scenario s);

struct MixPart {
  std::string kernel;
  int threads = 0;
};
// "stosb:1,avx512-nt:1": kernel:threads pairs, one kernel per part ("all" is refused), each kernel
// once, threads >= 1. `machine`: the simulated machine whose kernels `cpu` describes (named in the
// refusal of a kernel it lacks); empty: this CPU. Throws InputError.
std::vector<MixPart> parse_mix(std::string_view text, const CpuFeatures& cpu, std::string_view machine = {});

// Entries per munmap for tlbflush: a comma list with doubling ranges, "1..512" = 1,2,4,...,512;
// each 1..262144 (1 GiB of 4 KiB pages). Throws InputError.
std::vector<int> parse_entries(std::string_view text);

// A run: the sweep dimensions plus what the scenario needs. How the sweep fields are read:
//  victim:    sweep.threads = threads in the window (1 victim + k aggressors); 1 is always added
//             (the k = 0 baseline); `victims` x `aggressors` is the matrix of kernel pairs.
//  mix:       `mix` sets the threads; sweep.threads and sweep.kernels are unused.
//  pagefault: sweep.sizes = bytes each thread maps per cycle (whole pages); sweep.kernels unused.
//  tlbflush:  sweep.threads = 1 unmapper + k readers; sweep.sizes = each reader's memory;
//             `entries` = pages per munmap; pages must be 4k.
struct ScenarioSpec {
  Scenario scenario = Scenario::scaling;
  SweepSpec sweep;
  std::vector<std::string> victims;
  std::vector<std::string> aggressors;
  std::vector<MixPart> mix;
  std::vector<int> entries;
  std::vector<std::string> notes;  // what the choices changed, e.g. "--kernels all leaves out clzero ..."
};

// Everything checkable before measuring (validate_sweep's checks, adapted per scenario).
// Throws InputError; returns warnings.
std::vector<std::string> validate_scenario(ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                                           std::uint64_t memory_available, const std::string& memory_how = "");

// Measures the scenario on this machine. Requires: validate_scenario passed.
SweepResult run_scenario(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                         SweepObserver& observer, const std::atomic<bool>* stop = nullptr);

}  // namespace bwlab
