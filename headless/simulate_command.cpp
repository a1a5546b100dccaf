// SPDX-License-Identifier: MIT
// `bwlab simulate`: predictions of the analytical model (core/model), in the schema of `run`.
#include <cerrno>
#include <cstring>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "core/report/cpu_name.hpp"
#include "core/errors.hpp"
#include "core/report/plural.hpp"
#include "core/report/terminal.hpp"
#include "core/kernels/kernels.hpp"
#include "core/model/fit.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/model/solver.hpp"
#include "core/model/validate.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/csv.hpp"
#include "core/report/input_file.hpp"
#include "core/report/json.hpp"
#include "core/report/scenario_table.hpp"
#include "core/report/units.hpp"
#include "core/scenario/choices.hpp"
#include "core/scenario/scenario.hpp"
#include "core/sweep/parse.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/version.hpp"
#include "headless/commands.hpp"
#include "headless/interrupt.hpp"
#include "headless/output_file.hpp"
#include "headless/stderr_line.hpp"

namespace bwlab::cli {
namespace {

// `given`: the machine as the user named it (a file, a preset), for a topology it carries.
Topology topology_for(const std::string& option, const MachineParams& m, const std::string& given) {
  if (!option.empty()) return Topology::from_spec(option);
  try {
    return Topology::from_spec(machine_topology(m));
  } catch (const InputError& e) {  // the user never typed this string: say where it comes from
    throw InputError(fmt::format("the topology of machine {}: {}", given, e.what()));
  }
}

// Skipped rows, by reason in the order first seen: each row when a reason has at most 3, else one
// line with their count and the first and last row (a whole simulated file is 1500 rows).
void print_skipped(const std::vector<model::SkippedRow>& skipped) {
  std::vector<std::pair<std::string, std::vector<const std::string*>>> by_reason;
  for (const auto& s : skipped) {
    auto it = std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& r) { return r.first == s.reason; });
    if (it == by_reason.end()) it = by_reason.insert(by_reason.end(), {s.reason, {}});
    it->second.push_back(&s.label);
  }
  for (const auto& [reason, labels] : by_reason) {
    if (labels.size() <= 3) {
      for (const std::string* label : labels) fmt::print("{:<44} skipped: {}\n", *label, reason);
      continue;
    }
    fmt::print("{:<44} skipped: {}\n",
               fmt::format("{} rows ({} .. {})", labels.size(), *labels.front(), *labels.back()), reason);
  }
}

