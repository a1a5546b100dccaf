// SPDX-License-Identifier: MIT
// The shared measurement skeleton with per-slot work: per-slot kernels, idle slots, OS work.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>

#include "core/counters/dram_meter.hpp"
#include "core/engine/buffer.hpp"
#include "core/engine/page_check.hpp"
#include "core/engine/pinned_team.hpp"
#include "core/engine/window.hpp"
#include "core/kernels/kernels.hpp"
#include "core/scenario/points.hpp"
#include "core/sysinfo/sysinfo.hpp"

namespace bwlab {
namespace {

using namespace std::chrono_literals;

const Topology& topo() {
  static const Topology t = Topology::local();
  return t;
}

TEST(MeasureKernelsWindow, EachSlotClearsWithItsOwnKernelAndIdleSlotsDoNothing) {
  const std::vector<int> allowed = topo().allowed_pus();
  if (allowed.size() < 2) GTEST_SKIP() << "needs 2 allowed PUs, this process has " << allowed.size();
  const std::vector<int> pus(allowed.begin(), allowed.begin() + 2);
  PinnedTeam team(topo(), pus);
  constexpr std::size_t kSize = 128 << 10;
  std::vector<Buffer> buffers(2);
  ASSERT_TRUE(team.run([&](PinnedTeam::Context& c) {
    buffers[static_cast<std::size_t>(c.slot)] = Buffer(topo(), kSize, c.pu, MemBind{}, Pages::small4k);
  }));
  for (auto& b : buffers) std::memset(b.data(), 0x11, kSize);
  std::vector<std::uint64_t> counters(2, 0);
  Fill fill;
  fill.byte = 0x77;
  // Slot 0 clears with movnti, slot 1 sits the window out.
  const std::vector<KernelFn> kernels = {find_kernel("movnti")->fn, nullptr};
  const WindowResult r = measure_kernels_window(team, buffers, kernels, fill, counters, WindowConfig{3ms, false, nullptr});
  ASSERT_FALSE(r.stopped);
  EXPECT_FALSE(r.threads[0].idle);
  EXPECT_GE(r.threads[0].passes, 1u);
  EXPECT_EQ(r.threads[0].bytes, r.threads[0].passes * kSize);
  EXPECT_TRUE(r.threads[1].idle);
  EXPECT_EQ(r.threads[1].bytes, 0u);
  EXPECT_EQ(r.threads[1].passes, 0u);
  EXPECT_EQ(counters[1], 0u);
  const auto* a = static_cast<const unsigned char*>(buffers[0].data());
  const auto* b = static_cast<const unsigned char*>(buffers[1].data());
  EXPECT_TRUE(std::all_of(a, a + kSize, [](unsigned char c) { return c == 0x77; }));
  EXPECT_TRUE(std::all_of(b, b + kSize, [](unsigned char c) { return c == 0x11; }));  // untouched
}

TEST(MeasureWorkWindow, SumsWhatThePassesReportAndWarmsUpUncounted) {
  const std::vector<int> pus = {topo().allowed_pus().front()};
  PinnedTeam team(topo(), pus);
  int calls = 0;
  const WorkFactory work = [&](int) -> PassFn {
    return [&] {
      ++calls;
      return PassCount{10, 1, 3, 2, 7};
    };
  };
  const WindowResult r = measure_work_window(team, work, WindowConfig{2ms, true, nullptr});
  ASSERT_FALSE(r.stopped);
  const ThreadWindow& t = r.threads[0];
  ASSERT_GE(t.passes, 1u);
  EXPECT_EQ(t.bytes, 10 * t.passes);
  EXPECT_EQ(t.ops, 3 * t.passes);
  EXPECT_EQ(t.faults, 2 * t.passes);
  EXPECT_EQ(t.busy_ns, static_cast<std::int64_t>(7 * t.passes));
  EXPECT_EQ(static_cast<std::uint64_t>(calls), t.passes + 1);  // one warm-up call, uncounted (one thread: none after)
}

TEST(PageCheck, SmapsTextCountsHugePagesOverlappingTheRange) {
  const std::string smaps =
      "7f0000000000-7f0000400000 rw-p 00000000 00:00 0\n"
      "Size:               4096 kB\n"
      "AnonHugePages:      2048 kB\n"
      "Private_Hugetlb:        0 kB\n"
      "VmFlags: rd wr mr mw me ac hg\n"
      "7f0000400000-7f0000600000 rw-p 00000000 00:00 0\n"
      "AnonHugePages:         0 kB\n"
      "Private_Hugetlb:     2048 kB\n"
      "7f1000000000-7f1000200000 rw-p 00000000 00:00 0\n"
      "AnonHugePages:      2048 kB\n";
  // The first two mappings: 2 MiB THP + 2 MiB hugetlb; the third is outside the range.
  EXPECT_EQ(huge_backed_bytes_in(smaps, 0x7f0000000000, 0x7f0000600000), 4ull << 20);
  // Only 1 MiB of the first mapping is in the range: its count is capped at the overlap.
  EXPECT_EQ(huge_backed_bytes_in(smaps, 0x7f0000000000, 0x7f0000100000), 1ull << 20);
  EXPECT_EQ(huge_backed_bytes_in(smaps, 0x7e0000000000, 0x7e0000100000), 0u);
  EXPECT_EQ(huge_backed_bytes_in("", 0, 1), 0u);
}

TEST(PageCheck, FourKBufferIsNotHugeAndThpIsReportedAsFound) {
  Buffer small(topo(), 4u << 20, topo().allowed_pus().front(), MemBind{}, Pages::small4k);
  small.first_touch();
  EXPECT_EQ(small.huge_bytes(), 0u);  // MADV_NOHUGEPAGE
  Buffer thp(topo(), 4u << 20, topo().allowed_pus().front(), MemBind{}, Pages::thp);
  thp.first_touch();
  EXPECT_LE(thp.huge_bytes(), thp.size());
  EXPECT_EQ(thp.huge_bytes() % (2u << 20), 0u);
  // With THP off no huge page can back it; with always/madvise the kernel may still refuse
  // (fragmentation), which the sweep flags (Sweep.ThpOutcomeMatchesTheKernelSetting).
  if (thp_setting() == "never") {
    EXPECT_EQ(thp.huge_bytes(), 0u);
  }
}

TEST(MemBindPlan, RemoteIsAnotherNodeOnSyntheticMultiNodeMachines) {
  const Topology two = Topology::from_synthetic("package:2 numa:1 core:2 pu:1");
  ASSERT_EQ(two.numa_nodes(), 2);
  const MemBind remote = parse_membind("remote");
  const MemBind interleave = parse_membind("interleave");
  for (const auto& pu : two.pus()) {
    EXPECT_EQ(planned_mem_node(two, MemBind{}, pu.os_index), pu.numa_node);
    EXPECT_EQ(planned_mem_node(two, remote, pu.os_index), 1 - pu.numa_node) << "PU " << pu.os_index;
    EXPECT_EQ(planned_mem_node(two, interleave, pu.os_index), -1);
    EXPECT_EQ(planned_mem_node(two, parse_membind("node:1"), pu.os_index), 1);
  }
  const Topology four = Topology::from_synthetic("package:4 numa:1 core:1 pu:1");
  ASSERT_EQ(four.numa_nodes(), 4);
  for (const auto& pu : four.pus()) {
    const int node = planned_mem_node(four, remote, pu.os_index);
    EXPECT_NE(node, pu.numa_node);
    EXPECT_EQ(node, (pu.numa_node + 1) % 4);
  }
  EXPECT_EQ(remote.label(), "remote");
}

TEST(Pages, ParseAndPageSizes) {
  EXPECT_EQ(parse_pages("hugetlb2m"), Pages::hugetlb2m);
  EXPECT_EQ(parse_pages("hugetlb1g"), Pages::hugetlb1g);
  EXPECT_EQ(to_string(Pages::hugetlb1g), "hugetlb1g");
  EXPECT_EQ(page_size(Pages::small4k), 4096u);
  EXPECT_EQ(page_size(Pages::thp), 4096u);
  EXPECT_EQ(page_size(Pages::hugetlb2m), 2u << 20);
  EXPECT_EQ(page_size(Pages::hugetlb1g), 1u << 30);
  EXPECT_THROW(parse_pages("hugetlb4m"), std::runtime_error);
}

}  // namespace
}  // namespace bwlab

