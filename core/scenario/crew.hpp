// SPDX-License-Identifier: MIT
// What every scenario runner shares (internal to core/scenario): a pinned team with its buffers,
// set up the way every measurement starts (each thread maps its own buffer, bound as asked, and
// touches it first from its own PU), progress reporting, and the start of every point.
#pragma once
#include <atomic>
#include <chrono>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/engine/buffer.hpp"
#include "core/engine/pinned_team.hpp"
#include "core/scenario/points.hpp"
#include "core/scenario/scenario.hpp"
#include "core/sweep/sweep.hpp"

namespace bwlab::scenario_detail {

struct Crew {
  std::vector<int> pus;             // planned PU per slot
  std::unique_ptr<PinnedTeam> team;
  std::vector<Buffer> buffers;      // per slot; empty Buffer where the slot needs none
  std::vector<int> mem_nodes;       // node of each buffer's first page, -1 unknown / no buffer
  std::vector<std::string> notes;   // binding notes and the huge-page check, once each
  double huge_pct = Point::kNone;   // of the buffers mapped, NaN when none
};

class Progress;

// Plans `threads` PUs and gathers the team. Slots for which `needs_buffer(slot)` is true get a
// buffer of `bytes`, after `progress` has announced them (SweepObserver::on_preparing: first
// touching gigabytes takes seconds). Returns nullptr when `stop` was set while setting up.
std::unique_ptr<Crew> make_crew(const Topology& topo, const SweepSpec& spec, int threads, std::uint64_t bytes,
                                const std::vector<bool>& needs_buffer, Progress& progress,
                                const std::atomic<bool>* stop);

// Progress reporting shared by the runners.
class Progress {
 public:
  Progress(SweepObserver& observer, int total);
  // One more window done; `window_gbps` is its aggregate where the scenario reports one.
  void window_done(const std::string& current, double window_gbps = Point::kNone);
  // The plan grew (--reps auto adds repetitions): the total is at least `total`.
  void grow_total(int total) { total_ = std::max(total_, total); }
  int done() const { return done_; }
  // `buffers` buffers of `bytes` each are about to be mapped and first touched.
  void preparing(int buffers, std::uint64_t bytes) { observer_.on_preparing(buffers, bytes); }

 private:
  SweepObserver& observer_;
  int total_;
  int done_ = 0;
  std::chrono::steady_clock::time_point start_;
};

// The fields every point of a run shares: source, scenario, host, CPU, placement, membind, pages,
// window length.
Point base_point(const ScenarioSpec& spec, const std::string& host, const std::string& cpu_model);

// The plan of a point measured by `crew`: its planned PUs, buffer nodes and notes, the spec's
// stability threshold (--reps auto is the scaling runner's: it sets reps_auto itself).
PointPlan crew_plan(const Crew& crew, const SweepSpec& spec, std::vector<int> slots, std::vector<int> shown,
                    std::vector<std::string> slot_kernels, RateBase base);

// 0, 1, ..., n-1.
std::vector<int> first_slots(int n);

}  // namespace bwlab::scenario_detail