void print_report(const model::ValidationReport& rep, const std::string& machine, double band) {
  fmt::print("per row: GB/s measured and predicted (relative figures have no unit), error = predicted / measured - 1 "
             "(+: the model is above); a point measured in several rows (runs) is numbered #1, #2, ...; rows of one point in "
             "different placements name theirs\n");
  fmt::print("{:<44} {:>10} {:>10} {:>8}\n", "row", "measured", "predicted", "error");
  std::map<std::string, int> total, seen;
  for (const auto& p : rep.points) ++total[p.obs.label];
  for (const auto& p : rep.points) {
    const std::string label =
        total[p.obs.label] > 1 ? fmt::format("{} #{}", p.obs.label, ++seen[p.obs.label]) : p.obs.label;
    fmt::print("{:<44} {:>10.2f} {:>10.2f} {:>+7.1f}%\n", label, p.obs.gbps, p.predicted, 100 * p.error);
  }
  print_skipped(rep.skipped);
  if (rep.points.empty()) {
    fmt::print("{}: no row could be compared\n", machine);
    return;
  }
  fmt::print("{}: {}, max |error| {:.1f}%, log-RMS error {:.3f} (predictions off by a typical factor of {:.2f})\n",
             machine, count_of(rep.points.size(), "row"), 100 * rep.max_abs_error, rep.log_rms, std::exp(rep.log_rms));
  if (const model::RatioError ratio = model::ratio_error(rep.points); ratio.figures > 0)
    fmt::print("{}: ratios between kernels, levels taken out: log-RMS error {:.3f} (a typical factor of {:.2f}) over {} "
               "at {} (size x threads, its rows merged by their median) holding 2+ kernels; each figure's "
               "ln(predicted / measured) minus its point's mean, so a factor common to every kernel of a point (a "
               "host slower that day, a sheet's DRAM efficiency) drops out: the error that decides the winner\n",
               machine, ratio.log_rms, std::exp(ratio.log_rms),
               count_of(static_cast<std::size_t>(ratio.figures), "kernel figure"),
               count_of(static_cast<std::size_t>(ratio.points), "point"));
  // How often the band a prediction carries (the CSV's min..max, which compare judges by) holds
  // the measurement: its top lowered to the DRAM peak of the point's nodes, as simulate writes it.
  std::size_t levels = 0, inside = 0, capped = 0;
  for (const auto& p : rep.points) {
    if (p.obs.relative) continue;
    ++levels;
    capped += p.band_hi < p.predicted * (1 + band) * (1 - 1e-9);
    if (p.obs.gbps >= p.band_lo && p.obs.gbps <= p.band_hi) ++inside;
  }
  if (levels > 0)
    fmt::print("{}: {} of {} measured figures within the model's band (prediction / {:.2f} .. prediction x {:.2f}{}, "
               "as simulate writes gbps_min..gbps_max and compare judges)\n",
               machine, inside, levels, 1 + band, 1 + band,
               capped > 0 ? fmt::format(", at {} lowered to the DRAM peak", count_of(capped, "point")) : "");
  if (rep.relative_points > 0)
    fmt::print("{}: {} of them {}, not GB/s (mean time of the kernels at the point over the "
               "kernel's time); their predictions are normalised the same way, so their error is an error of "
               "ratios between kernels, not of levels\n",
               machine, rep.relative_points, noun(rep.relative_points, "is a relative figure", "are relative figures"));
  const model::WinnerScore w = model::winner_accuracy(rep.points);
  if (w.pairs > 0)
    fmt::print("{}: winner (write-allocate vs NT where measured differ by > 10%): {} of {} right\n", machine, w.right,
               count_of(static_cast<std::size_t>(w.pairs), "pair"));
  for (const auto& s : model::stos_nt_scores(rep.points)) {
    if (s.thread_counts < 2) continue;
    auto at = [](int t) { return t > 0 ? fmt::format("at {} threads", t) : std::string("never"); };
    // What follows a change: the first winner ahead again, or the two within 10% from there on (a
    // change to a tie is not a new winner: SKX-2's prediction "changed" at 16 threads by 0.9%).
    auto after = [](const char* side, int change, int back, bool tie, const std::string& first) {
      std::vector<std::string> what;
      if (back > 0) what.push_back(fmt::format("{} ahead again at {} threads", first, back));
      if (tie) what.push_back(fmt::format("the two within 10% of each other from {} threads on (a tie, not a new "
                                          "winner)", change));
      return what.empty() ? std::string() : fmt::format("; {}: {}", side, fmt::join(what, ", "));
    };
    const std::string change =
        s.measured_change == 0 && s.predicted_change == 0 ? std::string("it never changes, measured or predicted")
        : !s.crossover_scored()
            ? fmt::format("no crossover to compare: measured, the two are within 10% of each other from {} threads on "
                          "(a tie, not a new winner); predicted, {}",
                          s.measured_change,
                          s.predicted_change > 0 ? "it changes " + at(s.predicted_change) : std::string("it never changes"))
            : fmt::format("it changes {} measured, {} predicted ({}){}{}", at(s.measured_change),
                          at(s.predicted_change),
                          s.change_within_one_doubling() ? "within one doubling" : "NOT within one doubling",
                          after("measured", s.measured_change, s.measured_back, s.measured_tie_after, s.first_winner),
                          after("predicted", s.predicted_change, s.predicted_back, s.predicted_tie_after,
                                s.predicted_first_winner));
    if (s.pairs == 0) {
      // Within 10% everywhere: which one is ahead is noise, and so is where "the winner" changes.
      fmt::print("{}: {} vs {} at {}{}: within 10% of each other at every thread count measured (a tie: no winner, "
                 "no crossover to compare)\n",
                 machine, s.stos_kernel, s.nt_kernel, format_bytes(s.size_bytes), s.zero_fill ? "" : ", non-zero fill");
      continue;
    }
    // Who leads at the fewest threads, measured and (when it differs) predicted.
    const std::string first = s.predicted_first_winner == s.first_winner
                                  ? fmt::format("{} ahead at the fewest threads, measured and predicted", s.first_winner)
                                  : fmt::format("{} ahead at the fewest threads measured, {} predicted", s.first_winner,
                                                s.predicted_first_winner);
    fmt::print("{}: {} vs {} at {}{}: right winner at {} of {} > 10% apart; {}; {}\n", machine, s.stos_kernel,
               s.nt_kernel, format_bytes(s.size_bytes), s.zero_fill ? "" : ", non-zero fill", s.right,
               count_of(s.pairs, "thread count"), first, change);
  }
  fmt::print("\n");
}

