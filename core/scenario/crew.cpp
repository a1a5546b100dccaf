// SPDX-License-Identifier: MIT
#include "core/scenario/crew.hpp"

#include <algorithm>

#include "core/topology/placement.hpp"

namespace bwlab::scenario_detail {

std::unique_ptr<Crew> make_crew(const Topology& topo, const SweepSpec& spec, int threads, std::uint64_t bytes,
                                const std::vector<bool>& needs_buffer, Progress& progress,
                                const std::atomic<bool>* stop) {
  auto crew = std::make_unique<Crew>();
  crew->pus = plan_pus(topo, spec.placement, threads);  // throws when it cannot host them
  const auto buffers = static_cast<int>(
      std::count(needs_buffer.begin(), needs_buffer.begin() + std::min<std::ptrdiff_t>(threads, std::ssize(needs_buffer)), true));
  if (buffers > 0 && bytes > 0) progress.preparing(buffers, bytes);
  if (!spec.placement.binds()) crew->pus.assign(crew->pus.size(), kAnyPu);  // the OS places them
  crew->team = std::make_unique<PinnedTeam>(topo, crew->pus, spec.gather_timeout);
  const std::size_t n = crew->pus.size();
  crew->buffers.resize(n);
  crew->mem_nodes.assign(n, -1);
  if (!crew->team->run(
          [&](PinnedTeam::Context& ctx) {
            const auto slot = static_cast<std::size_t>(ctx.slot);
            if (slot >= needs_buffer.size() || !needs_buffer[slot]) return;
            crew->buffers[slot] = Buffer(topo, bytes, ctx.pu, spec.membind, spec.pages);
            if (!crew->buffers[slot].first_touch(stop)) return;  // interrupted: the crew is dropped below
            crew->mem_nodes[slot] = crew->buffers[slot].mem_node(topo);
          },
          stop))
    return nullptr;
  if (stop && stop->load()) return nullptr;  // interrupted while the buffers were prepared
  bool any = false;
  for (const auto& b : crew->buffers) {
    if (!b.data()) continue;
    any = true;
    if (!b.note().empty() && std::find(crew->notes.begin(), crew->notes.end(), b.note()) == crew->notes.end())
      crew->notes.push_back(b.note());
  }
  if (any) {
    const HugeCheck huge = check_huge_pages(crew->buffers, spec.pages);
    crew->huge_pct = huge.pct;
    if (!huge.flag.empty()) crew->notes.push_back(huge.flag);
  }
  return crew;
}

Progress::Progress(SweepObserver& observer, int total)
    : observer_(observer), total_(total), start_(std::chrono::steady_clock::now()) {}

void Progress::window_done(const std::string& current, double window_gbps) {
  ++done_;
  SweepProgress p;
  p.windows_done = done_;
  p.windows_total = total_;
  p.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  p.eta_s = p.elapsed_s / done_ * std::max(0, total_ - done_);
  p.current = current;
  p.window_gbps = window_gbps;
  observer_.on_progress(p);
}

Point base_point(const ScenarioSpec& spec, const std::string& host, const std::string& cpu_model) {
  Point p;
  p.source = "measured";
  p.scenario = std::string(to_string(spec.scenario));
  p.host = host;
  p.cpu_model = cpu_model;
  p.placement = spec.sweep.placement.label();
  p.membind = spec.sweep.membind.label();
  p.pages = std::string(to_string(spec.sweep.pages));
  p.duration_ms = spec_duration_ms(spec.sweep);
  return p;
}

PointPlan crew_plan(const Crew& crew, const SweepSpec& spec, std::vector<int> slots, std::vector<int> shown,
                    std::vector<std::string> slot_kernels, RateBase base) {
  PointPlan plan;
  plan.slots = std::move(slots);
  plan.shown = std::move(shown);
  plan.pus_planned = crew.pus;
  plan.mem_nodes = crew.mem_nodes;
  plan.slot_kernels = std::move(slot_kernels);
  plan.base = base;
  plan.unstable_pct = spec.unstable_pct;
  plan.notes = crew.notes;
  plan.noise = spec.noise;
  return plan;
}

std::vector<int> first_slots(int n) {
  std::vector<int> v(static_cast<std::size_t>(std::max(n, 0)));
  for (int s = 0; s < n; ++s) v[static_cast<std::size_t>(s)] = s;
  return v;
}

}  // namespace bwlab::scenario_detail
