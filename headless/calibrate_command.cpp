// SPDX-License-Identifier: MIT
// `bwlab calibrate`: measure a small set of points here (core/sweep) and fit the model's
// parameters to them by least squares (core/model/fit), or fit points read from a CSV.
#include <cerrno>
#include <cstring>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "core/report/cpu_name.hpp"
#include "core/errors.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/insight/load.hpp"
#include "core/kernels/kernels.hpp"
#include "core/model/fit.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/model/solver.hpp"
#include "core/model/uarch.hpp"
#include "core/model/validate.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/csv.hpp"
#include "core/report/point_flags.hpp"
#include "core/report/input_file.hpp"
#include "core/report/plural.hpp"
#include "core/report/scenario_table.hpp"
#include "core/report/table.hpp"
#include "core/sweep/parse.hpp"
#include "core/sweep/sweep.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "headless/commands.hpp"
#include "headless/stderr_line.hpp"
#include "headless/interrupt.hpp"
#include "headless/output_file.hpp"

namespace bwlab::cli {

// A fit's log-RMS above this (about 35% typical error) is worth a warning: the public spec-sheet
// machines' level errors run 0.13-0.57 (docs/model.md), a fit to this machine's own points should
// do better.
constexpr double kPoorFitLogRms = 0.3;
namespace {


// The local machine as a starting point: its topology, features and LLC; the rest are
// typical figures that the fit replaces (or that stay assumptions, said in provenance).
MachineParams local_base(const Topology& topo, const CpuFeatures& cpu) {
  MachineParams m;
  // A CPU of the write-path table starts from its row (RFO evasion, one-socket ownership, SMT,
  // latencies); the fit then replaces the concurrency and cache figures it can see.
  if (const model::Uarch* u = model::uarch_for_cpu(cpu.vendor, cpu.family, cpu.model)) {
    model::apply_uarch(m, *u, fmt::format("from CPUID family {} model {}", cpu.family, cpu.model));
  }
  else {
    // No row: the model's defaults stand for the write path, and say so (a Zen 5 file showed "model
    // default" beside evasion figures that its simulation never used).
    const std::string why = fmt::format("assumed: {} family {} model {} has no row in the write-path table "
                                        "(bwlab machine uarchs)",
                                        cpu.vendor, cpu.family, cpu.model);
    for (const char* name : {"stos_no_rfo_min_bytes", "stos_evasion", "stos_evasion_load_drop", "stos_evasion_nonzero",
                             "speci2m_max_fraction", "own_latency_ns", "smt_gain", "smt_gain_nt"})
      m.origins[name] = why;
  }
  // Named by its host: two hosts' calibrated files were both "local" in legends, compare and
  // simulate's output ("machine local").
  m.name = host_name() + "-calibrated";
  m.topology = "local";
  m.cpu = cpu.model_name;
  m.features = cpu.present();
  // Named by its host: the file is read on other hosts too, where "this machine" is not it (and the
  // topology's summary said "(this machine)" a second time).
  std::string shape = topo.summary();
  if (constexpr std::string_view here = " (this machine)"; shape.ends_with(here)) shape.resize(shape.size() - here.size());
  m.description = fmt::format("{} ({}; {})", host_name(), cpu.model_name, shape);
  const int per_package = std::max(1, topo.llc_count() / std::max(1, topo.packages()));
  if (topo.llc_bytes() > 0) {
    m.llc_bytes_per_package = topo.llc_bytes() * static_cast<std::uint64_t>(per_package);
    m.origins["llc_bytes_per_package"] = fmt::format("this machine's topology ({} LLC per package)", per_package);
  }
  // The LLC domains hwloc sees (AMD: one L3 per CCX/CCD) replace the table's figure.
  const int cores = std::max(1, topo.cores() / std::max(1, topo.packages()));
  m.llc_domain_cores = per_package > 1 ? static_cast<double>(cores) / per_package : 0;
  m.origins["llc_domain_cores"] = fmt::format("this machine's topology ({} LLC per package)", per_package);
  m.dram_peak_gbps_per_node = 60;
  if (m.uarch.empty()) m.link_gbps = 40;
  return m;
}

class QuietObserver final : public SweepObserver {
 public:
  explicit QuietObserver(bool quiet) : quiet_(quiet) {}
  void on_warning(const std::string& w) override {
    if (!quiet_) print_stderr_line("warning: " + w);
  }
  void on_preparing(int buffers, std::uint64_t bytes) override {
    if (const std::string note = preparing_note(buffers, bytes); !quiet_ && !note.empty())
      fmt::print(stderr, "{}\n", note);
  }
  void on_point(const Point& p) override {
    if (quiet_) return;
    // As run's progress lines: one repetition has no spread ("median of 1 rep, +- 0.0%" read as steady).
    fmt::print(stderr, "measured {} {} {}T: {:.2f} GB/s ({})\n", p.kernel, size_label(p.size_bytes), p.threads,
               p.gbps_median, reps_and_spread(p));
    for (const auto& f : p.flags) fmt::print(stderr, "  {}{}\n", footnote_mark(p, f), f);  // unstable, noisy: fitted all the same
  }