// The seed rows split in two: fitted on one half, predicted on the other (model::split_validate).
void print_split(const MachineParams& m, const std::vector<model::Observation>& rows, const Topology& topo) {
  const std::vector<std::string> params = model::fitted_params(m);
  if (params.empty() || rows.size() < 4) return;
  const model::SplitReport s = model::split_validate(m, params, rows, topo);
  fmt::print("{}: in-sample     (refit {} on {}): log-RMS error {:.3f}\n", m.name, fmt::join(params, ","),
             count_of(s.in_sample.points.size(), "row"), s.in_sample.log_rms);
  fmt::print("{}: out-of-sample ({}):  log-RMS error {:.3f}, max |error| {:.1f}%\n\n", m.name,
             count_of(s.out_of_sample.points.size(), "held-out row"), s.out_of_sample.log_rms, 100 * s.out_of_sample.max_abs_error);
}

int validate_command(const SimulateOptions& o) {
  check_input_file(o.validate);
  check_input_file(o.machine);
  std::ifstream in(o.validate);
  if (!in) throw InputError(fmt::format("cannot read {}: {}", o.validate, std::strerror(errno)));
  const model::ObservationSet set = model::read_observations(in, o.validate);
  // Seed and imported rows name their CPU: each is predicted by the preset of that CPU.
  const bool by_cpu = set.format == "seed" || set.format == "imported";
  MachinePtr given;
  if (!o.machine.empty()) given = load_machine(o.machine);
  if (!given && !by_cpu)
    throw InputError(fmt::format("--validate {}: give --machine (a preset, or a file from `bwlab machine spec` or "
                                 "`bwlab calibrate`); presets are: {}",
                                 o.validate, fmt::join(machine_presets(), ", ")));
  // Rows grouped by the machine that predicts them.
  std::map<std::string, std::pair<const MachineParams*, std::vector<model::Observation>>> by_machine;
  std::vector<model::SkippedRow> skipped = set.skipped;
  std::vector<std::pair<std::string, std::size_t>> no_preset;  // CPU and its rows: said once per CPU, not per row
  // A machine given for a file that holds its CPU's rows (the seeds: several machines) is judged on
  // those rows only; for a file of another CPU's rows (a public server's, imported) every row is
  // compared, with the note that the error includes the machines' difference, as for measured rows
  // (they were all refused, even against the machine calibrated from that very file).
  const bool own_rows = given && !given->cpu.empty() &&
                        std::any_of(set.rows.begin(), set.rows.end(), [&](const auto& r) { return same_cpu(r.cpu, given->cpu); });
  for (const auto& row : set.rows) {
    const MachineParams* m = given.get();
    if (by_cpu) {
      if (m && own_rows && !same_cpu(m->cpu, row.cpu)) {
        skipped.push_back({row.label, fmt::format("CPU {} is not machine {}'s", row.cpu, m->name)});
        continue;
      }
      if (!m) m = model::preset_for_cpu(row.cpu);
      if (!m) {
        const auto it = std::find_if(no_preset.begin(), no_preset.end(), [&](const auto& c) { return c.first == row.cpu; });
        if (it == no_preset.end())
          no_preset.emplace_back(row.cpu, 1);
        else
          ++it->second;
        continue;
      }
    }
    auto& slot = by_machine[m->name];
    slot.first = m;
    slot.second.push_back(row);
  }
  const std::string spec_hint =
      no_preset.empty() ? std::string()
                        : fmt::format("; for a CPU without a preset write its machine file from the spec sheet (`bwlab "
                                      "machine spec ... --out m.json`), then `bwlab simulate --validate {} --machine "
                                      "m.json`",
                                      o.validate);
  // Nothing to compare: the refusal is the one line on stderr, with why (it printed the header and
  // the skipped rows on stdout first).
  if (by_machine.empty()) {
    std::vector<std::string> why;
    if (!no_preset.empty()) {
      std::vector<std::string> cpus;
      for (const auto& [cpu, rows] : no_preset) cpus.push_back(fmt::format("{} ({})", cpu, count_of(rows, "row")));
      why.push_back(fmt::format("no preset for CPU {}", fmt::join(cpus, ", ")));
    }
    if (!skipped.empty()) {
      const auto other = static_cast<std::size_t>(std::count_if(
          skipped.begin(), skipped.end(), [&](const auto& r) { return r.reason != skipped.front().reason; }));
      why.push_back(fmt::format("{} skipped: {}{}", count_of(skipped.size() - other, "row"), skipped.front().reason,
                                other ? fmt::format(", {} for other reasons", count_of(other, "row")) : ""));
    }
    if (why.empty()) why.push_back("the file has no rows");
    throw InputError(fmt::format("--validate {}: no row could be compared ({}){}", o.validate, fmt::join(why, "; "),
                                 spec_hint));
  }
  const auto relative = std::count_if(set.rows.begin(), set.rows.end(), [](const auto& r) { return r.relative; });
  fmt::print("bwlab: simulated vs measured, {} ({} format); GB = 1e9 bytes{}{}\n", o.validate, set.format,
             set.format == "seed"       ? "; seed figures are perf bench GB/sec = GiB/s, converted x 1.0737, "
                                          "compared with a single timed pass"
             : set.format == "imported" ? "; imported figures as converted on import (see each point's flag), "
                                          "perf bench ones compared with a single timed pass"
                                        : "",
             relative > 0 ? fmt::format("; {} {} relative figures (ratios between the kernels of a point, not "
                                        "GB/s), compared as ratios",
                                        count_of(relative, "row"), noun(relative, "holds", "hold"))
                          : std::string());
  // A machine the user gave may not be the measured CPU's: said once per CPU, before the figures.
  if (given) {
    std::set<std::string> cpus;
    for (const auto& [name, slot] : by_machine)
      for (const auto& row : slot.second) cpus.insert(row.cpu);
    for (const std::string& cpu : cpus)
      if (const model::CpuMatch c = model::match_cpu(*given, cpu, o.validate); c.kind != model::CpuMatch::Kind::same)
        fmt::print("{}: {}\n", c.kind == model::CpuMatch::Kind::different ? "warning" : "note", c.text);
  }
  double worst = 0, sq = 0;
  std::size_t n = 0;
  for (auto& [name, slot] : by_machine) {
    const Topology topo = topology_for(o.topology, *slot.first, slot.first->name);
    model::plan_rows_for(slot.second, o.topology.empty() ? machine_topology(*slot.first) : o.topology, host_name());
    const model::ValidationReport rep = model::validate(slot.second, topo, *slot.first);
    print_report(rep, name, slot.first->band);
    if (set.format == "seed") print_split(*slot.first, slot.second, topo);
    worst = std::max(worst, rep.max_abs_error);
    sq += rep.log_rms * rep.log_rms * static_cast<double>(rep.points.size());
    n += rep.points.size();
  }
  print_skipped(skipped);
  for (const auto& [cpu, rows] : no_preset)
    fmt::print("skipped {} of CPU {}: no preset for it\n", count_of(rows, "row"), cpu);
  if (n == 0) throw InputError(fmt::format("--validate {}: no row could be compared{}", o.validate, spec_hint));
  if (by_machine.size() > 1)
    fmt::print("all: {}, max |error| {:.1f}%, log-RMS error {:.3f}\n", count_of(n, "point"), 100 * worst,
               std::sqrt(sq / static_cast<double>(n)));
  if (!no_preset.empty()) fmt::print("{}\n", spec_hint.substr(2));  // without "; "
  return 0;
}

}  // namespace

