// SPDX-License-Identifier: MIT
#pragma once
#include <chrono>
#include <string>
#include <string_view>

#include "core/kernels/cpu_features.hpp"
#include "core/scenario/scenario.hpp"
#include "core/topology/topology.hpp"

namespace bwlab {

// What the user chose for a measured run, as typed: `bwlab run`'s options and the GUI's fields
// map to this one struct, and scenario_spec_from turns it into a ScenarioSpec, so both faces
// parse, default and refuse the same way. An empty string is "not given".
struct RunChoices {
  std::string scenario = "scaling";
  std::string kernels;    // empty: default_kernels(cpu)
  std::string sizes;      // empty: scenario_default_sizes
  std::string threads;    // empty: 1..max (mix: the --mix counts)
  std::string victim;     // victim: victim kernels (empty: kernels)
  std::string aggressor;  // victim: aggressor kernels (empty: kernels)
  std::string mix;        // mix: kernel:threads,...
  std::string entries;    // tlbflush: pages per munmap (empty: 1..512)
  std::string placement = "compact";
  std::string membind = "local";
  std::string pages = "4k";
  std::string fill;              // empty: zero
  std::string reps = "5";        // a count, or auto (scaling only)
  double target_pstdev = 2.0;    // with reps auto
  int max_reps = 31;             // with reps auto
  std::string duration = "200ms";
  double unstable_pct = 5.0;     // flag points whose pstdev exceeds this
  bool reject_noisy = false;     // scaling: measure disturbed windows again (bounded)
  double noisy_steal_pct = 2.0;  // a window is disturbed above this steal % ...
  double noisy_lost_pct = 5.0;   // ... or when a thread lost more than this % of its CPU time
};

// Whether scenario `s` reads the option named `flag` ("--victim", "--aggressor", "--mix",
// "--entries", "--threads", "--kernels", "--fill"); every other option applies everywhere.
bool option_applies(std::string_view flag, Scenario s);

// Throws InputError for the first option given (non-empty) that `s` does not read:
// "--victim does not apply to --scenario scaling; it is for --scenario victim".
void check_options_apply(const RunChoices& c, Scenario s);
// For options typed on a command line (run, simulate): --kernels, --victim and --aggressor all
// given to the victim scenario leave --kernels unread (it is only their default): refused with
// InputError. The GUI always has kernels ticked, and does not call it.
void check_kernels_read(const RunChoices& c, Scenario s);

// Empties the choices that `c.scenario` does not read: for a face whose disabled fields keep
// their text (the GUI). Throws InputError for an unknown scenario.
void drop_unread_choices(RunChoices& c);

// The one mapping from choices to a ScenarioSpec (defaults, parsing, refusals). `cpu` decides
// which kernels may be named; `topo` what max threads is. Throws InputError; the spec still
// goes through validate_scenario before measuring.
ScenarioSpec scenario_spec_from(const RunChoices& c, const CpuFeatures& cpu, const Topology& topo);

// "200ms", "1.5ms", "1s", "2500us" (a bare number is refused: no unit): 1 ms to 1 h, kept to the microsecond. Throws InputError
// naming --duration.
std::chrono::microseconds parse_duration(std::string_view text);

}  // namespace bwlab
