// SPDX-License-Identifier: MIT
#include "core/report/plural.hpp"
#include "core/scenario/scenario.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/report/units.hpp"
#include "core/sysinfo/hugepages.hpp"
#include "core/scenario/runners.hpp"
#include "core/sweep/parse.hpp"
#include "core/sweep/suggest.hpp"
#include "core/topology/placement.hpp"

namespace bwlab {
namespace {

bool parse_int(std::string_view s, int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

constexpr int kMaxEntries = 262144;  // 1 GiB of 4 KiB pages per munmap

// The checks every scenario shares: this machine, repetitions, window, thread counts.
void validate_basics(const SweepSpec& sw, const Topology& topo) {
  if (!topo.is_this_system())
    throw InputError(fmt::format("measuring needs the local machine, but the topology comes from {}; use it with "
                                 "`bwlab topo`",
                                 topo.origin()));
  if (sw.reps < 1) throw InputError("--reps must be at least 1");
  if (sw.duration < std::chrono::milliseconds(1)) throw InputError("--duration must be at least 1 ms");
  if (sw.threads.empty()) throw InputError("no thread count to measure");
  if (sw.sizes.empty()) throw InputError("no size to measure");
  for (int t : sw.threads) plan_pus(topo, sw.placement, t);
  check_placement_membind(sw.placement, sw.membind);
}

}  // namespace

std::string_view to_string(Scenario s) {
  switch (s) {
    case Scenario::scaling: return "scaling";
    case Scenario::victim: return "victim";
    case Scenario::mix: return "mix";
    case Scenario::pagefault: return "pagefault";
    case Scenario::tlbflush: return "tlbflush";
  }
  return "?";
}

std::string_view scenario_default_sizes(Scenario s) {
  if (s == Scenario::pagefault) return "64M";
  if (s == Scenario::tlbflush) return "1M";
  return "16M,1G";
}

std::span<const Scenario> all_scenarios() {
  static constexpr Scenario kAll[] = {Scenario::scaling, Scenario::victim, Scenario::mix, Scenario::pagefault,
                                      Scenario::tlbflush};
  return kAll;
}

Scenario parse_scenario(std::string_view text) {
  std::vector<std::string> names;
  const std::string word = lower_case(text);  // "VICTIM" is victim, as --kernels STOSB is stosb
  for (Scenario s : all_scenarios()) {
    if (word == to_string(s)) return s;
    names.emplace_back(to_string(s));
  }
  const std::string near = nearest_name(text, names);
  if (!near.empty()) throw InputError(fmt::format("unknown --scenario '{}'; did you mean {}?", text, near));
  throw InputError(fmt::format("unknown --scenario '{}'; scenarios are {}", text, fmt::join(names, ", ")));
}

std::vector<MixPart> parse_mix(std::string_view text, const CpuFeatures& cpu, std::string_view machine) {
  std::vector<MixPart> out;
  for (std::string_view item : split_list(text)) {
    item = trim_spaces(item);
    const auto colon = item.rfind(':');
    int n = 0;
    if (colon == std::string_view::npos || !parse_int(item.substr(colon + 1), n))
      throw InputError(fmt::format("bad --mix part '{}': use kernel:threads, e.g. stosb:1,avx512-nt:1", item));
    // The form was right ("movnti:0" was told to use kernel:threads): the count is what is wrong.
    if (n < 1)
      throw InputError(fmt::format("bad --mix part '{}': a kernel runs on 1 thread or more (got {}); leave out a "
                                   "kernel that should not run",
                                   item, n));
    // One kernel per part: "all:4" named every kernel and ran the first one, stosb, without a word.
    const std::vector<std::string> named = parse_kernels(item.substr(0, colon), cpu, machine);  // throws: unknown/unavailable
    if (named.size() != 1)
      throw InputError(fmt::format("bad --mix part '{}': name one kernel per part, e.g. stosb:1,avx512-nt:1", item));
    const std::string& kernel = named.front();
    if (std::any_of(out.begin(), out.end(), [&](const MixPart& m) { return m.kernel == kernel; }))
      throw InputError(fmt::format("bad --mix: kernel {} appears twice; give each kernel once with its thread count",
                                   kernel));
    out.push_back({kernel, n});
  }
  return out;
}

std::vector<int> parse_entries(std::string_view text) {
  const auto one = [&](std::string_view s) {
    s = trim_spaces(s);
    int v = 0;
    if (!parse_int(s, v) || v < 1 || v > kMaxEntries)
      throw InputError(fmt::format("bad --entries '{}': use page counts 1..{} per munmap, lists and doubling ranges "
                                   "such as 1..512",
                                   s, kMaxEntries));
    return v;
  };
  std::vector<int> out;
  const auto add = [&](int v) {
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  };
  for (std::string_view item : split_list(text)) {
    const auto ends = range_ends(item, "--entries", "1..512");
    if (!ends) {
      add(one(item));
      continue;
    }
    const int lo = one(ends->first), hi = one(ends->second);
    if (hi < lo) throw InputError(fmt::format("bad --entries range '{}': the end is below the start", trim_spaces(item)));
    for (int e = lo; e <= hi; e *= 2) {
      add(e);
      if (e > hi / 2) break;
    }
  }
  return out;
}

std::vector<std::string> validate_scenario(ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                                           std::uint64_t memory_available, const std::string& memory_how) {
  SweepSpec& sw = spec.sweep;
  switch (spec.scenario) {
    case Scenario::scaling: return validate_sweep(sw, topo, cpu, memory_available, memory_how);
    case Scenario::victim: {
      if (spec.victims.empty() || spec.aggressors.empty())
        throw InputError("--scenario victim needs victim and aggressor kernels (--victim, --aggressor)");
      if (std::find(sw.threads.begin(), sw.threads.end(), 1) == sw.threads.end()) sw.threads.push_back(1);
      std::sort(sw.threads.begin(), sw.threads.end());
      sw.kernels = spec.victims;
      for (const auto& a : spec.aggressors)
        if (std::find(sw.kernels.begin(), sw.kernels.end(), a) == sw.kernels.end()) sw.kernels.push_back(a);
      auto warnings = validate_sweep(sw, topo, cpu, memory_available, memory_how);
      if (sw.threads.back() == 1)
        warnings.push_back("victim with 1 thread measures only the baseline (k = 0); use --threads 1..max");
      return warnings;
    }
    case Scenario::mix: {
      if (spec.mix.empty()) throw InputError("--scenario mix needs --mix, e.g. --mix stosb:1,avx512-nt:1");
      int total = 0;
      sw.kernels.clear();
      for (const MixPart& m : spec.mix) {
        total += m.threads;
        sw.kernels.push_back(m.kernel);
      }
      const int max = static_cast<int>(topo.allowed_pus().size());
      if (total > max)
        throw InputError(fmt::format("--mix asks for {}, but this process may use only {}", count_of(total, "thread"),
                                     count_of(max, "PU")));
      sw.threads = {total};
      return validate_sweep(sw, topo, cpu, memory_available, memory_how);
    }
    case Scenario::pagefault: {
      validate_basics(sw, topo);
      // THP backs a region with whole 2 MiB pages: a 1 MiB region would clear a 2 MiB page and count
      // half of it as made ready.
      const std::size_t page = sw.pages == Pages::thp ? std::size_t{2} << 20 : page_size(sw.pages);
      // A page size the kernel does not offer is said first: no --sizes could make it work (the
      // size's complaint came first and named the sizes in bytes).
      if (is_hugetlb(sw.pages)) require_huge_pages(page, 0, fmt::format("--pages {}", to_string(sw.pages)));
      for (std::uint64_t s : sw.sizes)
        if (s % page != 0)
          throw InputError(fmt::format("--scenario pagefault maps regions of whole pages: --sizes {} is not a "
                                       "multiple of the {} pages of --pages {}",
                                       size_label(s), format_bytes(page, " "), to_string(sw.pages)));
      return validate_memory(sw.membind, sw.pages, sw.sizes, sw.threads, topo, memory_available, memory_how);
    }
    case Scenario::tlbflush: {
      validate_basics(sw, topo);
      if (sw.pages != Pages::small4k)
        throw InputError(fmt::format("--scenario tlbflush measures munmap of 4 KiB pages (E entries); --pages {} "
                                     "does not apply",
                                     to_string(sw.pages)));
      if (spec.entries.empty()) throw InputError("--scenario tlbflush needs --entries, e.g. 1..512");
      for (std::uint64_t s : sw.sizes)
        if (s < 4096 || s % 4096 != 0)
          throw InputError(fmt::format("--scenario tlbflush: --sizes is each reader's memory in whole 4 KiB pages; "
                                       "{} is not",
                                       size_label(s)));
      std::vector<std::string> warnings =
          validate_memory(sw.membind, sw.pages, sw.sizes, sw.threads, topo, memory_available, memory_how);
      if (*std::max_element(sw.threads.begin(), sw.threads.end()) == 1)
        warnings.push_back("tlbflush with 1 thread has no readers: only munmap's own cost is measured");
      return warnings;
    }
  }
  return {};
}

SweepResult run_scenario(const ScenarioSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                         SweepObserver& observer, const std::atomic<bool>* stop) {
  switch (spec.scenario) {
    case Scenario::scaling: return scenario_detail::run_scaling(spec, topo, cpu, observer, stop);
    case Scenario::victim: return scenario_detail::run_victim(spec, topo, cpu, observer, stop);
    case Scenario::mix: return scenario_detail::run_mix(spec, topo, cpu, observer, stop);
    case Scenario::pagefault: return scenario_detail::run_pagefault(spec, topo, cpu, observer, stop);
    case Scenario::tlbflush: return scenario_detail::run_tlbflush(spec, topo, cpu, observer, stop);
  }
  return {};
}

}  // namespace bwlab
