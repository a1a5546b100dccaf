// SPDX-License-Identifier: MIT
// Engine overhead (a benchmark, not a test): what gathering the pinned team at its barrier,
// reading the clock and leaving the window cost per repetition, outside the counted window.
// For each thread count it runs N windows of a 64 KiB stosb (a pass takes microseconds, so the
// "keep clearing until every thread passed the deadline" tail is negligible) and prints
// wall time per measure_window() call minus the measured window, absolute and as a share of
// the default 200 ms window.   Usage: engine_overhead [WINDOWS] [DURATION_MS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/engine/buffer.hpp"
#include "core/engine/pinned_team.hpp"
#include "core/engine/window.hpp"
#include "core/kernels/kernels.hpp"
#include "core/stats/stats.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"

int main(int argc, char** argv) {
  using namespace bwlab;
  using Clock = std::chrono::steady_clock;
  const int windows = argc > 1 ? std::atoi(argv[1]) : 200;
  const int duration_ms = argc > 2 ? std::atoi(argv[2]) : 5;
  const Topology topo = Topology::local();
  const int max_threads = static_cast<int>(topo.allowed_pus().size());
  std::printf("engine overhead per repetition (%d windows of %d ms, 64 KiB stosb)\n", windows, duration_ms);
  std::printf("threads  overhead median  p90       share of a 200 ms window\n");
  for (int threads = 1; threads <= max_threads; ++threads) {
    const auto pus = plan_pus(topo, Placement{}, threads);
    PinnedTeam team(topo, pus);
    std::vector<Buffer> buffers(pus.size());
    team.run([&](PinnedTeam::Context& c) {
      buffers[static_cast<std::size_t>(c.slot)] = Buffer(topo, 64 << 10, c.pu, MemBind{}, Pages::small4k);
      buffers[static_cast<std::size_t>(c.slot)].first_touch();
    });
    std::vector<std::uint64_t> counters(pus.size(), 0);
    std::vector<double> overhead_us;
    for (int w = 0; w < windows; ++w) {
      WindowConfig cfg{std::chrono::milliseconds(duration_ms), false, nullptr};
      const auto t0 = Clock::now();
      const WindowResult r = measure_window(team, buffers, find_kernel("stosb")->fn, Fill{}, counters, cfg);
      const double wall_ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
      double window_ns = 0;
      for (const auto& t : r.threads) window_ns = std::max(window_ns, static_cast<double>(t.elapsed_ns));
      overhead_us.push_back((wall_ns - window_ns) / 1e3);
    }
    std::sort(overhead_us.begin(), overhead_us.end());
    const double med = median(overhead_us);
    const double p90 = overhead_us[overhead_us.size() * 9 / 10];
    std::printf("%7d  %10.1f us  %7.1f us  %.4f%%\n", threads, med, p90, med / 2000.0);
  }
  return 0;
}
