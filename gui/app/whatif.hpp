// SPDX-License-Identifier: MIT
#pragma once
#include <functional>
#include <memory>

#include <QObject>
#include <QString>

#include "core/model/machine.hpp"
#include "core/topology/topology.hpp"
#include "gui/app/run_controller.hpp"
#include "gui/plots/series.hpp"

namespace bwlab::gui {

class MachinePanel;

// Drives the simulated run from the what-if machine panel: every (coalesced) change of the
// panel re-simulates the control panel's sweep (kernels, sizes, threads, fill, placement,
// membind, parsed by the same build_scenario as Run; "1..max" threads follow the machine's PUs)
// on the panel's machine, on the UI thread (the solver takes milliseconds), and emits the new
// points to replace the simulated run. Explains a point it produced (the model's
// explanation, core explain_simulated_point) for the plots' hover.
class WhatIf : public QObject {
  Q_OBJECT
 public:
  WhatIf(MachinePanel* panel, std::function<RunRequest()> request, QObject* parent = nullptr);
  ~WhatIf() override;

  MachinePanel* panel() const { return panel_; }
  // Inactive (measure mode): panel changes redraw nothing.
  void set_active(bool active) { active_ = active; }
  bool active() const { return active_; }
  // Re-simulates now; false (and the reason in the panel) when the machine or the sweep is refused.
  bool resimulate();
  // The machine of the last successful resimulate() (for the plots' ceilings).
  const MachineParams& machine() const { return machine_; }
  // The model's explanation of a point of the last what-if run; empty for any other point.
  QString explain(const Point& p) const;
  // Called by the window when a run in progress keeps it from replacing the points.
  void refused_busy();

  static constexpr const char* kDatasetName = "this run (simulated)";

 signals:
  // The simulated run's new points (Dataset named kDatasetName), the machine's LLC per socket
  // and a one-line summary for the status bar.
  void simulated(const bwlab::gui::Dataset& run, quint64 llc_bytes, const QString& summary);

 private:
  MachinePanel* panel_;
  std::function<RunRequest()> request_;
  bool active_ = false;
  MachineParams machine_;
  std::unique_ptr<Topology> topo_;  // of machine_, after a successful resimulate()
};

}  // namespace bwlab::gui