std::string machine_default_kernels(const CpuFeatures& cpu) {
  std::string nt = "movntdq";
  for (const char* name : {"avx512-nt", "avx2-nt"})
    if (kernel_availability(*find_kernel(name), cpu).available) {
      nt = name;
      break;
    }
  return "stosb,movnti," + nt;
}

int simulate_command(const SimulateOptions& o) {
  if (!o.validate.empty()) return validate_command(o);
  if (o.machine.empty())
    throw InputError(fmt::format("give --machine: a preset ({}) or a machine file from `bwlab machine spec` (a spec "
                                 "sheet) or `bwlab calibrate` (this machine)",
                                 fmt::join(machine_presets(), ", ")));
  check_input_file(o.machine);
  const MachinePtr m = load_machine(o.machine);
  const Topology topo = topology_for(o.topology, *m, o.machine);
  const CpuFeatures cpu = m->cpu_features();

  const Scenario scenario = parse_scenario(o.scenario);
  if (scenario == Scenario::pagefault || scenario == Scenario::tlbflush)
    throw InputError(fmt::format("--scenario {} is measure-only: the operating system clears or unmaps there, which "
                                 "the model does not describe; it predicts the scaling, victim and mix scenarios; "
                                 "measure it with `bwlab run --scenario {}`",
                                 to_string(scenario), to_string(scenario)));
  {
    RunChoices given;
    given.kernels = o.kernels;
    given.victim = o.victim;
    given.aggressor = o.aggressor;
    given.mix = o.mix;
    given.threads = o.threads_given ? o.threads : std::string();
    check_options_apply(given, scenario);
    check_kernels_read(given, scenario);  // as run refuses it (simulate used the victims and aggressors, silently)
  }
  if (scenario != Scenario::scaling && o.explain)
    throw InputError(fmt::format("--explain covers the scaling scenario; it does not explain {} points yet (simulate "
                                 "a kernel with --scenario scaling --explain to see its limits)",
                                 to_string(scenario)));
  SweepSpec spec;
  const std::string kernels = o.kernels.empty() ? default_kernels(cpu) : o.kernels;
  spec.kernels = parse_kernels(kernels, cpu, m->name);
  spec.sizes = parse_sizes(o.sizes);
  // The model's PUs bound the thread counts, not this process's (unless the model is this machine);
  // a PU list, its length ("max" was the topology's 104 PUs beside --placement 0,2,4,6).
  // --placement none: the OS places the threads. Linux's scheduler balances load over packages,
  // their LLC domains and cores before it doubles up SMT siblings (model::os_placed_pus, docs/model.md).
  spec.placement = parse_placement(o.placement);
  const bool pu_list = spec.placement.kind == Placement::Kind::list;
  const int max_threads = max_threads_for(topo, spec.placement);
  // victim: 1..max would be a row per aggressor count (104 on a 2-socket preset, per victim and
  // aggressor pair): by default the doubling counts and max, as the demo's heat map shows them.
  std::string threads_text = o.threads;
  if (scenario == Scenario::victim && !o.threads_given) {
    std::vector<int> counts;
    for (int t = 1; t < max_threads; t *= 2) counts.push_back(t);
    counts.push_back(max_threads);
    threads_text = fmt::format("{}", fmt::join(counts, ","));
  }
  spec.threads = parse_threads(threads_text, max_threads, {},
                               pu_list                ? fmt::format("placement {}", spec.placement.label())
                               : topo.is_this_system() ? std::string()
                               : o.topology.empty()   ? fmt::format("machine {}'s topology {}", m->name, topo.origin())
                                                      : fmt::format("--topology {}", topo.origin()));
  spec.membind = parse_membind(o.membind);
  spec.pages = parse_pages(o.pages);
  spec.fills = parse_fills(o.fill);
  std::vector<std::string> notes;
  const auto note = [&](std::string n) {
    if (!n.empty() && std::find(notes.begin(), notes.end(), n) == notes.end()) notes.push_back(std::move(n));
  };
  if (!o.topology.empty()) note(llc_note(topo, *m)), note(shape_note(topo, *m));
  // A machine file calibrated to disturbed points (calibrate warned, and exited 3) predicted from
  // its figures without a word: the warning was gone with calibrate's terminal.
  std::vector<std::string> implausible;
  for (const std::string& w : model::implausible_fits(*m, model::fitted_params(*m), nullptr))
    implausible.push_back(fmt::format("warning: machine {}: {}; its predictions rest on a fitted figure no hardware "
                                      "has (calibrate again on a quieter host, or fit fewer parameters)",
                                      m->name, w));
  std::vector<std::string> victims, aggressors;
  if (scenario == Scenario::victim) {
    const std::string v = o.victim.empty() ? kernels : o.victim, a = o.aggressor.empty() ? kernels : o.aggressor;
    victims = parse_kernels(v, cpu, m->name);
    aggressors = parse_kernels(a, cpu, m->name);
    note(kernels_all_unavailable(v, cpu, m->name));  // one note when both are "all"
    note(kernels_all_unavailable(a, cpu, m->name));
    note(drop_zero_only_kernels(victims, v, spec.fills));
    note(drop_zero_only_kernels(aggressors, a, spec.fills));
  } else if (scenario == Scenario::scaling) {
    note(kernels_all_unavailable(o.kernels, cpu, m->name));
    note(drop_zero_only_kernels(spec.kernels, o.kernels, spec.fills));
  }
  if (scenario == Scenario::victim && !o.threads_given)
    note(fmt::format("victim: threads {} (1 victim + k aggressors, doubling; --threads 1..max gives every count)",
                     threads_text));
  if (scenario == Scenario::victim && *std::max_element(spec.threads.begin(), spec.threads.end()) == 1)
    note("victim with 1 thread predicts only the baseline (k = 0); use --threads 1..max");
  std::vector<std::pair<std::string, int>> mix;
  if (scenario == Scenario::mix) {
    if (o.mix.empty()) throw InputError("--scenario mix needs --mix, e.g. --mix stosb:13,avx512-nt:13");
    for (const MixPart& part : parse_mix(o.mix, cpu, m->name)) mix.emplace_back(part.kernel, part.threads);
  }
  spec.reps = 0;
  spec.duration = parse_duration(o.duration);
  check_distinct_outputs({{"--csv", o.csv}, {"--json", o.json}});
  check_output_suffixes({{"--csv", o.csv}, {"--json", o.json}});
  check_not_an_input({"--csv", o.csv}, {o.machine});  // a machine file, when --machine names one
  check_not_an_input({"--json", o.json}, {o.machine});
  if (!o.csv.empty()) check_writable(o.csv);
  if (!o.json.empty()) check_writable(o.json);

  // Ctrl-C while the points are solved or written (a big sweep's JSON takes seconds) stops before
  // the next file and says which were written: it killed the process, leaving a new CSV beside an
  // earlier run's JSON without a word. Each file is written whole or not at all.
  std::optional<InterruptGuard> interrupt(std::in_place);
  std::vector<std::string> written;
  const auto stopped_before = [&](std::vector<std::string> unwritten) {
    if (!interrupt->interrupted()) return false;
    std::erase(unwritten, std::string());
    const std::vector<std::string> earlier = existing_files(unwritten);  // an earlier run's, left as they were
    const std::string left = earlier.empty() ? std::string()
                                             : fmt::format(" (the earlier {} {} left as {})", fmt::join(earlier, " and "),
                                                           earlier.size() == 1 ? "is" : "are",
                                                           earlier.size() == 1 ? "it was" : "they were");
    if (written.empty())
      fmt::print(stderr, "\nbwlab: interrupted by {}; nothing was written{}\n", interrupt->signal_name(), left);
    else
      fmt::print(stderr, "\nbwlab: interrupted by {}; wrote {}{}{}\n", interrupt->signal_name(),
                 fmt::join(written, " and "),
                 unwritten.empty() ? std::string() : fmt::format("; {} not written", fmt::join(unwritten, " and ")),
                 left);
    return true;
  };
  std::vector<std::string> why;
  std::vector<Point> points = scenario == Scenario::victim ? simulate_victim(spec, victims, aggressors, topo, *m)
                              : scenario == Scenario::mix  ? simulate_mix(spec, mix, topo, *m)
                                                           : simulate_sweep(spec, topo, *m, o.explain ? &why : nullptr);

  RunInfo info;
  info.bwlab_version = kVersion;
  info.date = utc_now_iso8601();
  info.command_line = o.command_line;
  info.host = "model:" + m->name;
  info.cpu_model_name = m->cpu;
  info.cpu_flags_used = m->features;
  info.topology = topo.summary();
  info.warnings.push_back(fmt::format("simulated, not measured: machine {} ({}); {}", m->name, m->description,
                                      m->provenance));
  info.machine = simulated_machine_json(*m, topo);  // the machine the points were simulated on, on their topology
  info.warnings.insert(info.warnings.end(), implausible.begin(), implausible.end());
  if (stopped_before({o.csv, o.json})) return interrupt->exit_code();
  if (!o.csv.empty()) {
    write_file_atomically(o.csv, csv_text(points));
    written.push_back(o.csv);
  }
  if (!o.json.empty()) {
    std::ostringstream s;
    write_json(s, info, points);
    if (stopped_before({o.json})) return interrupt->exit_code();
    write_file_atomically(o.json, s.str());
    written.push_back(o.json);
  }
  if (stopped_before({})) return interrupt->exit_code();
  interrupt.reset();  // from here on Ctrl-C ends the table's printing at once
  for (const std::string& w : implausible) fmt::print(stderr, "bwlab simulate: {}\n", w);  // even with --quiet
  if (!o.quiet) {
    for (const std::string& n : notes) print_stderr_line("note: " + n);
    print_stderr_line(
        fmt::format("simulated {} with machine {} on {}", count_of(points.size(), "point"), m->name, topo.summary()));
    if (!o.csv.empty() || !o.json.empty())
      fmt::print(stderr, "wrote {}{}{}\n", o.csv, !o.csv.empty() && !o.json.empty() ? " and " : "", o.json);
  }
  print_scenario_tables(std::cout, points, detect_terminal_style(STDOUT_FILENO));
  if (o.explain) {
    fmt::print("\nWhy (model, per point):\n");
    for (const auto& w : why) fmt::print("{}", w);
  }
  return 0;
}


