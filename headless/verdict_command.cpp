// SPDX-License-Identifier: MIT
#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/insight/glibc_threshold.hpp"
#include "core/insight/load.hpp"
#include "core/insight/quirk_table.hpp"
#include "core/insight/verdict.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/model/validate.hpp"
#include "core/kernels/kernels.hpp"
#include "core/model/machine.hpp"
#include "core/report/input_file.hpp"
#include "core/report/table.hpp"
#include "core/model/simulate.hpp"
#include "core/model/solver.hpp"
#include "core/sweep/parse.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"
#include "headless/commands.hpp"
#include "headless/stderr_line.hpp"
#include "headless/wrapped_stdout.hpp"

namespace bwlab::cli {

double parse_percent(const std::string& text, const char* option) {
  std::string s = text;
  const bool percent_sign = !s.empty() && s.back() == '%';
  if (percent_sign) s.pop_back();
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size() || !std::isfinite(v) || v > 1000)
    throw InputError(fmt::format("bad {} '{}': use a percentage such as 5%", option, text));
  if (v < 0) throw InputError(fmt::format("bad {} '{}': a percentage here cannot be negative", option, text));
  if (!percent_sign && v > 0 && v < 1)
    throw InputError(fmt::format("bad {} '{}': the value is a percentage; did you mean {:g}%? (write {}% to mean {} "
                                 "percent)",
                                 option, text, v * 100, text, text));
  return v;
}

void print_run_verdict(std::ostream& out, std::span<const Point> points, const std::string& heading) {
  if (!verdict_applicable(points)) return;
  const auto verdicts = compute_verdicts(points);
  if (verdicts.empty()) return;
  out << "\n";
  if (!heading.empty()) out << heading << "\n";
  const Topology here = Topology::local();
  VerdictOptions vo;
  vo.llc_bytes = here.llc_bytes(), vo.llc_count = here.llc_count(), vo.this_host = host_name();
  print_verdicts(out, verdicts, vo);
  out << llc_resident_note(verdicts, here.llc_bytes(), host_name(), here.llc_count());
  print_glibc_comparison(out, read_glibc_info(), verdicts, host_name(), here.llc_bytes(), here.llc_count());
  out << shared_pu_note(points);
}