namespace bwlab {
namespace {

TEST(MeasureWorkWindow, AThrowingPassEndsTheWindowForEveryThread) {
  const std::vector<int> allowed = topo().allowed_pus();
  const std::vector<int> pus(allowed.begin(), allowed.begin() + std::min<std::size_t>(2, allowed.size()));
  PinnedTeam team(topo(), pus);
  const WorkFactory work = [&](int slot) -> PassFn {
    if (slot == 0)
      return [n = 0]() mutable -> PassCount {
        if (++n == 3) throw std::runtime_error("mmap failed");
        return PassCount{1, 1, 0, 0, 0};
      };
    return [] { return PassCount{1, 1, 0, 0, 0}; };
  };
  // A long window (the 60 s hang guard): the failure, not the window's end, ends the call.
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(measure_work_window(team, work, WindowConfig{60s, false, nullptr}), std::runtime_error);
  EXPECT_LT(std::chrono::steady_clock::now(), t0 + 60s);
  // The team stays usable.
  const WindowResult r = measure_work_window(
      team, [](int) -> PassFn { return [] { return PassCount{1, 1, 0, 0, 0}; }; }, WindowConfig{1ms, false, nullptr});
  EXPECT_FALSE(r.stopped);
}


// ---- The window's calls of the DRAM counters (WindowConfig::dram): started once when the window
// opens (after the warm-up, before any counted pass), stopped once after every thread left, the
// reading carried in the WindowResult; bytes_all covers every pass the counters could see. ----
// A meter without counters that records when the engine calls it.
class RecordingMeter final : public DramMeter {
 public:
  explicit RecordingMeter(const std::atomic<int>& passes) : passes_(passes) {}
  void start() override {
    ++starts;
    passes_at_start = passes_.load();
  }
  DramBytes stop() override {
    ++stops;
    passes_at_stop = passes_.load();
    return DramBytes{1000, 3000};
  }
  int starts = 0, stops = 0, passes_at_start = -1, passes_at_stop = -1;

