// SPDX-License-Identifier: MIT
#include "gui/app/run_controller.hpp"

#include <fmt/format.h>

#include "core/engine/buffer.hpp"
#include "core/errors.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/model/simulate.hpp"
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
    emit c_.progress(p.windows_done, p.windows_total, p.eta_s, QString::fromStdString(p.current));
  }
  void on_point(const Point& p) override { emit c_.pointReady(p); }

 private:
  RunController& c_;
};

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
    emit topologyReady(topo_tree(topo), topo.llc_bytes(), QString::fromStdString(topo.summary()));

    CpuFeatures cpu = detect_cpu_features();
    CpuFeatures any = cpu;  // a simulated machine is not this CPU: the model decides what it runs
    if (r.simulate) any.sse2 = any.avx2 = any.avx512f = any.clzero = true;
    if (str(r.scenario) != "scaling")
      throw InputError(fmt::format("scenario '{}' is not available (this build has: scaling)", str(r.scenario)));

    SweepSpec spec;
    spec.kernels = parse_kernels(str(r.kernels), r.simulate ? any : cpu);
    spec.sizes = parse_sizes(str(r.sizes));
    spec.threads = parse_threads(str(r.threads), static_cast<int>(topo.allowed_pus().size()));
    spec.placement = parse_placement(str(r.placement));
    spec.membind = parse_membind(str(r.membind));
    spec.pages = parse_pages(str(r.pages));
    spec.fills = parse_fills(str(r.fill));
    spec.reps = r.reps;
    spec.duration = std::chrono::milliseconds(r.duration_ms);
    if (spec.reps < 1) throw InputError("repetitions must be at least 1");
    if (spec.duration.count() < 1) throw InputError("the window must be at least 1 ms");

    const auto steps = spec.kernels.size() * spec.sizes.size() * spec.threads.size() * spec.fills.size();
    if (r.simulate) {
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
    std::vector<std::string> warnings = validate_sweep(spec, topo, cpu, available, memory_how);
    for (const auto& w : environment_warnings(cpu)) warnings.push_back(w);
    emit started(QString::fromStdString(
        fmt::format("measuring {} point{} ({} kernel{} x {} size{} x {} thread count{} x {} fill{}), {} reps of {} ms "
                    "each, on {}",
                    steps, steps == 1 ? "" : "s", spec.kernels.size(), spec.kernels.size() == 1 ? "" : "s",
                    spec.sizes.size(), spec.sizes.size() == 1 ? "" : "s", spec.threads.size(),
                    spec.threads.size() == 1 ? "" : "s", spec.fills.size(), spec.fills.size() == 1 ? "" : "s",
                    spec.reps, spec.duration.count(), topo.summary())));
    for (const auto& w : warnings) emit warning(QString::fromStdString(w));
    SignalObserver observer(*this);
    const SweepResult result = run_sweep(spec, topo, cpu, observer, &stop_);
    emit finished(result.stopped, {});
  } catch (const InputError& e) {
    emit finished(false, QString::fromStdString(e.what()));
  } catch (const std::exception& e) {
    emit finished(false, QString("run failed: ") + e.what());
  }
}

}  // namespace bwlab::gui