namespace {

// The model's points for `m` on its own topology (the full preset topology, as `bwlab simulate`).
std::vector<Point> predict(const MachineParams& m, const Topology& topo, const std::vector<std::string>& kernels,
                           const std::vector<std::uint64_t>& sizes, const std::vector<int>& threads,
                           const std::vector<Fill>& fills, const std::string& placement = "compact",
                           const std::string& membind = "local") {
  SweepSpec spec;
  spec.kernels = kernels;
  spec.sizes = sizes;
  spec.threads = threads;
  spec.fills = fills;
  spec.placement = parse_placement(placement);
  spec.membind = parse_membind(membind);
  spec.pages = parse_pages("4k");
  spec.reps = 0;
  return simulate_sweep(spec, topo, m);
}

// glibc 2.36's formula on the machine's LLC (L2 not modelled: counted as inclusive L3) beside the
// predicted crossovers of every stosb pair: the glibc threshold advice for a machine you do not have.
void print_predicted_glibc_advice(std::ostream& out, const MachineParams& m, const Topology& topo,
                                  std::span<const PairVerdict> verdicts) {
  CacheFigures c;
  c.l3_bytes = m.llc_bytes_per_package;
  c.threads_sharing_l3 = static_cast<int>(topo.allowed_pus().size()) / std::max(1, topo.packages());
  c.l3_inclusive = true;
  const std::uint64_t formula = glibc236_nt_threshold(c);
  std::string s = fmt::format("\n{}== glibc threshold advice for {} (predicted, not measured) ==\n", kPredictionTag,
                              m.name);
  s += fmt::format("{}glibc 2.36 formula with the machine's LLC ({} per package, {} threads sharing it; L2 not "
                   "modelled): 3/4 x {} / {} = {}\n",
                   kPredictionTag, format_bytes(c.l3_bytes), c.threads_sharing_l3, format_bytes(c.l3_bytes),
                   c.threads_sharing_l3, format_bytes(formula));
  for (const PairVerdict& v : verdicts) {
    if (v.wa_kernel != "stosb" || v.fill != "zero") continue;
    // Consecutive thread counts with the same advice share one line ("at 1..8T (8 thread counts)").
    std::vector<std::pair<std::vector<int>, std::string>> lines;
    for (const ThreadsVerdict& t : v.rows) {
      std::string advice;
      const bool crosses = t.crossover == CrossoverKind::interpolated || t.crossover == CrossoverKind::below_range;
      // The crossover by medians, said beside a call it does not make ("; by medians it overtakes ~7.37MiB").
      const std::string medians = crosses ? fmt::format("; by medians it overtakes {}", crossover_text(t)) : "";
      // Ahead at the largest size, or level there and ahead at smaller sizes: the verdict's NT good.
      if (counts_as_ahead(t) && crosses) {
        const std::uint64_t at = t.crossover == CrossoverKind::interpolated
                                     ? static_cast<std::uint64_t>(t.crossover_bytes)
                                     : t.bracket_hi;
        // NT ahead at every size simulated: the crossover is somewhere at or below `at`, so glibc can
        // be called late (above 2x `at`) but never early.
        const bool below = t.crossover == CrossoverKind::below_range;
        advice = fmt::format("{} overtakes stosb {}; glibc's formula switches at {}: {}", v.nt_kernel,
                             crossover_text(t), format_bytes(formula),
                             formula > 2 * at ? "glibc switches late, a lower threshold would pay: " +
                                                    glibc_tunables_line("x86_non_temporal_threshold", at, {})
                             : below ? fmt::format("the crossover lies at or below {}, so glibc may switch at the "
                                                   "right size; simulate smaller sizes (--sizes) to place it",
                                                   format_bytes(at))
                             : 2 * formula < at ? "glibc switches early, a higher threshold would pay: " +
                                                      glibc_tunables_line("x86_non_temporal_threshold", at, {})
                                                : std::string("within a factor of 2 of the predicted crossover"));
      } else if (counts_as_behind(t)) {
        // Behind at the largest size, or level there and behind at smaller sizes: the verdict's NT slow.
        advice = fmt::format("{} never overtakes stosb beyond the model's uncertainty (up to {}{}): MOVNT_SLOW, keep "
                             "rep stosb; {}",
                             v.nt_kernel, format_bytes(t.largest), medians,
                             formula > t.largest
                                 ? fmt::format("glibc's formula ({}) is above every size simulated, as it should be",
                                               format_bytes(formula))
                                 : fmt::format("glibc's {} threshold would switch to NT too early", format_bytes(formula)));
      } else if (t.standing == Standing::tie) {
        // Level within the model's uncertainty and behind nowhere: no call either way, no tunable.
        advice = fmt::format("{} and stosb are level within the model's uncertainty at {}{}: the model makes no "
                             "call, for glibc's {} threshold or against it",
                             v.nt_kernel, format_bytes(t.largest), medians, format_bytes(formula));
      } else {
        continue;
      }
      if (!lines.empty() && lines.back().second == advice) lines.back().first.push_back(t.threads);
      else lines.push_back({{t.threads}, advice});
    }
    for (const auto& [threads, advice] : lines) {
      const std::string at = threads.size() >= 3 ? threads_range_label(threads.front(), threads.back(), threads.size())
                             : threads.size() == 2 ? fmt::format("{}T and {}T", threads[0], threads[1])
                                                   : fmt::format("{}T", threads[0]);
      s += fmt::format("{}{} vs stosb at {}: {}\n", kPredictionTag, v.nt_kernel, at, advice);
    }
  }
  out << s;
}

int verdict_for_machine(const VerdictArgs& o, const VerdictOptions& vo) {
  const MachinePtr m = load_machine(o.machine);
  const Topology topo = Topology::from_spec(machine_topology(*m));
  const CpuFeatures cpu = m->cpu_features();
  const auto kernels = parse_kernels(o.kernels.empty() ? default_kernels(cpu) : o.kernels, cpu, m->name);
  const auto sizes = parse_sizes(o.sizes.empty() ? "2M..4G" : o.sizes);
  const Placement placement = parse_placement(o.placement.empty() ? "compact" : o.placement);
  const auto threads = parse_threads(
      o.threads.empty() ? "1,max" : o.threads, max_threads_for(topo, placement), {},
      placement.kind == Placement::Kind::list ? fmt::format("placement {}", placement.label())
      : topo.is_this_system()                 ? std::string()
                                              : fmt::format("machine {}'s topology {}", m->name, topo.origin()));
  const std::vector<Point> points = predict(*m, topo, kernels, sizes, threads, parse_fills("zero"),
                                           o.placement.empty() ? "compact" : o.placement,
                                           o.membind.empty() ? "local" : o.membind);
  const auto verdicts = compute_verdicts(points, vo);
  if (verdicts.empty())
    throw InputError(fmt::format("--machine {}: --kernels needs a write-allocate and a non-temporal kernel "
                                 "(e.g. --kernels stosb,movnti)",
                                 o.machine));
  std::cout << fmt::format("bwlab verdict --machine {}: predicted by the analytical model on its topology, {}; "
                           "nothing was measured.\n",
                           m->name, topo.summary());
  print_verdicts(std::cout, verdicts, vo);
  std::cout << predicted_llc_resident_note(
      verdicts, m->llc_bytes_per_package * model::shape_of(topo).cores_per_package.size(), m->name);
  print_predicted_glibc_advice(std::cout, *m, topo, verdicts);
  return 0;
}

// The caches a file recorded with its points: a JSON run's, or a fleet CSV's when all its rows are
// one host's (merge of one run) with one LLC recorded.
struct RecordedLlc {
  std::string host, cpu_model;
  std::uint64_t bytes = 0;
  int count = 1;
};
std::optional<RecordedLlc> recorded_llc(const LoadedPoints& in) {
  if (in.run) {
    if (in.run->llc_bytes == 0) return std::nullopt;
    return RecordedLlc{in.run->host, in.run->cpu_model_name, in.run->llc_bytes, std::max(1, in.run->llc_count)};
  }
  if (in.kind != PointFileKind::fleet_csv || in.points.empty() || in.cpus.empty() || in.cpus.front().llc_bytes == 0)
    return std::nullopt;
  for (std::size_t i = 0; i < in.points.size(); ++i)
    if (in.points[i].host != in.points.front().host || in.cpus[i].llc_bytes != in.cpus.front().llc_bytes ||
        in.cpus[i].llc_count != in.cpus.front().llc_count)
      return std::nullopt;
  return RecordedLlc{in.points.front().host, in.points.front().cpu_model, in.cpus.front().llc_bytes,
                     std::max(1, in.cpus.front().llc_count)};
}

// Whose LLC judges FILE's measured calls, as the plain verdict takes it: the recording host's when
// the run is another machine's and recorded its LLC, else this machine's.
VerdictOptions with_llc_of(const LoadedPoints& in, VerdictOptions vo) {
  if (const auto r = recorded_llc(in); r && !same_machine(r->host, r->cpu_model, host_name(), vo.this_cpu)) {
    vo = judged_by_llc_of(std::move(vo), r->host, r->bytes, r->count);
  } else {
    const Topology here = Topology::local();
    vo.llc_bytes = here.llc_bytes(), vo.llc_count = here.llc_count(), vo.this_host = host_name();
  }
  return vo;
}

int verdict_against_model(const LoadedPoints& in, const VerdictArgs& o, const VerdictOptions& vo) {
  const MachinePtr m = load_machine(o.against_model);
  const Topology topo = Topology::from_spec(machine_topology(*m));
  const CpuFeatures cpu = m->cpu_features();
  const int max_pus = static_cast<int>(topo.allowed_pus().size());
  std::vector<std::string> kernels, notes;
  std::set<std::uint64_t> sizes;
  std::set<int> threads;
  std::set<std::string> fill_labels;
  for (const Point& p : in.points) {
    if (p.source == "simulated")
      throw InputError(fmt::format("--against-model: {} holds simulated points; give a measured run", o.file));
    if (p.scenario != "scaling") continue;
    if (std::find(kernels.begin(), kernels.end(), p.kernel) == kernels.end()) kernels.push_back(p.kernel);
    sizes.insert(p.size_bytes);
    if (p.threads <= max_pus) threads.insert(p.threads);
    fill_labels.insert(p.fill);
  }
  std::set<std::string> cpus;
  for (const Point& p : in.points) cpus.insert(p.cpu_model);
  for (const std::string& c : cpus)
    if (const model::CpuMatch match = model::match_cpu(*m, c, o.file); match.kind != model::CpuMatch::Kind::same)
      notes.push_back(match.text);
  std::vector<std::string> usable;
  for (const std::string& k : kernels) {
    const KernelInfo* info = find_kernel(k);
    if (info && kernel_availability(*info, cpu).available) usable.push_back(k);
    else notes.push_back(fmt::format("kernel {} is not available on machine {}: not predicted", k, m->name));
  }
  // A fill the file does not state (imported: "unknown") is its own context: predicted as a zero fill
  // (the model's default) and labelled "unknown", so that it is set beside the file's own points.
  const bool unknown_fill = fill_labels.erase("unknown") + fill_labels.erase("") > 0;
  std::string fill_text;
  for (const std::string& f : fill_labels) fill_text += (fill_text.empty() ? "" : ",") + f;
  if (usable.empty() || sizes.empty() || threads.empty())
    throw InputError(fmt::format("--against-model {}: no scaling point of {} can be predicted on that machine",
                                 o.against_model, o.file));
  const auto measured = compute_verdicts(in.points, vo);
  const std::vector<std::uint64_t> size_list(sizes.begin(), sizes.end());
  const std::vector<int> thread_list(threads.begin(), threads.end());
  std::vector<Point> model_points;
  if (!fill_labels.empty()) model_points = predict(*m, topo, usable, size_list, thread_list, parse_fills(fill_text));
  if (unknown_fill) {
    for (Point& p : predict(*m, topo, usable, size_list, thread_list, parse_fills("zero"))) {
      p.fill = "unknown";
      model_points.push_back(std::move(p));
    }
    notes.push_back(fmt::format("{} does not state the fill (fill unknown): predicted as a zero fill, the model's "
                                "default; a non-zero fill may change stosb's prediction",
                                o.file));
  }
  const auto predicted = compute_verdicts(model_points, vo);
  std::cout << "== measured ==\n";
  // The measured calls keep the plain verdict's cache caveat: rows that fit in the LLC judge cached
  // clears (it was dropped here: "NT slow" of in-cache rows read as the large-clear call).
  const VerdictOptions mvo = with_llc_of(in, vo);
  print_verdicts(std::cout, measured, mvo);
  std::cout << llc_resident_note(measured, mvo.llc_bytes, mvo.this_host, mvo.llc_count, mvo.llc_whose, mvo.this_cpu);
  std::cout << fmt::format("\n== predicted by the model for {} (same kernels, sizes, threads; compact, local, 4k) ==\n",
                           m->name);
  print_verdicts(std::cout, predicted, vo);
  for (const std::string& n : notes) std::cout << "note: " << n << "\n";
  const auto diffs = verdict_disagreements(measured, predicted);
  std::cout << fmt::format("\n== measured vs predicted ({}) ==\n", m->name);
  if (diffs.empty()) std::cout << "measured and predicted calls agree on every pair and thread count judged by both\n";
  for (const std::string& d : diffs) std::cout << "disagree: " << d << "\n";
  return 0;
}

}  // namespace

