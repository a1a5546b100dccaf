// SPDX-License-Identifier: MIT
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/csv.hpp"
#include "core/report/json.hpp"
#include "core/report/scenario_table.hpp"
#include "core/report/table.hpp"
#include "core/scenario/scenario.hpp"
#include "core/sweep/parse.hpp"
#include "core/sweep/sweep.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/version.hpp"
#include "headless/commands.hpp"
#include "headless/interrupt.hpp"

namespace bwlab::cli {
namespace {


std::string clock_label(double s) {
  const long t = static_cast<long>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60) : fmt::format("{}:{:02}", t / 60, t % 60);
}

// Reports a sweep as it goes: progress on stderr, files rewritten after every point.
class CliObserver final : public SweepObserver {
 public:
  CliObserver(const RunOptions& o, RunInfo& info) : o_(o), info_(info), tty_(isatty(STDERR_FILENO) != 0) {}

  void on_warning(const std::string& w) override {
    if (!o_.quiet) fmt::print(stderr, "warning: {}\n", w);
  }
  void on_progress(const SweepProgress& p) override {
    if (o_.quiet || !tty_) return;
    fmt::print(stderr, "\r[{:>4}/{}] {:<40} elapsed {}  ETA {}   ", p.windows_done, p.windows_total, p.current,
               clock_label(p.elapsed_s), clock_label(p.eta_s));
    std::fflush(stderr);
  }
  void on_point(const Point& p) override {
    points_.push_back(p);
    save();
    if (o_.quiet) return;
    if (tty_) fmt::print(stderr, "\r{:<100}\r", "");
    fmt::print(stderr, "point {}: {}, PUs {}\n", points_.size(), point_summary(p), join(p.pus));
    for (const auto& f : p.flags) fmt::print(stderr, "  ! {}\n", f);
  }
  void save() const {
    if (!o_.csv.empty()) {
      std::ostringstream s;
      write_csv(s, points_);
      write_file_atomically(o_.csv, s.str());
    }
    if (!o_.json.empty()) {
      std::ostringstream s;
      write_json(s, info_, points_);
      write_file_atomically(o_.json, s.str());
    }
  }
  const std::vector<Point>& points() const { return points_; }

 private:
  static std::string join(const std::vector<int>& v) { return fmt::format("{}", fmt::join(v, ",")); }
  const RunOptions& o_;
  RunInfo& info_;
  bool tty_;
  std::vector<Point> points_;
};

// Options that only one scenario reads are refused elsewhere, so no option is silently ignored.
void check_options_apply(const RunOptions& o, Scenario s) {
  const auto refuse = [&](bool given, const char* option, const char* where) {
    if (given)
      throw InputError(fmt::format("{} does not apply to --scenario {}; it is for {}", option, to_string(s), where));
  };
  refuse(!o.victim.empty() && s != Scenario::victim, "--victim", "--scenario victim");
  refuse(!o.aggressor.empty() && s != Scenario::victim, "--aggressor", "--scenario victim");
  refuse(!o.mix.empty() && s != Scenario::mix, "--mix", "--scenario mix");
  refuse(!o.entries.empty() && s != Scenario::tlbflush, "--entries", "--scenario tlbflush");
  refuse(!o.threads.empty() && s == Scenario::mix, "--threads", "the other scenarios (the --mix counts set the threads)");
  const bool os = s == Scenario::pagefault || s == Scenario::tlbflush;
  refuse(!o.kernels.empty() && os, "--kernels", "the clearing scenarios (the OS clears or unmaps here)");
  refuse(!o.fill.empty() && os, "--fill", "the clearing scenarios (the OS writes zeros)");
  refuse(!o.kernels.empty() && s == Scenario::mix, "--kernels", "the other scenarios (--mix names the kernels)");
}

}  // namespace

std::string scenario_default_sizes(const std::string& scenario) {
  for (Scenario s : {Scenario::pagefault, Scenario::tlbflush})
    if (scenario == to_string(s)) return std::string(bwlab::scenario_default_sizes(s));
  return std::string(bwlab::scenario_default_sizes(Scenario::scaling));
}

