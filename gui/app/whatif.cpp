// SPDX-License-Identifier: MIT
#include "gui/app/whatif.hpp"

#include <QElapsedTimer>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/model/simulate.hpp"
#include "core/model/uarch.hpp"
#include "gui/app/machine_panel.hpp"

namespace bwlab::gui {

WhatIf::WhatIf(MachinePanel* panel, std::function<RunRequest()> request, QObject* parent)
    : QObject(parent), panel_(panel), request_(std::move(request)) {
  connect(panel_, &MachinePanel::specChanged, this, [this] {
    if (active_) resimulate();
  });
}

WhatIf::~WhatIf() = default;

bool WhatIf::resimulate() {
  QElapsedTimer clock;
  clock.start();
  try {
    MachineParams m = model::machine_from_spec(panel_->spec());
    // The topology is rebuilt only when sockets, cores or SMT changed (hwloc takes a while for 256 PUs).
    std::unique_ptr<Topology> fresh;
    if (!topo_ || topo_->origin() != m.topology) fresh = std::make_unique<Topology>(Topology::from_synthetic(m.topology));
    const Topology* topo = fresh ? fresh.get() : topo_.get();
    RunRequest r = request_();
    r.simulate = true;
    CpuFeatures any;  // the model decides what the simulated machine runs (simulate_sweep checks it)
    any.sse2 = any.avx2 = any.avx512f = any.clzero = true;
    const ScenarioSpec scen = build_scenario(r, *topo, any);
    Dataset run;
    run.name = kDatasetName;
    run.points = simulate_scenario(scen, *topo, m);  // the panel's scenario: scaling, victim or mix
    run.machine = simulated_machine_json(m, *topo);   // kept with the run (a saved session, the plots' ceilings)
    const double ms = double(clock.nsecsElapsed()) / 1e6;
    const QString summary = QString::fromStdString(
        fmt::format("what-if {}: {} PUs, DRAM peak {:.1f} GB/s per socket, clock {:.2f} GHz; {} points simulated in "
                    "{:.1f} ms",
                    m.name, topo->pus().size(), m.dram_peak_gbps_per_node, m.core_ghz, run.points.size(), ms));
    machine_ = std::move(m);
    if (fresh) topo_ = std::move(fresh);
    panel_->set_status(summary, false);
    emit simulated(run, machine_.llc_bytes_per_package, summary);
    return true;
  } catch (const std::exception& e) {  // InputError: the machine or the sweep refused, said as the CLI says it
    // The plot keeps the last machine that simulated: said, so it is not read as this one's.
    const QString kept = machine_.name.empty() ? QString()
                                               : QString("; the plot still shows the last machine simulated, %1")
                                                     .arg(QString::fromStdString(machine_.name));
    panel_->set_status(QString("not simulated: %1%2").arg(e.what(), kept), true);
    return false;
  }
}

void WhatIf::refused_busy() {
  panel_->set_status("not simulated: a run is in progress; change the machine again when it has finished", true);
}

QString WhatIf::explain(const Point& p) const {
  if (!topo_ || p.source != "simulated" || p.host != "model:" + machine_.name) return {};
  try {
    return QString::fromStdString("Why (model, what-if machine " + machine_.name + "):\n" +
                                  explain_simulated_point(p, *topo_, machine_))
        .trimmed();
  } catch (const std::exception&) {
    return {};  // a point of another sweep with the same machine name: no explanation rather than a wrong one
  }
}

}  // namespace bwlab::gui