int verdict_command(const VerdictArgs& o) {
  const WrappedStdout wrapped;  // on a terminal, its prose wraps at the width
  bwlab::VerdictOptions vo;
  vo.max_spread_pct = parse_percent(o.max_spread, "--max-spread");
  vo.model_band_pct = parse_percent(o.model_band, "--model-band");
  if (vo.model_band_pct <= 0 || vo.model_band_pct >= 100)
    throw InputError(fmt::format("bad --model-band '{}': use a percentage above 0 and below 100", o.model_band));
  if (!o.by.empty() && o.by != "cpu") throw InputError(fmt::format("bad --by '{}': the only grouping is 'cpu'", o.by));
  if (!o.machine.empty() && !o.file.empty())
    throw InputError("give either FILE (judge a run) or --machine (predict and judge), not both");
  if (o.machine.empty() && o.file.empty())
    throw InputError("give FILE (a bwlab CSV or JSON) or --machine PRESET|FILE");
  if (o.machine.empty() &&
      (!o.threads.empty() || !o.sizes.empty() || !o.kernels.empty() || !o.placement.empty() || !o.membind.empty()))
    throw InputError("--threads, --sizes, --kernels, --placement and --membind go with --machine (a FILE's verdict uses "
                     "its own points)");
  if (!o.machine.empty() && (!o.by.empty() || !o.against_model.empty()))
    throw InputError("--machine cannot be combined with --by or --against-model");
  if (!o.against_model.empty() && !o.by.empty()) throw InputError("--against-model cannot be combined with --by");
  check_input_file(o.machine);
  check_input_file(o.against_model);
  if (!o.machine.empty()) return verdict_for_machine(o, vo);
  const LoadedPoints in = load_points(o.file);
  if (in.points.empty()) throw InputError(fmt::format("{}: no points", o.file));
  vo.this_cpu = detect_cpu_features().model_name;  // this host name on another CPU is another machine
  if (const std::string w = partial_run_warning(in, o.file); !w.empty())
    print_stderr_line("warning: " + w + "; the verdict judges those");

  if (o.by == "cpu") {
    if (in.kind == PointFileKind::csv)
      throw InputError(fmt::format("--by cpu needs the CPU identity of every point: {} is a plain bwlab CSV; give a "
                                   "fleet CSV from 'bwlab merge' or a bwlab JSON file",
                                   o.file));
    std::vector<FleetRow> rows;
    for (std::size_t i = 0; i < in.points.size(); ++i) rows.push_back(FleetRow{in.cpus[i], in.points[i]});
    // Each host is judged by the caches its run recorded (quirk_table; a fleet CSV carries them
    // since llc_bytes,llc_count); a host that recorded none, by this machine's if it is this host.
    if (const Topology here = Topology::local(); here.llc_bytes() > 0)  // vo.this_cpu set above
      vo.llc_bytes = here.llc_bytes(), vo.llc_count = here.llc_count(), vo.this_host = host_name();
    const auto table = quirk_table(rows, vo);
    if (table.empty())
      throw InputError(fmt::format("{}: no host has a write-allocate and a non-temporal kernel measured at the same "
                                   "thread count; nothing to decide",
                                   o.file));
    print_quirk_table(std::cout, table, vo);
    return 0;
  }
  if (!o.against_model.empty()) return verdict_against_model(in, o, vo);
  // A fleet CSV's other hosts are judged by the caches their runs recorded, as --by cpu does.
  vo.recorded_llc = recorded_llcs(in);
  const auto verdicts = compute_verdicts(in.points, vo);
  if (verdicts.empty()) {
    throw InputError(fmt::format("{}: {}", o.file, no_verdict_reason(in.points)));
  }
  // A fleet's file, `run --host`, or a run of this host name on another CPU: judged by its own LLC.
  if (const auto r = recorded_llc(in); r && !same_machine(r->host, r->cpu_model, host_name(), vo.this_cpu)) {
    print_verdicts_of_another_host(std::cout, verdicts, vo, r->host, r->bytes, r->count);
  } else {
    const Topology here = Topology::local();
    print_verdicts_and_glibc(std::cout, verdicts, vo, read_glibc_info(), host_name(), here.llc_bytes(), here.llc_count());
  }
  std::cout << unpaired_points_note(in.points) << shared_pu_note(in.points);
  return 0;
}