Command add_simulate_command(CLI::App& app, const std::string& command_line) {
  auto o = std::make_shared<SimulateOptions>();
  o->command_line = command_line;
  CLI::App* sub = app.add_subcommand("simulate", "predict a sweep with the analytical model (any machine, no measuring)");
  sub->add_option("-m,--machine", o->machine, "a preset (skylake-x-8270cl, icelake-x-8358, broadwell-x-e5-2630v4, "
                      "tigerlake-i7-1165g7) or a JSON file from 'bwlab calibrate' or 'bwlab machine spec'");
  sub->add_option("--topology", o->topology, "local, a file.xml, or a synthetic string such as 'package:2 numa:1 core:26 pu:2' (default: the machine's)");
  sub->add_option("--scenario", o->scenario,
                  "scaling (every thread runs each kernel), victim (one victim thread beside k = 0..n-1 aggressors: "
                  "its GB/s and slowdown against k = 0) or mix (threads split between kernels in one solve); "
                  "pagefault and tlbflush are measured only (bwlab run)")
      ->capture_default_str();
  sub->add_option("-k,--kernels", o->kernels, "as for run (default stosb, movnti and the machine's widest NT kernel)");
  sub->add_option("--victim", o->victim, "victim: the victim's kernels (a list makes a matrix with --aggressor)")
      ->default_str("--kernels");
  sub->add_option("--aggressor", o->aggressor, "victim: the aggressors' kernels")->default_str("--kernels");
  sub->add_option("--mix", o->mix,
                  "mix: kernel:threads pairs, e.g. stosb:13,avx512-nt:13; they set the threads, placed in order on "
                  "the --placement plan (compact: the first part's on the first cores, so two halves of a 2-socket "
                  "machine land on different sockets; scatter alternates them)");
  sub->add_option("-s,--sizes", o->sizes, "bytes per thread, as for run")->capture_default_str();
  sub->add_option("-t,--threads", o->threads, "thread counts, as for run (max = PUs of the topology, or the length of a --placement PU list); victim: 1 victim "
                  "+ k aggressors, by default the doubling counts 1,2,4,...,max")->capture_default_str();
  sub->add_option("-p,--placement", o->placement, "compact, scatter, a PU list, or none (the OS places threads: "
                  "modelled as one thread per core, spread over packages and their LLC domains (AMD CCDs), "
                  "before SMT siblings)")->capture_default_str();
  sub->add_option("--membind", o->membind, "local, remote (the next node after the thread's), interleave or node:N; "
                  "modelled (remote memory goes through the inter-socket link; another node of the threads' own "
                  "package is modelled as local, said in a flag)")->capture_default_str();
  sub->add_option("--pages", o->pages, "4k, thp, hugetlb2m or hugetlb1g: recorded, not modelled (predicted as 4k, "
                  "said in a flag)")->capture_default_str();
  sub->add_option("-f,--fill", o->fill, "zero, 0xNN or perf, a comma list, as for run; modelled for rep stos: a "
                  "non-zero fill keeps the machine's stos_evasion_nonzero share of its RFO evasion (none on Zen 3 "
                  "and Zen 4, all elsewhere); otherwise predicted as zero (said in a flag)")->capture_default_str();
  sub->add_option("-d,--duration", o->duration, "the window the predicted bytes refer to")->capture_default_str();
  sub->add_option("--csv", o->csv, "write the predicted points (same schema as run, source=simulated)");
  sub->add_option("--json", o->json, "write the predicted points as JSON");
  sub->add_option("--validate", o->validate,
                  "compare predictions with a measured CSV (bwlab's or the seed's) and print per-row and log-RMS "
                  "error, the same error for the ratios between kernels (each point's level taken out, so a host "
                  "slower that day drops out), the winner accuracy and where the stosb/NT winner changes, instead "
                  "of sweeping (rows flagged \"relative figure\" are compared as ratios between the kernels of their "
                  "point); it takes --machine, --topology and --quiet, no sweep option or output");
  sub->add_flag("-q,--quiet", o->quiet, "no notes or summary on stderr; a machine file's implausible fit is still warned of");
  sub->add_flag("--explain", o->explain, "also print, per point, bytes moved per byte cleared, the binding limit and loaded latency");
  sub->footer("\nExamples:\n  bwlab simulate --machine skylake-x-8270cl --kernels stosb,movnti --sizes 1G --threads 1..104\n"
                  "  bwlab simulate --machine icelake-x-8358 --topology 'package:2 numa:1 core:32 pu:2' --membind node:1\n"
                  "  bwlab simulate --machine skylake-x-8270cl --scenario victim --victim stosb --aggressor avx512-nt,stosb "
                  "--sizes 1G --threads 1..52\n"
                  "  bwlab simulate --machine skylake-x-8270cl --scenario mix --mix stosb:13,avx512-nt:13 --sizes 1G\n"
                  "  bwlab simulate --validate tests/data/seed-memset.csv   (installed: share/doc/bwlab/seed-memset.csv)\n"
                  "  bwlab simulate --machine machine.json --validate measured.csv\n"
                  "A table row ending in * has notes, in the * lines below the table (what the model assumed there).\n"
                  "The model and its sources: docs/model.md (installed: share/doc/bwlab/model.md). Exit codes: 0 done, 1 run-time failure, 2 bad input, 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (each file is written whole or not at all; stderr says which were written).\n");

  return {sub, [o, sub] {
            // --validate predicts the file's own points: sweep options and outputs would be silently
            // unused. Checked here, not with CLI11's excludes, which printed "Excludes: --validate"
            // under every sweep option of --help.
            if (sub->count("--validate") > 0)
              for (const char* sweep : {"--scenario", "--kernels", "--victim", "--aggressor", "--mix", "--sizes", "--threads",
                                        "--placement", "--membind", "--pages", "--fill", "--duration", "--csv", "--json",
                                        "--explain"})
                if (sub->count(sweep) > 0)
                  throw InputError(fmt::format("{} excludes --validate: --validate predicts the points of its file, so "
                                               "{} would go unused (run the sweep without --validate)",
                                               sweep, sweep));
            o->threads_given = sub->count("--threads") > 0;
            return simulate_command(*o);
          }};
}

}  // namespace bwlab::cli
