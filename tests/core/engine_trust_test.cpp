// SPDX-License-Identifier: MIT
// Measurements a lab can trust: the noise readers on fixtures, the PU sampled through the window,
// and a thread moved off its PU from outside in the middle of a window.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "core/engine/buffer.hpp"
#include "core/engine/noise.hpp"
#include "core/engine/pinned_team.hpp"
#include "core/engine/window.hpp"
#include "core/kernels/kernels.hpp"
#include "core/scenario/points.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace bwlab {
namespace {

using namespace std::chrono_literals;
const std::string kData = std::string(BWLAB_TEST_DATA) + "/noise";

const Topology& topo() {
  static const Topology t = Topology::local();
  return t;
}

TEST(Noise, ReadsPerCpuTicksAndSteal) {
  const auto before = read_cpu_ticks(kData + "/proc_stat_before");
  const auto after = read_cpu_ticks(kData + "/proc_stat_after");
  ASSERT_EQ(before.size(), 2u);  // the aggregate "cpu " line is not a CPU
  EXPECT_EQ(before[0].steal, 743u);
  EXPECT_EQ(before[0].total, 504991u + 73956 + 787417 + 373 + 56 + 743);
  EXPECT_DOUBLE_EQ(steal_pct(before, after, {0}), 10.0);       // 2 of 20 ticks
  EXPECT_DOUBLE_EQ(steal_pct(before, after, {1}), 0.0);        // 0 of 18
  EXPECT_DOUBLE_EQ(steal_pct(before, after, {0, 1}), 200.0 / 38);
  EXPECT_TRUE(std::isnan(steal_pct(before, after, {2})));      // not in the reads
  EXPECT_TRUE(std::isnan(steal_pct(before, before, {0})));     // no tick passed
  EXPECT_TRUE(read_cpu_ticks(kData + "/no-such-file").empty());
}

TEST(Noise, CpuClockFromCpufreqOrTheReasonWhyNot) {
  EXPECT_DOUBLE_EQ(cpufreq_mhz(1, kData + "/cpu"), 2595.0);
  EXPECT_EQ(cpu_clock_missing_reason(1, kData + "/cpu"), "");
  EXPECT_TRUE(std::isnan(cpufreq_mhz(0, kData + "/cpu")));
  const std::string why = cpu_clock_missing_reason(0, kData + "/cpu");
  EXPECT_NE(why.find("cpu0/cpufreq/scaling_cur_freq is missing"), std::string::npos) << why;
}

TEST(TrustedWindow, SamplesThePuAfterEveryPass) {
  const int pu = topo().allowed_pus().front();
  PinnedTeam team(topo(), {pu});
  constexpr std::size_t kSize = 16 << 20;  // below the 256 MiB chunk: one sample per call
  std::vector<Buffer> buffers(1);
  ASSERT_TRUE(team.run([&](PinnedTeam::Context& c) {
    buffers[0] = Buffer(topo(), kSize, c.pu, MemBind{}, Pages::small4k);
    buffers[0].first_touch();
  }));
  std::vector<std::uint64_t> counters(1, 0);
  const WindowResult r = measure_window(team, buffers, find_kernel("stosb")->fn, Fill{}, counters,
                                        WindowConfig{5ms, false, nullptr});
  ASSERT_FALSE(r.stopped);
  const ThreadWindow& t = r.threads[0];
  ASSERT_GE(t.passes, 1u);
  // Start and end, and one after each call: counted passes are a lower bound.
  EXPECT_GE(t.cpu_samples, 2 + t.passes);
  EXPECT_EQ(t.off_pu_samples, 0u);
  EXPECT_EQ(t.cpus_seen, std::vector<int>{pu});
  EXPECT_GT(t.wall_ns, 0);
  EXPECT_GE(t.invol_ctx_switches, 0);
}

// A thread moved off its PU from outside, mid-window: the point says so. The window cannot end
// before the move: the first pass waits for it (the hook tells the mover the window has opened).
TEST(TrustedWindow, AThreadMovedMidWindowIsFlaggedAsRanOffItsPu) {
  const std::vector<int> allowed = topo().allowed_pus();
  if (allowed.size() < 2)
    GTEST_SKIP() << "needs 2 allowed PUs to move a thread between, this process may use " << allowed.size()
                 << " (cgroup cpuset or taskset)";
  const int home = allowed[0], elsewhere = allowed[1];
  PinnedTeam team(topo(), {home});
  const auto guard = std::chrono::steady_clock::now() + 60s;  // hang guard only
  std::atomic<pid_t> tid{0};
  std::atomic<bool> moved{false};
  std::thread mover([&] {
    while (tid.load() == 0 && std::chrono::steady_clock::now() < guard) std::this_thread::yield();
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(elsewhere, &set);
    if (tid.load() != 0) {
      EXPECT_EQ(sched_setaffinity(tid.load(), sizeof set, &set), 0);
    }
    moved.store(true);
  });
  const WorkFactory work = [&](int) -> PassFn {
    return [&, first = true]() mutable {
      if (first) {
        first = false;
        while (!moved.load() && std::chrono::steady_clock::now() < guard) std::this_thread::yield();
        // Runs on the new PU from its next scheduling on; yield until it has.
        while (current_cpu() != elsewhere && std::chrono::steady_clock::now() < guard) sched_yield();
        sample_cpu();
      }
      return PassCount{4096, 1, 0, 0, 0};
    };
  };
  const WindowResult r =
      measure_work_window(team, work, WindowConfig{1ms, false, nullptr}, [&](int) { tid.store(gettid()); });
  mover.join();
  ASSERT_LT(std::chrono::steady_clock::now(), guard) << "hang guard";
  ASSERT_FALSE(r.stopped);
  EXPECT_GT(r.threads[0].off_pu_samples, 0u);

  Point p;
  p.kernel = "test";
  p.size_bytes = 4096;
  p.duration_ms = 1;
  PointPlan plan;
  plan.slots = plan.shown = {0};
  plan.pus_planned = {home};
  plan.unstable_pct = std::numeric_limits<double>::infinity();
  fill_figures(p, {r}, plan);
  ASSERT_EQ(p.per_thread.size(), 1u);
  EXPECT_FALSE(p.per_thread[0].pinned);
  bool flagged = false;
  for (const auto& f : p.flags)
    flagged = flagged || f.find(fmt::format("not pinned: thread 0 was seen on PU {}, planned {} (ran off its PU in 1 "
                                            "of 1 windows",
                                            elsewhere, home)) == 0;
  EXPECT_TRUE(flagged) << fmt::format("{}", fmt::join(p.flags, " | "));
}

}  // namespace
}  // namespace bwlab
