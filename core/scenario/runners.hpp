// SPDX-License-Identifier: MIT
// The scenario runners behind run_scenario (one file each). Internal to core/scenario.
#pragma once
#include "core/scenario/scenario.hpp"

namespace bwlab::scenario_detail {

SweepResult run_scaling(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                        SweepObserver& observer, const std::atomic<bool>* stop);

SweepResult run_victim(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                       SweepObserver& observer, const std::atomic<bool>* stop);
SweepResult run_mix(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu, SweepObserver& observer,
                    const std::atomic<bool>* stop);
SweepResult run_pagefault(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                          SweepObserver& observer, const std::atomic<bool>* stop);
SweepResult run_tlbflush(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                         SweepObserver& observer, const std::atomic<bool>* stop);

}  // namespace bwlab::scenario_detail