namespace {

ScenarioSpec build_spec(const RunOptions& o, const CpuFeatures& cpu, const Topology& topo) {
  ScenarioSpec scen;
  scen.scenario = parse_scenario(o.scenario);
  check_options_apply(o, scen.scenario);
  SweepSpec& spec = scen.sweep;
  const std::string kernels = o.kernels.empty() ? default_kernels() : o.kernels;
  if (scen.scenario == Scenario::scaling) spec.kernels = parse_kernels(kernels, cpu);
  spec.sizes = parse_sizes(o.sizes.empty() ? scenario_default_sizes(o.scenario) : o.sizes);
  if (scen.scenario != Scenario::mix) {
    const std::vector<int> allowed = topo.allowed_pus();
    spec.threads = parse_threads(o.threads.empty() ? "1..max" : o.threads, static_cast<int>(allowed.size()),
                                 format_pu_list(allowed));
  }
  spec.placement = parse_placement(o.placement);
  spec.membind = parse_membind(o.membind);
  spec.pages = parse_pages(o.pages);
  spec.fills = parse_fills(o.fill.empty() ? "zero" : o.fill);
  const RepsSetting reps = parse_reps(o.reps);
  if (reps.automatic && scen.scenario != Scenario::scaling)
    throw InputError(fmt::format("--reps auto applies to the scaling scenario; give --reps N for --scenario {}",
                                 to_string(scen.scenario)));
  spec.reps = reps.reps;
  spec.reps_auto = reps.automatic;
  spec.target_pstdev_pct = o.target_pstdev;
  spec.max_reps = o.max_reps;
  spec.duration = parse_duration(o.duration);
  spec.unstable_pct = o.unstable_pct;
  if (scen.scenario == Scenario::victim) {
    scen.victims = parse_kernels(o.victim.empty() ? kernels : o.victim, cpu);
    scen.aggressors = parse_kernels(o.aggressor.empty() ? kernels : o.aggressor, cpu);
  }
  if (scen.scenario == Scenario::mix && !o.mix.empty()) scen.mix = parse_mix(o.mix, cpu);
  if (scen.scenario == Scenario::tlbflush) scen.entries = parse_entries(o.entries.empty() ? "1..512" : o.entries);
  return scen;
}

}  // namespace

std::chrono::microseconds parse_duration(const std::string& text) {
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const std::string unit(p, text.data() + text.size());
  double ms = -1;
  if (ec == std::errc() && p != text.data()) {
    if (unit.empty() || unit == "ms") ms = v;
    else if (unit == "s") ms = v * 1000;
    else if (unit == "us") ms = v / 1000;
  }
  if (!(ms >= 1 && ms <= 3.6e6))
    throw InputError(fmt::format("bad --duration '{}': use 1ms to 1h in ms, s or us, e.g. 200ms, 1.5ms or 1s", text));
  // Fractions are kept to the microsecond (1.5ms is 1500 us, not 1 ms).
  return std::chrono::microseconds(std::llround(ms * 1000));
}

int run_command(const RunOptions& o) {
  const CpuFeatures cpu = detect_cpu_features();
  const Topology topo = Topology::from_spec(o.topology);
  ScenarioSpec scen = build_spec(o, cpu, topo);

  std::string memory_how;
  const std::uint64_t available = memory_available_bytes(&memory_how);
  std::vector<std::string> warnings = validate_scenario(scen, topo, cpu, available, memory_how);
  if (!o.csv.empty()) check_writable(o.csv);
  if (!o.json.empty()) check_writable(o.json);

  RunInfo info = describe_run(cpu, o.command_line, topo.summary());
  for (const auto& w : environment_warnings(cpu)) warnings.push_back(w);
  info.warnings = warnings;

  CliObserver observer(o, info);
  for (const auto& w : warnings) observer.on_warning(w);

  InterruptGuard interrupt;
  const SweepResult result = run_scenario(scen, topo, cpu, observer, interrupt.flag());

  if (result.stopped) {
    info.partial = true;
    info.partial_reason = fmt::format("interrupted by {} after {} finished point{}", interrupt.signal_name(),
                                      result.points.size(), result.points.size() == 1 ? "" : "s");
    observer.save();
    if (!o.quiet) fmt::print(stderr, "\nbwlab: {}; finished points are kept\n", info.partial_reason);
  } else {
    observer.save();
  }
  if (!o.quiet && (!o.csv.empty() || !o.json.empty()))
    fmt::print(stderr, "wrote {}{}{}\n", o.csv, !o.csv.empty() && !o.json.empty() ? " and " : "", o.json);
  print_scenario_tables(std::cout, result.points);
  print_run_verdict(std::cout, result.points);  // only when the sweep allows one
  if (result.stopped) return interrupt.exit_code();
  return 0;
}

}  // namespace bwlab::cli
