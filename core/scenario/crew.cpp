// SPDX-License-Identifier: MIT
#include "core/scenario/crew.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/topology/placement.hpp"

namespace bwlab::scenario_detail {

std::unique_ptr<Crew> make_crew(const Topology& topo, const SweepSpec& spec, int threads, std::uint64_t bytes,
                                const std::vector<bool>& needs_buffer, const std::atomic<bool>* stop) {
  auto crew = std::make_unique<Crew>();
  crew->pus = plan_pus(topo, spec.placement, threads);
  crew->team = std::make_unique<PinnedTeam>(topo, crew->pus, spec.gather_timeout);
  const std::size_t n = crew->pus.size();
  crew->buffers.resize(n);
  crew->mem_nodes.assign(n, -1);
  if (!crew->team->run(
          [&](PinnedTeam::Context& ctx) {
            const auto slot = static_cast<std::size_t>(ctx.slot);
            if (slot >= needs_buffer.size() || !needs_buffer[slot]) return;
            crew->buffers[slot] = Buffer(topo, bytes, ctx.pu, spec.membind, spec.pages);
            crew->buffers[slot].first_touch();
            crew->mem_nodes[slot] = crew->buffers[slot].mem_node(topo);
          },
          stop))
    return nullptr;
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

void Progress::window_done(const std::string& current) {
  ++done_;
  SweepProgress p;
  p.windows_done = done_;
  p.windows_total = total_;
  p.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  p.eta_s = p.elapsed_s / done_ * std::max(0, total_ - done_);
  p.current = current;
  observer_.on_progress(p);
}

std::string size_label(std::uint64_t b) {
  if (b >= (1ull << 30) && b % (1ull << 30) == 0) return fmt::format("{}GiB", b >> 30);
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return fmt::format("{}MiB", b >> 20);
  if (b >= (1ull << 10) && b % (1ull << 10) == 0) return fmt::format("{}KiB", b >> 10);
  return fmt::format("{}B", b);
}

}  // namespace bwlab::scenario_detail