namespace {

constexpr const char* kVerdictFooter = R"(
Examples:
  bwlab verdict results/latest.csv
  bwlab verdict fleet.csv --by cpu
  bwlab verdict --machine skylake-x-8270cl --threads 1,max   # predict and judge, nothing measured
  bwlab verdict results/latest.csv --against-model icelake-x-8358

For each pair of a write-allocate kernel (stosb, stosq, memset, ...) and a non-temporal one
(movnti, movntdq, avx2-nt, avx512-nt, clzero) and each thread count: the per-thread size where
NT overtakes by medians (interpolated in log size between the measured sizes, or "none in range"),
the speedup at the largest size with both spreads, and a recommendation: NT good (ahead at some
judged thread count, behind at none), NT slow (behind at some, ahead at none), depends on load
(ahead at some thread counts, behind at others), no difference (level at every one: "no difference
beyond the noise", for a prediction "within the model's uncertainty"), or cannot tell. A side is
called only when the min..max ranges over repetitions do not overlap; overlapping ranges with a
pstdev above --max-spread are "too noisy to tell"; fewer than 2 repetitions cannot be judged. One
size (a thread sweep, --sizes 256M) is judged at that size: which store wins there at each thread
count; the size crossover then needs more sizes. Then glibc's x86_non_temporal_threshold on this machine (glibc 2.36's formula and the
live value from ld.so --list-tunables) beside the measured crossover, with a GLIBC_TUNABLES line.
--by cpu (a fleet CSV from 'bwlab merge', or a JSON file) judges each host and gathers the
verdicts per CPU family/model/stepping and microcode into a quirk table.
Per size with >= 2 thread counts: the thread count where the winner changes (NT ahead -> level ->
behind, decided by the same range rule), or "none" with the standing at every thread count.
Simulated points (bwlab simulate, --machine, --against-model) are predictions: every line of
their verdict starts with "[prediction]"; they are judged by the model's low..high band, or when
a point carries none (min = max) by +-10% around its figure (--model-band): two predictions are
apart when their medians differ by more than the band reaches below its median (x/1.6 bands:
1.6x) and by more than 33% (the model's worst out-of-sample error of such ratios); both share
the machine's errors, so their ratio is surer than either level. --machine
simulates on the machine's full topology (placement compact and membind local unless --placement
and --membind say otherwise; 4k pages, zero fill) and adds glibc 2.36's
threshold from the machine's LLC beside the predicted calls, one line per run of thread counts
with the same advice: a tunable only where NT is ahead beyond the model's uncertainty, MOVNT_SLOW
where the verdict counts NT as behind, and "no call" where the two are level (a crossover by
medians is said beside, never acted on). --against-model prints FILE's verdict, the model's for the same
kernels/sizes/threads, and every call where they disagree; a fill FILE does not state (unknown)
is predicted as a zero fill, with a note.
Exit codes: 0 printed, 2 unusable input (unreadable, nothing to compare).
)";

}  // namespace