 private:
  const std::atomic<int>& passes_;
};

TEST(DramWindow, StartedWhenTheWindowOpensStoppedAfterEveryThreadLeft) {
  const std::vector<int> allowed = topo().allowed_pus();
  const std::vector<int> pus(allowed.begin(), allowed.begin() + std::min<std::size_t>(2, allowed.size()));
  PinnedTeam team(topo(), pus);
  std::atomic<int> passes{0};
  RecordingMeter meter(passes);
  const WorkFactory work = [&](int) -> PassFn {
    return [&] {
      passes.fetch_add(1);
      return PassCount{10, 1, 0, 0, 0};
    };
  };
  WindowConfig config{2ms, true, nullptr};
  config.dram = &meter;
  const WindowResult r = measure_work_window(team, work, config);
  ASSERT_FALSE(r.stopped);
  EXPECT_EQ(meter.starts, 1);
  EXPECT_EQ(meter.stops, 1);
  EXPECT_EQ(meter.passes_at_start, static_cast<int>(pus.size()));  // only the warm-up passes ran before
  EXPECT_EQ(meter.passes_at_stop, passes.load());                   // nothing ran after
  EXPECT_EQ(r.dram.read, 1000);
  EXPECT_EQ(r.dram.write, 3000);
  std::uint64_t all = 0;
  for (const ThreadWindow& t : r.threads) {
    EXPECT_GE(t.bytes_all, t.bytes);
    all += t.bytes_all;
  }
  // Every pass after the warm-up is in bytes_all, counted or not.
  EXPECT_EQ(all, 10u * static_cast<std::uint64_t>(passes.load() - static_cast<int>(pus.size())));

  Point p;
  fill_dram(p, {r});
  EXPECT_DOUBLE_EQ(p.dram_read_per_byte, 1000.0 / static_cast<double>(all));
  EXPECT_DOUBLE_EQ(p.dram_write_per_byte, 3000.0 / static_cast<double>(all));
}

// Interrupted (stop set before the window): whether or not the window opened, every start of the
// counters is paired with a stop, so none is left running.
TEST(DramWindow, EveryStartIsPairedWithAStopWhenInterrupted) {
  PinnedTeam team(topo(), {topo().allowed_pus().front()});
  std::atomic<int> passes{0};
  RecordingMeter meter(passes);
  const std::atomic<bool> stop{true};
  WindowConfig config{2ms, false, &stop};
  config.dram = &meter;
  const WindowResult r = measure_work_window(
      team, [](int) -> PassFn { return [] { return PassCount{10, 1, 0, 0, 0}; }; }, config);
  EXPECT_TRUE(r.stopped);
  EXPECT_LE(meter.starts, 1);
  EXPECT_EQ(meter.stops, meter.starts);
  EXPECT_EQ(r.dram.counted(), meter.starts == 1);
}

TEST(DramWindow, WithoutAMeterNothingIsCounted) {
  PinnedTeam team(topo(), {topo().allowed_pus().front()});
  const WindowResult r = measure_work_window(
      team, [](int) -> PassFn { return [] { return PassCount{10, 1, 0, 0, 0}; }; }, WindowConfig{2ms, false, nullptr});
  ASSERT_FALSE(r.stopped);
  EXPECT_FALSE(r.dram.counted());
  Point p;
  fill_dram(p, {r});
  EXPECT_TRUE(std::isnan(p.dram_read_per_byte));
}

}  // namespace
}  // namespace bwlab
