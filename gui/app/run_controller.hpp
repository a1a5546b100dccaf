// SPDX-License-Identifier: MIT
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <QMetaType>
#include <QObject>
#include <QString>

#include "core/kernels/cpu_features.hpp"
#include "core/model/simulate.hpp"
#include "core/report/record.hpp"
#include "core/scenario/scenario.hpp"
#include "core/topology/topology.hpp"
#include "gui/app/topo_tree.hpp"

namespace bwlab::gui {

// What the control panel asks for, as the user typed it (parsed by the controller with the
// same core parsers as the CLI, so the errors read the same).
struct RunRequest {
  bool simulate = false;
  QString kernels;  // the ticked kernels, a comma list (the panel starts from default_kernels)
  QString sizes = "16M,1G";  // empty = the scenario's default (scenario_default_sizes)
  QString threads = "1..max";
  QString placement = "compact";
  QString membind = "local";
  QString pages = "4k";
  QString fill = "zero";
  QString scenario = "scaling";
  QString victims;     // victim: victim kernels (empty = `kernels`)
  QString aggressors;  // victim: aggressor kernels (empty = `kernels`)
  QString mix;         // mix: kernel:threads pairs, e.g. stosb:1,avx512-nt:1
  QString entries;     // tlbflush: pages per munmap (empty = 1..512)
  int reps = 5;
  int duration_ms = 200;
  QString topology;  // simulate: empty = the machine's own, "local", file.xml or a synthetic string
  QString machine;   // simulate: a preset name or a JSON file, or kWhatIfMachine
  // simulate: this machine instead of loading `machine` (the what-if dock's, given by the window
  // when `machine` was kWhatIfMachine; `machine` then names it).
  MachinePtr machine_params;
};

// The Simulated machine box's first choice: Run simulates the what-if dock's machine.
inline constexpr const char* kWhatIfMachine = "(the what-if machine)";

// A simulation done at once on the calling thread (the demo; the controller's simulate branch):
// the request's machine (preset or file) on its topology (the machine's own when empty),
// through the same parsers as a measured request. Throws InputError.
struct SimulatedRun {
  MachinePtr machine;
  std::optional<Topology> topology;
  std::string description;  // "simulating N points with machine M on ..."
  std::string llc_note;     // a topology given whose L3 the model does not use (core's llc_note), else empty
  std::string shape_note;   // a topology given of another shape than the machine's (core's shape_note), else empty
  std::string machine_json;  // the machine as the run records it (core's simulated_machine_json)
  std::vector<Point> points;
};
SimulatedRun simulate_request(const RunRequest& r);
// The points of a scenario as the model predicts them: simulate_sweep, simulate_victim or
// simulate_mix (the Run button's and the what-if dock's one dispatch). Throws InputError, also for
// the measure-only scenarios.
std::vector<Point> simulate_scenario(const ScenarioSpec& scen, const Topology& topo, const MachineParams& m);

// Runs measurements (every scenario, through run_scenario as `bwlab run`) and simulations
// (scaling sweeps, the victim and mix scenarios, through simulate_sweep, simulate_victim and simulate_mix as
// `bwlab simulate`) off the UI thread. Lives on a worker QThread; run() is
// invoked through a queued connection and reports through signals (queued to the UI).
// request_stop() may be called from any thread; the run ends within one window's pass.
class RunController : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;
  void request_stop() { stop_.store(true); }

 public slots:
  void run(const bwlab::gui::RunRequest& request);

 signals:
  void started(const QString& description);
  void topologyReady(const bwlab::gui::TopoNode& tree, quint64 llc_bytes, const QString& summary);
  void warning(const QString& text);
  // A simulation's machine as its run records it (a JSON file's run.machine), before its points.
  void machineUsed(const QString& machine_json);
  // window_gbps: the aggregate GB/s of the window just finished (scaling), NaN otherwise.
  void progress(int windows_done, int windows_total, double eta_s, const QString& current, double window_gbps);
  void pointReady(const bwlab::Point& point);
  // error is empty on success; stopped says that Stop ended the run early.
  void finished(bool stopped, const QString& error);

 private:
  std::atomic<bool> stop_{false};
};

// The request mapped to a ScenarioSpec with the same core parsers as `bwlab run` (also used by
// the what-if machine panel to re-simulate the shown sweep). Throws InputError.
ScenarioSpec build_scenario(const RunRequest& r, const Topology& topo, const CpuFeatures& cpu);

// Registers the types above for queued connections (call once before connecting).
void register_run_types();

}  // namespace bwlab::gui

Q_DECLARE_METATYPE(bwlab::Point)
Q_DECLARE_METATYPE(bwlab::gui::TopoNode)
Q_DECLARE_METATYPE(bwlab::gui::RunRequest)