Command add_verdict_command(CLI::App& app) {
  auto o = std::make_shared<VerdictArgs>();
  CLI::App* sub =
      app.add_subcommand("verdict", "decide from a CSV/JSON where non-temporal stores overtake write-allocate ones");
  sub->add_option("FILE", o->file, "a bwlab CSV or JSON, or a fleet CSV from 'bwlab merge'");
  sub->add_option("--by", o->by, "cpu: one quirk-table row per CPU model and microcode (fleet CSV or JSON)");
  sub->add_option("--max-spread", o->max_spread,
                          "overlapping ranges with a pstdev above this are too noisy to tell")
      ->capture_default_str();
  sub->add_option("--machine", o->machine,
                  "predict and judge: a model preset or a machine file (`bwlab machine spec`, `bwlab calibrate`)");
  sub->add_option("-t,--threads", o->threads, "with --machine: thread counts (default 1,max)");
  sub->add_option("-s,--sizes", o->sizes, "with --machine: bytes per thread (default 2M..4G)");
  sub->add_option("-k,--kernels", o->kernels, "with --machine: default stosb,movnti,widest NT");
  sub->add_option("-p,--placement", o->placement,
                  "with --machine: compact (default), scatter or none (the OS places threads, as published runs), "
                  "as for simulate");
  sub->add_option("--membind", o->membind, "with --machine: local (default), interleave, node:N..., as for simulate");
  sub->add_option("--against-model", o->against_model, "FILE's verdict beside the model's for MACHINE");
  sub->add_option("--model-band", o->model_band, "band of a simulated point without one")->capture_default_str();
  sub->footer(kVerdictFooter);

  return {sub, [o] { return verdict_command(*o); }};
}

}  // namespace bwlab::cli
