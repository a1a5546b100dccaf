// SPDX-License-Identifier: MIT
// A pinned team with its buffers, set up the way every measurement starts: each thread maps its
// own buffer, bound as asked, and touches it first from its own PU. Internal to core/scenario.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/engine/buffer.hpp"
#include "core/engine/pinned_team.hpp"
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

// Plans `threads` PUs and gathers the team. Slots for which `needs_buffer(slot)` is true get a
// buffer of `bytes`. Returns nullptr when `stop` was set while setting up.
std::unique_ptr<Crew> make_crew(const Topology& topo, const SweepSpec& spec, int threads, std::uint64_t bytes,
                                const std::vector<bool>& needs_buffer, const std::atomic<bool>* stop);

// Progress reporting shared by the runners.
class Progress {
 public:
  Progress(SweepObserver& observer, int total);
  void window_done(const std::string& current);

 private:
  SweepObserver& observer_;
  int total_;
  int done_ = 0;
  std::chrono::steady_clock::time_point start_;
};

std::string size_label(std::uint64_t bytes);  // "16MiB"

}  // namespace bwlab::scenario_detail
