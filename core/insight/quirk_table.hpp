// SPDX-License-Identifier: MIT
#pragma once
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "core/insight/fleet.hpp"
#include "core/insight/verdict.hpp"

namespace bwlab {

// One row of the fleet's quirk table: one CPU (vendor/family/model/stepping + microcode) and
// one write-allocate/NT pair in one context, over every host with that CPU.
struct QuirkRow {
  CpuIdentity cpu;
  std::string cpu_model_name;
  std::string wa_kernel, nt_kernel;
  std::string source, scenario, fill, placement, membind, pages;
  std::vector<std::string> hosts;
  // Crossover per host: at 1 thread (idle machine) and at the most threads that host measured.
  std::vector<std::string> crossover_1t, crossover_max;   // one text per host, "host: text"
  std::vector<Recommendation> per_host;                   // one per host, same order
  std::vector<std::string> per_host_label;                // recommendation_label: "NT slow, for clears that fit in the cache only"
  std::string recommendation;   // the shared recommendation, or "mixed: NT good on 2 hosts, ..."
  bool predicted = false;  // simulated points: the model's prediction, judged by its band (source is in the key)
};

// Verdicts per host (compute_verdicts on that host's rows), gathered per CPU identity. A call
// that rests on clears fitting in the LLC says so as print_verdicts does (recommendation_label:
// o.llc_bytes is o.this_host's LLC; other hosts' LLCs are not known).
std::vector<QuirkRow> quirk_table(std::span<const FleetRow> rows, const VerdictOptions& o = {});

void print_quirk_table(std::ostream& out, std::span<const QuirkRow> rows, const VerdictOptions& o = {});

}  // namespace bwlab
