// SPDX-License-Identifier: MIT
#include "gui/app/run_controller.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/engine/buffer.hpp"
#include "core/errors.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/scenario/choices.hpp"
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

}  // namespace

// pagefault and tlbflush: the OS clears or unmaps there, which the model does not describe.
static InputError measure_only(Scenario s) {
  return InputError(fmt::format("--scenario {} is measure-only: the simulator predicts the scaling, victim and mix "
                                "scenarios; choose 'Measure on this machine', or one of those three",
                                to_string(s)));
}

// The request as the user's choices, mapped to a ScenarioSpec by the same core function as
// `bwlab run` (scenario_spec_from), so both faces default, parse and refuse alike. The fields of a
// scenario that does not read them are disabled in the panel but keep their text: they are not
// given, as a CLI option left out.
ScenarioSpec build_scenario(const RunRequest& r, const Topology& topo, const CpuFeatures& cpu) {
  RunChoices c;
  c.scenario = str(r.scenario);
  const Scenario s = parse_scenario(c.scenario);
  if (r.simulate && (s == Scenario::pagefault || s == Scenario::tlbflush)) throw measure_only(s);
  c.kernels = str(r.kernels);
  c.sizes = str(r.sizes);
  c.threads = str(r.threads);
  c.victim = str(r.victims);
  c.aggressor = str(r.aggressors);
  c.mix = str(r.mix);
  c.entries = str(r.entries);
  c.placement = str(r.placement);
  c.membind = str(r.membind);
  c.pages = str(r.pages);
  c.fill = str(r.fill);
  c.reps = std::to_string(r.reps);
  c.duration = fmt::format("{}ms", r.duration_ms);
  drop_unread_choices(c);
  return scenario_spec_from(c, cpu, topo);
}

namespace {

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

std::vector<Point> simulate_scenario(const ScenarioSpec& scen, const Topology& topo, const MachineParams& m) {
  switch (scen.scenario) {
    case Scenario::scaling: return simulate_sweep(scen.sweep, topo, m);
    case Scenario::victim: return simulate_victim(scen.sweep, scen.victims, scen.aggressors, topo, m);
    case Scenario::mix: {
      std::vector<std::pair<std::string, int>> mix;
      for (const MixPart& part : scen.mix) mix.emplace_back(part.kernel, part.threads);
      return simulate_mix(scen.sweep, mix, topo, m);  // an empty mix is refused there
    }
    case Scenario::pagefault:
    case Scenario::tlbflush: break;
  }
  throw measure_only(scen.scenario);
}

SimulatedRun simulate_request(const RunRequest& r) {
  if (r.machine.trimmed().isEmpty()) throw InputError("choose a machine (a preset or a JSON file) to simulate");
  if (!r.machine_params && r.machine == kWhatIfMachine)
    throw InputError("the what-if machine is drawn in Simulate mode only: choose Simulate (model prediction), or a preset "
                     "or JSON file as the machine");
  SimulatedRun out;
  out.machine = r.machine_params ? r.machine_params : load_machine(str(r.machine));
  out.topology = Topology::from_spec(r.topology.trimmed().isEmpty() ? machine_topology(*out.machine) : str(r.topology));
  if (!r.topology.trimmed().isEmpty())
    out.llc_note = llc_note(*out.topology, *out.machine), out.shape_note = shape_note(*out.topology, *out.machine);
  out.machine_json = simulated_machine_json(*out.machine, *out.topology);
  CpuFeatures any = detect_cpu_features();  // a simulated machine is not this CPU: the model decides what it runs
  any.sse2 = any.avx2 = any.avx512f = any.clzero = true;
  RunRequest sim = r;
  sim.simulate = true;
  const ScenarioSpec scen = build_scenario(sim, *out.topology, any);
  const SweepSpec& spec = scen.sweep;
  out.points = simulate_scenario(scen, *out.topology, *out.machine);
  if (scen.scenario == Scenario::victim) {
    out.description = fmt::format("simulating the victim scenario: victims {} x aggressors {}, threads {} (1 victim + "
                                  "k aggressors; k = 0 is the baseline), {} point{} with machine {} on {}",
                                  fmt::join(scen.victims, ","), fmt::join(scen.aggressors, ","),
                                  fmt::join(spec.threads, ","), out.points.size(), out.points.size() == 1 ? "" : "s",
                                  str(r.machine), out.topology->summary());
    return out;
  }
  if (scen.scenario == Scenario::mix) {
    std::vector<std::string> parts;
    for (const MixPart& part : scen.mix) parts.push_back(fmt::format("{}:{}", part.kernel, part.threads));
    out.description = fmt::format("simulating the mix {} (all kernels at once), {} point{} with machine {} on {}",
                                  fmt::join(parts, ","), out.points.size(), out.points.size() == 1 ? "" : "s",
                                  str(r.machine), out.topology->summary());
    return out;
  }
  const auto steps = spec.kernels.size() * spec.sizes.size() * spec.threads.size() * spec.fills.size();
  out.description = fmt::format("simulating {} point{} with machine {} on {}", steps, steps == 1 ? "" : "s",
                                str(r.machine), out.topology->summary());
  return out;
}

void RunController::run(const RunRequest& r) {
  stop_.store(false);
  try {
    if (r.simulate) {
      const SimulatedRun sim = simulate_request(r);
      // The size plot marks the LLC the model used, the machine's (not the topology's L3).
      emit topologyReady(simulated_topo_tree(*sim.machine, *sim.topology), sim.machine->llc_bytes_per_package,
                         QString::fromStdString(sim.topology->summary()));
      emit started(QString::fromStdString(sim.description));
      if (!sim.llc_note.empty()) emit warning(QString::fromStdString("note: " + sim.llc_note));
      if (!sim.shape_note.empty()) emit warning(QString::fromStdString("note: " + sim.shape_note));
      emit machineUsed(QString::fromStdString(sim.machine_json));
      for (const Point& p : sim.points) {
        if (stop_.load()) {
          emit finished(true, {});
          return;
        }
        emit pointReady(p);
      }
      emit finished(false, {});
      return;
    }
    const Topology topo = Topology::from_spec("local");
    const CpuFeatures cpu = detect_cpu_features();
    ScenarioSpec scen = build_scenario(r, topo, cpu);
    emit topologyReady(topo_tree(topo), topo.llc_bytes(), QString::fromStdString(topo.summary()));

    std::string memory_how;
    const std::uint64_t available = memory_available_bytes(&memory_how);
    std::vector<std::string> warnings = validate_scenario(scen, topo, cpu, available, memory_how);
    for (const auto& w : environment_warnings(cpu)) warnings.push_back(w);
    // What the choices changed, as `bwlab run` prints them ("note: ..."): a size typed twice, a
    // kernel --kernels all left out. The GUI said nothing of them.
    for (const auto& n : scen.notes) warnings.push_back(n);
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