 private:
  bool quiet_;
};

std::uint64_t round_size(double bytes) {
  const double mib = static_cast<double>(1 << 20);
  if (bytes >= mib) return static_cast<std::uint64_t>(std::round(bytes / mib)) << 20;
  return std::max<std::uint64_t>(64 << 10, static_cast<std::uint64_t>(bytes) / 4096 * 4096);
}

// Seconds a sweep will take by the starting machine's model: a window lasts --duration or one
// pass over the point's buffers, whichever is longer (a 4 GiB buffer's pass outlasts a 100 ms
// window), and each point adds about one pass to warm up. An estimate: this host's figures vary.
double planned_seconds(const SweepSpec& spec, const MachineParams& m, const Topology& topo) {
  const double window_s = spec_duration_ms(spec) / 1e3;
  double total = 0;
  for (const std::string& kernel : spec.kernels)
    for (const std::uint64_t size : spec.sizes)
      for (const int threads : spec.threads) {
        model::Observation ob;
        ob.kernel = kernel, ob.size_bytes = size, ob.threads = threads, ob.placement = spec.placement;
        ob.membind = spec.membind;
        double pass_s = 0;
        try {
          const double gbps = model::predict(ob, topo, m);
          if (gbps > 0) pass_s = static_cast<double>(size) * threads / 1e9 / gbps;
        } catch (const InputError&) {
          // a point the model cannot place: counted at the window length alone
        }
        total += spec.reps * std::max(window_s, pass_s) + pass_s;
      }
  return total;
}

std::vector<Point> measure(const CalibrateOptions& o, const MachineParams& base, const Topology& topo,
                           const CpuFeatures& cpu, const InterruptGuard& interrupt) {
  const std::string kernels = o.kernels.empty() ? default_kernels(cpu) : o.kernels;
  const int max_threads = static_cast<int>(topo.allowed_pus().size());
  // The LLC one thread can use: its domain's share (AMD CCX/CCD), the whole LLC elsewhere.
  const double llc = static_cast<double>(base.llc_bytes_per_package) /
                     model::llc_domains(model::shape_of(topo).cores_per_package.at(0), base);
  SweepSpec single;
  single.kernels = parse_kernels(kernels, cpu);
  single.sizes = o.sizes.empty() ? std::vector<std::uint64_t>{round_size(llc / 8), round_size(llc / 2),
                                                               round_size(2 * llc), round_size(8 * llc)}
                                 : parse_sizes(o.sizes);
  single.threads = {1};
  single.reps = o.reps;
  single.duration = parse_duration(o.duration);
  single.reject_noisy = o.reject_noisy;
  SweepSpec multi = single;
  multi.sizes = {*std::max_element(single.sizes.begin(), single.sizes.end())};
  multi.threads.clear();
  for (int t : o.threads.empty() ? parse_threads("1..max", max_threads) : parse_threads(o.threads, max_threads))
    if (t > 1) multi.threads.push_back(t);

  std::string how;
  const std::uint64_t available = memory_available_bytes(&how);
  auto warnings = validate_sweep(single, topo, cpu, available, how);
  if (!multi.threads.empty()) validate_sweep(multi, topo, cpu, available, how);
  // As `run` says them (a VM, the governor, turbo): a calibration fits whatever share of the
  // machine it saw.
  for (const auto& w : environment_warnings(cpu)) warnings.push_back(w);
  check_distinct_outputs({{"--csv", o.csv}, {"--out", o.out}});
  check_output_suffixes({{"--csv", o.csv}});
  if (!o.csv.empty()) check_writable(o.csv);
  if (!o.out.empty()) check_writable(o.out);

  QuietObserver obs(o.quiet);
  for (const auto& w : warnings) obs.on_warning(w);
  if (!o.quiet) {
    const double seconds =
        planned_seconds(single, base, topo) + (multi.threads.empty() ? 0 : planned_seconds(multi, base, topo));
    const int most = multi.threads.empty() ? 1 : *std::max_element(multi.threads.begin(), multi.threads.end());
    fmt::print(stderr, "calibrate: {} x ({} at 1 thread + {} at {}), {} of {} ms; windows about {:.{}f} s by the "
                       "starting model (a window lasts at least one pass over its buffers), plus allocating and "
                       "first touching each point's buffers (up to {} x {}): on this host's page-fault rate that can "
                       "be several times more\n",
               count_of(single.kernels.size(), "kernel"), count_of(single.sizes.size(), "size"),
               count_of(multi.threads.size(), "thread count"), format_bytes(multi.sizes.front()),
               count_of(o.reps, "rep"), spec_duration_ms(single), seconds, seconds < 1 ? 2 : seconds < 10 ? 1 : 0, most,
               format_bytes(multi.sizes.front()));  // 0.36 s read "about 0 s"
  }
  SweepResult first = run_sweep(single, topo, cpu, obs, interrupt.flag());
  std::vector<Point> points = std::move(first.points);
  if (!first.stopped && !multi.threads.empty()) {
    auto more = run_sweep(multi, topo, cpu, obs, interrupt.flag()).points;
    points.insert(points.end(), more.begin(), more.end());
  }
  if (interrupt.interrupted()) {
    // A fit of part of the plan would describe a machine nobody measured: keep the points only,
    // the last one flagged as `run` flags it (verdict, compare and calibrate --from then say the
    // file is partial). With none finished, an earlier calibration's CSV is left alone; with some,
    // they go beside it to NAME.partial.csv, as an interrupted `run` leaves them (they replaced it).
    const std::size_t planned = first.points_planned + single.kernels.size() * multi.threads.size();
    const OutputFile csv = OutputFile::of(o.csv);
    if (!o.csv.empty() && !points.empty()) {
      points.back().flags.push_back(interrupted_flag(interrupt.signal_name(), points.size(), planned));
      write_file_atomically(csv.progress, csv_text(points));
    }
    // Without --csv the measured points go with the process: said, with the option that keeps them.
    // A CSV that was not there is not "touched" either: nothing is said of it.
    fmt::print(stderr, "\nbwlab calibrate: interrupted by {} after {}; {}no machine file written{}\n",
               interrupt.signal_name(), count_of(points.size(), "measured point"),
               o.csv.empty()     ? ""
               : points.empty() ? (existing_files({o.csv}).empty() ? "" : fmt::format("{} not touched; ", o.csv))
                                : fmt::format("the points are in {} (the last row marked partial{}); ", csv.progress,
                                              csv.deferred() ? fmt::format("; {}, an earlier one's, left as it was", o.csv)
                                                             : std::string()),
               o.csv.empty() && !points.empty()
                   ? " and the points are not kept (give --csv FILE to keep them: calibrate --from FILE fits them later)"
                   : "");
    throw Interrupted{interrupt.exit_code()};
  }
  return points;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// What the data can determine: class concurrencies, LLC latency when a write-allocate point
// fits in the LLC, per-kernel scales for the non-reference kernels, the DRAM peak when some
// multi-thread point runs from memory.
// On the local machine (often a VM sharing its LLC with other tenants) also the share of the
// LLC a thread really keeps, when write-allocate points lie on both sides of the LLC size.
std::vector<std::string> automatic_params(MachineParams& m, const std::vector<model::Observation>& rows, bool local,
                                          const model::Shape& shape) {
  std::vector<std::string> params;
  std::set<std::string> kernels;
  for (const auto& r : rows) kernels.insert(r.kernel);
  std::string ref_wa, ref_nt;
  if (kernels.count("stosb")) ref_wa = "stosb";
  if (kernels.count("movnti")) ref_nt = "movnti";
  for (const auto& r : rows) {
    const bool wa = model::traffic_of(r.kernel) == model::Traffic::write_allocate;
    std::string& ref = wa ? ref_wa : ref_nt;
    if (ref.empty()) ref = r.kernel;
  }
  if (!ref_wa.empty()) params.push_back("mlp_wa_lines"), m.kernel_scale.erase(ref_wa);
  if (!ref_nt.empty()) params.push_back("mlp_nt_lines"), m.kernel_scale.erase(ref_nt);
  // The LLC `threads` threads can reach: as many domains as they occupy (the solver's spread).
  const double domains = model::llc_domains(shape.cores_per_package.at(0), m);
  auto usable = [&](int threads) {
    return m.llc_usable_fraction * static_cast<double>(m.llc_bytes_per_package) / domains *
           std::min(static_cast<double>(threads), domains);
  };
  bool in_llc = false, multi_dram = false, beyond_llc = false;
  for (const auto& r : rows) {
    const bool wa = model::traffic_of(r.kernel) == model::Traffic::write_allocate;
    const double footprint = static_cast<double>(r.size_bytes) * r.threads;
    if (wa && footprint < usable(r.threads)) in_llc = true;
    if (wa && footprint > usable(r.threads)) beyond_llc = true;
    if (r.threads > 1 && footprint > 2 * usable(r.threads)) multi_dram = true;
  }
  if (in_llc) params.push_back("llc_latency_ns");
  if (local && in_llc && beyond_llc) params.push_back("llc_usable_fraction");
  for (const auto& k : kernels)
    if (k != ref_wa && k != ref_nt) params.push_back("scale:" + k);
  if (multi_dram) params.push_back("dram_peak_gbps_per_node");
  return params;
}

// The parameters --fit names (without a leading '+'), checked before anything is measured
// (model::check_fit_params: an unknown name gets the nearest valid one and the list of them).
std::vector<std::string> fit_names(const std::string& fit, const MachineParams& base) {
  const auto listed = split(fit.empty() || fit.front() != '+' ? fit : fit.substr(1));
  try {
    model::check_fit_params(base, listed);
  } catch (const InputError& e) {
    throw InputError(fmt::format("--fit: {}", e.what()));
  }
  return listed;
}

// --base local fits this host: points measured on another host fit it only when that host has this
// CPU (a renamed container, a twin server); then its name, which the machine takes. Empty when the
// points are this host's (or say no host: seed rows). Throws InputError for another CPU's points.
std::string host_of_rows(const std::vector<model::Observation>& rows, const std::string& file, const std::string& cpu) {
  const std::string here = host_name();
  std::vector<std::string> others, other_cpus;
  // This host's name with another CPU: a VM moved to another CPU, or a cloned host name. Its points
  // were fitted as this CPU's without a word (this guest's Zen 4 files as its Zen 5).
  std::vector<std::string> cpus_here;
  for (const auto& r : rows)
    if (r.host == here && !r.cpu.empty() && r.cpu != cpu &&
        std::find(cpus_here.begin(), cpus_here.end(), r.cpu) == cpus_here.end())
      cpus_here.push_back(r.cpu);
  if (!cpus_here.empty())
    throw InputError(fmt::format(
        "{}: points measured on {} with CPU {}, but this host now has {} (a VM moved to another CPU, or a cloned host "
        "name): --base local fits this CPU; calibrate here again, or describe that machine with `bwlab machine spec "
        "... --out m.json` and give --base m.json",
        file, here, fmt::join(cpus_here, ", "), cpu));
  for (const auto& r : rows) {
    if (r.host.empty() || r.host == here) continue;
    if (std::find(others.begin(), others.end(), r.host) == others.end()) others.push_back(r.host);
    if (r.cpu != cpu && std::find(other_cpus.begin(), other_cpus.end(), r.cpu) == other_cpus.end())
      other_cpus.push_back(r.cpu);
  }
  if (others.empty()) return {};
  const bool some_here = std::any_of(rows.begin(), rows.end(), [&](const auto& r) { return r.host == here; });
  if (!other_cpus.empty() || others.size() > 1 || some_here)
    throw InputError(fmt::format(
        "{}: points measured on {} ({}), but --base local fits this host ({}, {}): calibrate on that host, or describe "
        "it with `bwlab machine spec ... --out m.json` and give --base m.json",
        file, fmt::join(others, ", "),
        other_cpus.empty() ? std::string("another host") : fmt::format("CPU {}", fmt::join(other_cpus, ", ")), here,
        cpu));
  return others.front();
}

}  // namespace

int calibrate_command(const CalibrateOptions& o) {
  if (o.out.empty()) throw InputError("give --out FILE.json for the fitted machine");
  const bool local = o.base == "local";
  if (!local) check_input_file(o.base);
  check_input_file(o.from);
  CpuFeatures cpu;
  MachineParams base;
  if (local) {
    cpu = detect_cpu_features();
    base = local_base(Topology::local(), cpu);
  } else {
    base = *load_machine(o.base);
  }
  const Topology topo = Topology::from_spec(machine_topology(base));
  check_not_an_input({"--out", o.out}, {o.from});
  check_not_an_input({"--csv", o.csv}, {o.from});
  check_output_format({"--out", o.out}, FileFormat::json, "a machine file (measured points go to --csv)");
  check_machine_output(o.out, "--out");  // before minutes of measuring, not after
  check_writable(o.out);
  const std::vector<std::string> listed = fit_names(o.fit, base);  // before minutes of measuring
  std::vector<model::Observation> rows;
  std::vector<model::SkippedRow> skipped;
  std::string source;
  std::string measured_on;  // --from another host's points of this CPU: the machine is named after it
  int other_cpu_rows = 0;   // --from the seed CSV: rows of CPUs other than the base's
  if (!o.from.empty()) {
    std::ifstream in(o.from);
    if (!in) throw InputError(fmt::format("cannot read {}: {}", o.from, std::strerror(errno)));
    auto set = model::read_observations(in, o.from);
    skipped = set.skipped;
    for (auto& r : set.rows) {
      if (set.format == "seed" && !base.cpu.empty() && r.cpu != base.cpu) {  // another machine's rows
        ++other_cpu_rows;
        continue;
      }
      rows.push_back(std::move(r));
    }
    source = "of " + o.from;
    if (!o.quiet) {  // an interrupted run's or calibration's CSV: its last row says so
      std::string partial;
      try {
        partial = partial_run_warning(load_points(o.from), o.from);
      } catch (const InputError&) {  // the seed's CSV and other forms load_points does not read
      }
      if (!partial.empty()) fmt::print(stderr, "warning: {}; the fit uses those\n", partial);
    }
    if (local) measured_on = host_of_rows(rows, o.from, cpu.model_name);
  }
  // Once the input is accepted (a refusal stays the one line on stderr).
  if (local && base.uarch.empty() && !o.quiet)
    fmt::print(stderr,
               "note: this CPU ({}, {} family {} model {}) has no row in the write-path table (bwlab machine "
               "uarchs): the model starts from its defaults (rep stos reads every line for ownership, no SpecI2M, no "
               "SMT or ownership figures of its generation); the fit sets only what the measured points show\n",
               cpu.model_name, cpu.vendor, cpu.family, cpu.model);
  // A preset or machine file fitted to another CPU's points: said (it was silent), not refused (a
  // sibling part, or a machine file of that CPU whose cpu field names the preset it started from).
  if (!local && !base.cpu.empty()) {
    std::vector<std::string> cpus;
    for (const auto& r : rows)
      if (!r.cpu.empty() && !same_cpu(r.cpu, base.cpu) && std::find(cpus.begin(), cpus.end(), r.cpu) == cpus.end())
        cpus.push_back(r.cpu);
    if (!cpus.empty())
      fmt::print(stderr,
                 "warning: {}'s points were measured on {}; {} describes {}: the fit bends that machine's model (its "
                 "topology, write-path row, DRAM) to another CPU's figures; for that CPU, start from its spec sheet "
                 "(`bwlab machine spec ... --out m.json`, then --base m.json)\n",
                 o.from, fmt::join(cpus, ", "), base.name, base.cpu);
  }
  if (!measured_on.empty() && !o.quiet)
    fmt::print(stderr,
               "note: {}'s points were measured on {}, a host of this CPU ({}): the machine is named {}-calibrated "
               "and has this host's topology\n",
               o.from, measured_on, cpu.model_name, measured_on);
  std::optional<InterruptGuard> interrupt;  // while measuring and fitting here
  if (o.from.empty()) {
    if (!local) throw InputError("measuring needs --base local; to fit a preset give --from FILE.csv");
    std::vector<Point> points;
    interrupt.emplace();  // held through the fit: Ctrl-C there ended the process without a word
    try {
      points = measure(o, base, topo, cpu, *interrupt);
    } catch (const Interrupted& stop) {
      return stop.exit_code;
    }
    if (!o.csv.empty()) {
      write_file_atomically(o.csv, csv_text(points));
    }
    auto set = model::observations_from(points);
    rows = set.rows;
    skipped = set.skipped;
    source = fmt::format("measured on {} on {}", host_name(), utc_now_iso8601());
  }
  // Rows of a kernel the machine cannot run (avx512-nt points with --base broadwell-...) have no
  // prediction: left out with the reason, never fitted (a scale was fitted to no point and written).
  std::erase_if(rows, [&](const model::Observation& r) {
    std::string why = base.kernel_unavailable(r.kernel);
    if (why.empty()) return false;
    skipped.push_back({r.label, std::move(why)});
    return true;
  });
  source = fmt::format("{} {}", count_of(rows.size(), "point"), source);  // the points fitted
  // Nothing left: why, as --validate says it (it was "nothing to fit in F" alone).
  if (rows.empty()) {
    std::vector<std::string> why;
    if (other_cpu_rows > 0)
      why.push_back(fmt::format("{} of CPUs other than {} (--base {}): give --base the preset of their CPU",
                                count_of(other_cpu_rows, "row"), base.cpu, o.base));
    if (!skipped.empty())
      why.push_back(fmt::format("{} left out ({}: {}{})", count_of(skipped.size(), "row"), skipped.front().label,
                                skipped.front().reason, skipped.size() > 1 ? "; ..." : ""));
    throw InputError(fmt::format("nothing to fit{}{}{}", o.from.empty() ? "" : " in " + o.from, why.empty() ? "" : ": ",
                                 fmt::join(why, "; ")));
  }
  model::plan_rows_for(rows, machine_topology(base), host_name());  // another host's PUs mean nothing here
  for (const auto& r : rows) model::traffic_of(r.kernel);  // every kernel known

  MachineParams start = base;
  std::vector<std::string> params = automatic_params(start, rows, local, model::shape_of(topo));
  if (!o.fit.empty()) {
    if (o.fit.front() != '+') params.clear();
    for (const auto& p : listed)
      if (std::find(params.begin(), params.end(), p) == params.end()) params.push_back(p);
  }
  model::FitResult fit = model::fit_machine(start, params, rows, topo);
  // A DRAM peak no point came near is not what the points say: chosen automatically, it is kept
  // at its starting figure and the rest fitted again; named with --fit, it is fitted and warned of.
  std::string dram_note;
  if (const auto it = std::find(params.begin(), params.end(), "dram_peak_gbps_per_node");
      it != params.end() && !model::dram_peak_determined(fit.machine, rows)) {
    const double fitted = fit.machine.dram_peak_gbps_per_node;
    if (std::find(listed.begin(), listed.end(), *it) == listed.end()) {
      params.erase(it);
      // Kept, but never below what a point beyond the LLC wrote to DRAM.
      const model::DramFloor floor = model::dram_write_floor(start, rows, topo.packages());
      const std::string kept =
          floor.gbps_per_node > start.dram_peak_gbps_per_node
              ? fmt::format("set to {:.4g} GB/s, what {} wrote beyond the LLC (the starting figure, {:.4g} GB/s, is "
                            "below it)",
                            floor.gbps_per_node, floor.label, start.dram_peak_gbps_per_node)
              : fmt::format("kept at {:.4g} GB/s, the starting figure", start.dram_peak_gbps_per_node);
      if (floor.gbps_per_node > start.dram_peak_gbps_per_node) {
        start.dram_peak_gbps_per_node = floor.gbps_per_node;
        start.origins["dram_peak_gbps_per_node"] =
            fmt::format("{}: the most a point beyond the LLC wrote ({}), a lower bound",
                        o.from.empty() ? std::string("calibrated here") : "calibrated from " + o.from, floor.label);
      }
      fit = model::fit_machine(start, params, rows, topo);
      dram_note = fmt::format("note: dram_peak_gbps_per_node not fitted: no point came near a DRAM limit (the fit left it "
                              "at {:.4g} GB/s per node; the most DRAM traffic of a point, counting a write-allocate "
                              "kernel's reads, is under half that); {}. More "
                              "threads, or a machine file from `bwlab machine spec`, give it",
                              fitted, kept);
    } else {
      dram_note = fmt::format("warning: dram_peak_gbps_per_node = {:.4g} GB/s is not determined by these points: no "
                              "point's DRAM traffic (counting a write-allocate kernel's reads) reaches half of it",
                              fitted);
    }
  }
  MachineParams out = fit.machine;
  // Fitted to a file's points (imported figures, another host's run): the origin names the file,
  // not "calibrated here".
  if (!o.from.empty()) {
    std::vector<std::string> set_now = params;
    set_now.push_back("band");  // fit_machine sets the band too
    for (const std::string& name : set_now)
      if (auto it = out.origins.find(name); it != out.origins.end() && it->second != start.origin_of(name))
        if (constexpr std::string_view here = "calibrated here"; it->second.starts_with(here))
          it->second = "calibrated from " + o.from + it->second.substr(here.size());
  }
  // A preset fitted to points is no longer the preset: its simulations were named as the preset's.
  if (!local && !base.name.ends_with("-calibrated")) out.name = base.name + "-calibrated";  // not "-calibrated-calibrated"
  if (!measured_on.empty()) out.name = measured_on + "-calibrated";
  out.provenance = fmt::format("calibrated from {}: fitted {} by least squares in log space, log-RMS error {:.3f}, "
                               "max |error| {:.1f}%; other parameters from {}",
                               source, fmt::join(params, ","), fit.report.log_rms, 100 * fit.report.max_abs_error,
                               !local ? (is_machine_preset(o.base) ? "preset " : fmt::format("machine file {}: ", o.base)) + base.name
                               : base.uarch.empty() ? std::string("typical figures (not measured)")
                                                    : fmt::format("the {} row of the write-path table (bwlab machine show "
                                                                  "names each one's origin) and typical figures",
                                                                  base.uarch));
  // A figure no hardware has (mlp_wa_lines = 2059 from a disturbed run) says so in the file too:
  // `machine show` printed it as "calibrated here" alone, the warning below being gone with the terminal.
  std::vector<std::string> odd;
  for (const std::string& p : params) {
    const std::vector<std::string> why = model::implausible_fits(out, {p}, &base);
    for (const std::string& w : why) out.origins[p] += "; " + w;
    odd.insert(odd.end(), why.begin(), why.end());
  }
  // Interrupted during the fit: the measured points are written (--csv), the machine is not.
  if (interrupt && interrupt->interrupted()) {
    fmt::print(stderr, "\nbwlab calibrate: interrupted by {} during the fit; no machine file written{}{}\n",
               interrupt->signal_name(),
               existing_files({o.out}).empty() ? "" : fmt::format(" ({}, an earlier one's, left as it was)", o.out),
               o.csv.empty() ? "; the measured points are not kept (give --csv FILE to keep them)"
                             : fmt::format("; the measured points are in {} (calibrate --from {} fits them)", o.csv, o.csv));
    return interrupt->exit_code();
  }
  std::ostringstream s;
  write_machine_json(s, out);
  write_file_atomically(o.out, s.str());

  fmt::print("bwlab calibrate: fit of {} to {} ({}); GB = 1e9 bytes\n", fmt::join(params, ", "), source,
             count_of(fit.evaluations, "evaluation"));
  // Each measured figure with its spread, and ! where its run flagged it: an error of +30% at a
  // point measured at 27% pstdev read as the model's (only the CSV's flags said otherwise).
  const auto spread = [](const model::Observation& ob) {
    if (ob.reps == 1) return std::string("1 rep");
    if (ob.reps < 1 || !std::isfinite(ob.pstdev_pct)) return std::string("-");
    return fmt::format("+-{:.1f}% ({} reps)", ob.pstdev_pct, ob.reps);
  };
  fmt::print("{:<44} {:>10} {:>17} {:>10} {:>8}\n", "point", "measured", "spread", "fitted", "error");
  bool any_unsteady = false;
  for (const auto& p : fit.report.points) {
    any_unsteady |= p.obs.unsteady;
    fmt::print("{:<44} {:>10.2f} {:>17} {:>10.2f} {:>+7.1f}%{}\n", p.obs.label, p.obs.gbps, spread(p.obs), p.predicted,
               100 * p.error, p.obs.unsteady ? " !" : "");
  }
  if (any_unsteady)
    fmt::print("! flagged unstable or noisy by its run (its flags: {}): its error may be this host's noise, not the "
               "model's\n",
               !o.from.empty() ? fmt::format("{}'s flags column", o.from)
               : !o.csv.empty() ? fmt::format("the progress lines above, and {}'s flags column", o.csv)
               : o.quiet        ? std::string("the progress lines, without -q; --csv keeps them")
                                : std::string("the progress lines above; --csv keeps them"));
  for (const auto& sk : skipped) fmt::print("{:<44} skipped: {}\n", sk.label, sk.reason);
  fmt::print("fit: {}, max |error| {:.1f}%, log-RMS error {:.3f}\n", count_of(fit.report.points.size(), "point"),
             100 * fit.report.max_abs_error, fit.report.log_rms);
  for (const auto& p : params) {
    MachineParams copy = out;
    fmt::print("  {} = {:.4g}\n", p, *param_ref(copy, p));
  }
  fmt::print("wrote {} (use: bwlab simulate --machine {})\n", o.out, o.out);
  if (!dram_note.empty()) fmt::print(stderr, "bwlab calibrate: {}\n", dram_note);
  // As many parameters as points fit them exactly whatever the model: a log-RMS of 0.000 from one
  // point was printed without a word (only `machine show`'s band row said it).
  if (fit.report.points.size() <= params.size())
    fmt::print(stderr,
               "bwlab calibrate: warning: {} fitted to {}: the fit can match them whatever the model, so its error "
               "(log-RMS {:.3f}) says nothing; give more points (kernels, sizes, thread counts) or fit fewer "
               "parameters (--fit)\n",
               count_of(params.size(), "parameter"), count_of(fit.report.points.size(), "point"), fit.report.log_rms);
  // A fit the model cannot follow says so where it is read, not only in the error column.
  if (fit.report.log_rms > kPoorFitLogRms)
    fmt::print(stderr,
               "bwlab calibrate: warning: the model does not describe these points well (log-RMS error {:.3f}, max "
               "|error| {:.1f}%): predictions from {} carry a band of x/{:.2f}; on a shared host measure again with "
               "more --reps or a longer --duration\n",
               fit.report.log_rms, 100 * fit.report.max_abs_error, o.out, 1 + out.band);
  for (const auto& line : odd) fmt::print(stderr, "bwlab calibrate: warning: {}\n", line);
  if (!odd.empty())
    fmt::print(stderr, "bwlab calibrate: warning: the points were probably disturbed (a shared host) or cannot "
                       "determine these parameters: measure again on a quieter machine, with more --reps, or fit "
                       "fewer parameters (--fit)\n");
  // The file is written (the points' fit, with the warnings in its origins), but a script's
  // `calibrate && simulate` must not go on from it as from a good fit.
  return odd.empty() ? 0 : 3;
}


Command add_calibrate_command(CLI::App& app, const std::string& command_line) {
  auto o = std::make_shared<CalibrateOptions>();
  o->command_line = command_line;
  CLI::App* sub = app.add_subcommand("calibrate", "measure a few points here and fit the model's parameters (a machine file)");
  sub->add_option("-o,--out", o->out, "the machine JSON file to write")->required();
  CLI::Option* from = sub->add_option("--from", o->from,
                                      "fit the points of this CSV (bwlab's or the seed's) instead of measuring (so it "
                                      "excludes the options that measure: --kernels ... --csv, --reject-noisy); with "
                                      "--base local they must be this host's, or of a host with this CPU");
  sub->add_option("--base", o->base, "starting machine: local, a preset or a machine file (the last two with --from)")->capture_default_str();
  sub->add_option("--fit", o->fit, "parameters to fit, comma list; '+a,b' adds to the automatic choice");
  sub->add_option("-k,--kernels", o->kernels, "kernels to measure (default stosb, movnti, widest NT)")->excludes(from);
  sub->add_option("-s,--sizes", o->sizes, "single-thread sizes (default LLC/8, LLC/2, 2xLLC, 8xLLC)")->excludes(from);
  sub->add_option("-t,--threads", o->threads, "thread counts, measured at the largest size (default 1..max)")
      ->excludes(from);
  sub->add_option("-r,--reps", o->reps, "timed windows per point")->capture_default_str()->excludes(from);
  sub->add_option("-d,--duration", o->duration, "window length")->capture_default_str()->excludes(from);
  sub->add_option("--csv", o->csv, "also write the measured points")->excludes(from);
  sub->add_flag("--reject-noisy", o->reject_noisy,
                "measure a window again when the host disturbed it (steal, lost CPU time), at most --reps extra "
                "per point, as run's --reject-noisy: a fit to disturbed windows fits the neighbours")
      ->excludes(from);
  sub->add_flag("-q,--quiet", o->quiet, "no progress on stderr");
  sub->footer("\nExamples:\n  bwlab calibrate --out machine.json            (1-2 minutes)\n"
                  "  bwlab calibrate --out quick.json --reps 2 --duration 100ms --reject-noisy\n"
                  "  bwlab calibrate --from tests/data/seed-memset.csv --base skylake-x-8270cl --out skx.json\n"
                  "    (the seed figures; installed: share/doc/bwlab/seed-memset.csv)\n"
                  "Prints the fit error per point, beside each measured figure's spread (! where its run flagged it unstable or noisy). Exit codes: 0 done, 1 run-time failure, 2 bad input, 3 written but a fitted figure is outside what hardware gives (named on stderr), 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (no machine file written; with --csv the measured points are kept, in NAME.partial.csv when NAME.csv was there).\n");

  return {sub, [o] { return calibrate_command(*o); }};
}

}  // namespace bwlab::cli
