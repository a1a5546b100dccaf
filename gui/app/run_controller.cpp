// SPDX-License-Identifier: MIT
#include "gui/app/run_controller.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/engine/buffer.hpp"
#include "core/errors.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/model/simulate.hpp"
#include "core/scenario/scenario.hpp"
#include "core/sweep/parse.hpp"
#include "core/sweep/sweep.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"

namespace bwlab::gui {
namespace {

std::string str(const QString& s) { return s.trimmed().toStdString(); }

// Forwards the sweep's reports as signals (emitted on the worker thread, delivered queued).
class SignalObserver final : public SweepObserver {
 public:
  explicit SignalObserver(RunController& c) : c_(c) {}
  void on_warning(const std::string& w) override { emit c_.warning(QString::fromStdString(w)); }
  void on_progress(const SweepProgress& p) override {
    emit c_.progress(p.windows_done, p.windows_total, p.eta_s, QString::fromStdString(p.current), p.window_gbps);
  }
  void on_point(const Point& p) override { emit c_.pointReady(p); }

 private:
  RunController& c_;
};

// The ScenarioSpec `bwlab run` would build from the same options (the widgets of a scenario that
// does not apply are disabled, so nothing given is ignored).
ScenarioSpec build_scenario(const RunRequest& r, const Topology& topo, const CpuFeatures& cpu) {
  ScenarioSpec scen;
  scen.scenario = parse_scenario(str(r.scenario));
  const Scenario s = scen.scenario;
  const bool os = s == Scenario::pagefault || s == Scenario::tlbflush;
  if (r.simulate && s != Scenario::scaling)
    throw InputError(fmt::format("--scenario {} is measure-only: the simulator predicts scaling sweeps; choose "
                                 "'Measure on this machine', or the scaling scenario",
                                 to_string(s)));
  SweepSpec& spec = scen.sweep;
  // The same core parsers as `bwlab run`, so the errors read the same.
  if (s == Scenario::scaling) spec.kernels = parse_kernels(str(r.kernels), cpu);
  spec.sizes = parse_sizes(str(r.sizes).empty() ? std::string(scenario_default_sizes(s)) : str(r.sizes));
  if (s != Scenario::mix) {
    const std::vector<int> allowed = topo.allowed_pus();
    spec.threads = parse_threads(str(r.threads), static_cast<int>(allowed.size()), format_pu_list(allowed));
  }
  spec.placement = parse_placement(str(r.placement));
  spec.membind = parse_membind(str(r.membind));
  spec.pages = parse_pages(str(r.pages));
  spec.fills = parse_fills(os || str(r.fill).empty() ? "zero" : str(r.fill));
  spec.reps = r.reps;
  spec.duration = std::chrono::milliseconds(r.duration_ms);
  if (spec.reps < 1) throw InputError("repetitions must be at least 1");
  if (spec.duration < std::chrono::milliseconds(1)) throw InputError("the window must be at least 1 ms");
  if (s == Scenario::victim) {
    scen.victims = parse_kernels(str(r.victims).empty() ? str(r.kernels) : str(r.victims), cpu);
    scen.aggressors = parse_kernels(str(r.aggressors).empty() ? str(r.kernels) : str(r.aggressors), cpu);
  }
  if (s == Scenario::mix && !str(r.mix).empty()) scen.mix = parse_mix(str(r.mix), cpu);
  if (s == Scenario::tlbflush) scen.entries = parse_entries(str(r.entries).empty() ? "1..512" : str(r.entries));
  return scen;
}

std::string describe(const ScenarioSpec& scen, const Topology& topo) {
  const SweepSpec& spec = scen.sweep;
  const std::string reps = fmt::format("{} reps of {} ms per point, on {}", spec.reps, spec_duration_ms(spec), topo.summary());
  switch (scen.scenario) {
    case Scenario::scaling: {
      const auto steps = spec.kernels.size() * spec.sizes.size() * spec.threads.size() * spec.fills.size();
      return fmt::format("measuring {} point{} ({} kernel{} x {} size{} x {} thread count{} x {} fill{}), {}", steps,
                         steps == 1 ? "" : "s", spec.kernels.size(), spec.kernels.size() == 1 ? "" : "s",
                         spec.sizes.size(), spec.sizes.size() == 1 ? "" : "s", spec.threads.size(),
                         spec.threads.size() == 1 ? "" : "s", spec.fills.size(), spec.fills.size() == 1 ? "" : "s", reps);
    }
    case Scenario::victim:
      return fmt::format("measuring the victim scenario: victims {} x aggressors {}, threads {} (1 victim + k "
                         "aggressors; k = 0 is the baseline), {}",
                         fmt::join(scen.victims, ","), fmt::join(scen.aggressors, ","), fmt::join(spec.threads, ","), reps);
    case Scenario::mix: {
      std::vector<std::string> parts;
      for (const auto& m : scen.mix) parts.push_back(fmt::format("{}:{}", m.kernel, m.threads));
      return fmt::format("measuring the mix {} (all kernels at once in every window), {}", fmt::join(parts, ","), reps);
    }
    case Scenario::pagefault:
      return fmt::format("measuring page-fault clearing: threads {} each map, touch and unmap fresh memory, {}",
                         fmt::join(spec.threads, ","), reps);
    case Scenario::tlbflush:
      return fmt::format("measuring TLB shootdowns: 1 unmapper + k readers (threads {}), entries {}, {}",
                         fmt::join(spec.threads, ","), fmt::join(scen.entries, ","), reps);
  }
  return reps;
}

}  // namespace

void register_run_types() {
  qRegisterMetaType<bwlab::Point>();
  qRegisterMetaType<bwlab::gui::TopoNode>();
  qRegisterMetaType<bwlab::gui::RunRequest>();
}

void RunController::run(const RunRequest& r) {
  stop_.store(false);
  try {
    MachinePtr machine;
    std::string topo_spec = "local";
    if (r.simulate) {
      if (r.machine.trimmed().isEmpty()) throw InputError("choose a machine (a preset or a JSON file) to simulate");
      machine = load_machine(str(r.machine));
      topo_spec = r.topology.trimmed().isEmpty() ? machine_topology(*machine) : str(r.topology);
    }
    const Topology topo = Topology::from_spec(topo_spec);

    const CpuFeatures cpu = detect_cpu_features();
    CpuFeatures any = cpu;  // a simulated machine is not this CPU: the model decides what it runs
    if (r.simulate) any.sse2 = any.avx2 = any.avx512f = any.clzero = true;
    ScenarioSpec scen = build_scenario(r, topo, r.simulate ? any : cpu);
    emit topologyReady(topo_tree(topo), topo.llc_bytes(), QString::fromStdString(topo.summary()));

    if (r.simulate) {
      const SweepSpec& spec = scen.sweep;
      const auto steps = spec.kernels.size() * spec.sizes.size() * spec.threads.size() * spec.fills.size();
      emit started(QString::fromStdString(fmt::format("simulating {} point{} with machine {} on {}", steps,
                                                      steps == 1 ? "" : "s", str(r.machine), topo.summary())));
      for (const Point& p : simulate_sweep(spec, topo, *machine)) {
        if (stop_.load()) {
          emit finished(true, {});
          return;
        }
        emit pointReady(p);
      }
      emit finished(false, {});
      return;
    }

    std::string memory_how;
    const std::uint64_t available = memory_available_bytes(&memory_how);
    std::vector<std::string> warnings = validate_scenario(scen, topo, cpu, available, memory_how);
    for (const auto& w : environment_warnings(cpu)) warnings.push_back(w);
    emit started(QString::fromStdString(describe(scen, topo)));
    for (const auto& w : warnings) emit warning(QString::fromStdString(w));
    SignalObserver observer(*this);
    const SweepResult result = run_scenario(scen, topo, cpu, observer, &stop_);
    emit finished(result.stopped, {});
  } catch (const InputError& e) {
    emit finished(false, QString::fromStdString(e.what()));
  } catch (const std::exception& e) {
    emit finished(false, QString("run failed: ") + e.what());
  }
}

}  // namespace bwlab::gui
