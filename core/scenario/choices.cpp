// SPDX-License-Identifier: MIT
#include "core/scenario/choices.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/report/units.hpp"
#include "core/engine/buffer.hpp"
#include "core/sweep/parse.hpp"
#include "core/topology/placement.hpp"

namespace bwlab {
namespace {

// A value a list names more than once ("--sizes 16M,16M", "--threads 1..4,2", "--kernels
// stosb,STOSB") is measured once: the note says so (they were merged without a word). Each item
// is parsed alone; `parse_item` returns its values, `label` names one.
template <class Parse, class Label>
std::string repeats_note(const char* option, std::string_view text, Parse parse_item, Label label) {
  using T = typename decltype(parse_item(text))::value_type;
  std::vector<T> seen, repeated;
  for (std::string_view item : split_list(text))
    for (const T& v : parse_item(item)) {
      if (std::find(seen.begin(), seen.end(), v) == seen.end()) seen.push_back(v);
      else if (std::find(repeated.begin(), repeated.end(), v) == repeated.end()) repeated.push_back(v);
    }
  if (repeated.empty()) return {};
  std::vector<std::string> names;
  for (const T& v : repeated) names.push_back(label(v));
  return fmt::format("{} {} names {} more than once; each is measured once", option, text, fmt::join(names, ", "));
}

bool os_clears(Scenario s) { return s == Scenario::pagefault || s == Scenario::tlbflush; }

// An option only some scenarios read, and who reads it (for the refusal), in the order checked.
struct ScenarioOption {
  std::string_view flag;
  std::string RunChoices::*field;
  bool (*applies)(Scenario);
  const char* (*readers)(Scenario);  // given the scenario that refuses it
};

constexpr std::array<ScenarioOption, 7> kScenarioOptions{{
    {"--victim", &RunChoices::victim, [](Scenario s) { return s == Scenario::victim; },
     [](Scenario) { return "--scenario victim"; }},
    {"--aggressor", &RunChoices::aggressor, [](Scenario s) { return s == Scenario::victim; },
     [](Scenario) { return "--scenario victim"; }},
    {"--mix", &RunChoices::mix, [](Scenario s) { return s == Scenario::mix; },
     [](Scenario) { return "--scenario mix"; }},
    {"--entries", &RunChoices::entries, [](Scenario s) { return s == Scenario::tlbflush; },
     [](Scenario) { return "--scenario tlbflush"; }},
    {"--threads", &RunChoices::threads, [](Scenario s) { return s != Scenario::mix; },
     [](Scenario) { return "the other scenarios (the --mix counts set the threads)"; }},
    {"--kernels", &RunChoices::kernels, [](Scenario s) { return s == Scenario::scaling || s == Scenario::victim; },
     [](Scenario s) {
       return os_clears(s) ? "the clearing scenarios (the OS clears or unmaps here)"
                           : "the other scenarios (--mix names the kernels)";
     }},
    {"--fill", &RunChoices::fill, [](Scenario s) { return !os_clears(s); },
     [](Scenario) { return "the clearing scenarios (the OS writes zeros)"; }},
}};

}  // namespace

bool option_applies(std::string_view flag, Scenario s) {
  for (const ScenarioOption& o : kScenarioOptions)
    if (o.flag == flag) return o.applies(s);
  return true;
}

void check_options_apply(const RunChoices& c, Scenario s) {
  for (const ScenarioOption& o : kScenarioOptions)
    if (!(c.*o.field).empty() && !o.applies(s))
      throw InputError(fmt::format("{} does not apply to --scenario {}; it is for {}", o.flag, to_string(s),
                                   o.readers(s)));
  if (c.reject_noisy && s != Scenario::scaling)
    throw InputError(fmt::format("--reject-noisy does not apply to --scenario {}; it is for --scenario scaling "
                                 "(the other scenarios report noisy_windows but keep every window)",
                                 to_string(s)));
}

void check_kernels_read(const RunChoices& c, Scenario s) {
  if (s == Scenario::victim && !c.kernels.empty() && !c.victim.empty() && !c.aggressor.empty())
    throw InputError("--kernels is unused when --victim and --aggressor are both given; leave one of the three out");
}

void drop_unread_choices(RunChoices& c) {
  if (parse_scenario(c.scenario) != Scenario::scaling) c.reject_noisy = false;
  const Scenario s = parse_scenario(c.scenario);
  for (const ScenarioOption& o : kScenarioOptions)
    if (!o.applies(s)) (c.*o.field).clear();
}

ScenarioSpec scenario_spec_from(const RunChoices& c, const CpuFeatures& cpu, const Topology& topo) {
  ScenarioSpec scen;
  scen.scenario = parse_scenario(c.scenario);
  const Scenario s = scen.scenario;
  check_options_apply(c, s);
  SweepSpec& spec = scen.sweep;
  const std::string kernels = c.kernels.empty() ? default_kernels(cpu) : c.kernels;
  if (s == Scenario::scaling) spec.kernels = parse_kernels(kernels, cpu);
  spec.sizes = parse_sizes(c.sizes.empty() ? scenario_default_sizes(s) : c.sizes);
  spec.placement = parse_placement(c.placement);
  const std::vector<int> allowed = topo.allowed_pus();
  // A PU list bounds the threads by its length ("max" was every allowed PU).
  const bool pu_list = spec.placement.kind == Placement::Kind::list;
  const int max_threads =
      static_cast<int>(pu_list ? std::min(spec.placement.list.size(), allowed.size()) : allowed.size());
  if (s != Scenario::mix)
    spec.threads = parse_threads(c.threads.empty() ? "1..max" : c.threads, max_threads, format_pu_list(allowed),
                                 pu_list ? fmt::format("placement {}", spec.placement.label()) : std::string());
  spec.membind = parse_membind(c.membind);
  spec.pages = parse_pages(c.pages);
  spec.fills = parse_fills(c.fill.empty() ? "zero" : c.fill);
  const RepsSetting reps = parse_reps(c.reps);
  if (reps.automatic && s != Scenario::scaling)
    throw InputError(
        fmt::format("--reps auto applies to the scaling scenario; give --reps N for --scenario {}", to_string(s)));
  spec.reps = reps.reps;
  spec.reps_auto = reps.automatic;
  spec.target_pstdev_pct = c.target_pstdev;
  spec.max_reps = c.max_reps;
  spec.duration = parse_duration(c.duration);
  {  // One point's windows, as --duration's own cap: at most an hour (a typo of --reps must not take days).
    const int windows = spec.reps_auto ? std::max(spec.max_reps, spec.reps) : spec.reps;
    const double seconds = windows * std::chrono::duration<double>(spec.duration).count();
    if (seconds > 3600)
      throw InputError(fmt::format("{} {} x --duration {} = {:.1f} h of windows per point; at most 1 h per point "
                                   "(fewer repetitions or a shorter --duration)",
                                   spec.reps_auto ? "--max-reps" : "--reps", windows, c.duration, seconds / 3600));
  }
  // A spread is never negative: -5 flagged every point as unstable (0.8% > -5%).
  if (!(c.unstable_pct >= 0 && std::isfinite(c.unstable_pct)))
    throw InputError(fmt::format("bad --unstable-pct {}: use a percentage of 0 or more, e.g. --unstable-pct 5",
                                 c.unstable_pct));
  spec.unstable_pct = c.unstable_pct;
  for (const auto& [flag, v] : {std::pair{"--noisy-steal-pct", c.noisy_steal_pct}, std::pair{"--noisy-lost-pct", c.noisy_lost_pct}})
    if (!(v >= 0 && v <= 100))
      throw InputError(fmt::format("bad {} {}: use a percentage from 0 to 100, e.g. {} 2", flag, v, flag));
  spec.noise = NoiseLimits{c.noisy_steal_pct, c.noisy_lost_pct};
  spec.reject_noisy = c.reject_noisy;
  const auto note = [&](std::string n) {
    if (!n.empty() && std::find(scen.notes.begin(), scen.notes.end(), n) == scen.notes.end())
      scen.notes.push_back(std::move(n));
  };
  const auto same = [](const auto& v) { return fmt::format("{}", v); };
  const auto kernels_of = [&](std::string_view item) { return parse_kernels(item, cpu); };
  if (!c.sizes.empty()) note(repeats_note("--sizes", c.sizes, parse_sizes, size_label));
  if (!c.threads.empty() && s != Scenario::mix)
    note(repeats_note("--threads", c.threads, [&](std::string_view item) {
      return parse_threads(item, max_threads);
    }, same));
  if (!c.fill.empty()) note(repeats_note("--fill", c.fill, parse_fills, [](const Fill& f) { return f.label(); }));
  if (s == Scenario::scaling && !c.kernels.empty()) note(repeats_note("--kernels", c.kernels, kernels_of, same));
  if (s == Scenario::victim)
    for (const auto& [flag, text] : {std::pair{"--victim", &c.victim}, std::pair{"--aggressor", &c.aggressor}})
      if (!text->empty()) note(repeats_note(flag, *text, kernels_of, same));
  if (s == Scenario::scaling) note(drop_zero_only_kernels(spec.kernels, kernels, spec.fills));
  if (s == Scenario::victim) {
    const std::string victims = c.victim.empty() ? kernels : c.victim;
    const std::string aggressors = c.aggressor.empty() ? kernels : c.aggressor;
    scen.victims = parse_kernels(victims, cpu);
    scen.aggressors = parse_kernels(aggressors, cpu);
    note(drop_zero_only_kernels(scen.victims, victims, spec.fills));
    note(drop_zero_only_kernels(scen.aggressors, aggressors, spec.fills));
  }
  if (s == Scenario::mix && !c.mix.empty()) scen.mix = parse_mix(c.mix, cpu);
  if (s == Scenario::tlbflush) scen.entries = parse_entries(c.entries.empty() ? "1..512" : c.entries);
  return scen;
}

std::chrono::microseconds parse_duration(std::string_view text) {
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const std::string_view unit(p, static_cast<std::size_t>(text.data() + text.size() - p));
  double ms = -1;
  if (ec == std::errc() && p != text.data()) {
    if (unit.empty() && v >= 1 && v <= 3.6e6)  // a bare number: ms, us or s? say so rather than guess
      throw InputError(fmt::format("bad --duration '{}': no unit; did you mean {}ms (or {}s)?", text, text, text));
    if (unit == "ms") ms = v;
    else if (unit == "s") ms = v * 1000;
    else if (unit == "us") ms = v / 1000;
    else if (unit == "min") ms = v * 60e3;
    else if (unit == "h") ms = v * 3.6e6;
  }
  // "200 ms" quoted as one argument: the unit is known, the space is not (as --sizes says).
  if (std::string_view u = unit; ec == std::errc() && !u.empty() && u.front() == ' ') {
    while (!u.empty() && u.front() == ' ') u.remove_prefix(1);
    for (const char* known : {"us", "ms", "s", "min", "h"})
      if (u == known)
        throw InputError(fmt::format("bad --duration '{}': a space between the number and its unit; write them as one "
                                     "word, {}{}",
                                     text, std::string_view(text.data(), static_cast<std::size_t>(p - text.data())), u));
  }
  if (!(ms >= 1 && ms <= 3.6e6))
    throw InputError(fmt::format("bad --duration '{}': use 1ms to 1h in us, ms, s, min or h, e.g. 200ms, 1.5ms, 1s or 1h", text));
  // Fractions are kept to the microsecond (1.5ms is 1500 us, not 1 ms).
  return std::chrono::microseconds(std::llround(ms * 1000));
}

}  // namespace bwlab
