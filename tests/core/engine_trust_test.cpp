// SPDX-License-Identifier: MIT
// Measurements a lab can trust: the noise readers on fixtures, the PU sampled through the window,
// and a thread moved off its PU from outside in the middle of a window.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <thread>

#include "core/engine/buffer.hpp"
#include "core/engine/noise.hpp"
#include "core/engine/pinned_team.hpp"
#include "core/engine/window.hpp"
#include "core/kernels/kernels.hpp"
#include "core/insight/usable_median.hpp"
#include "core/scenario/points.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/topology/placement.hpp"

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

// A guest whose /proc/stat never counts steal (this 2-vCPU guest: 0 ticks in 15 h of uptime) had
// every point's steal_pct_max 0.0 read as "the host took nothing": said once per run instead.
TEST(Noise, StealNeverCountedIsSaidUnseen) {
  const long hz = ::sysconf(_SC_CLK_TCK) > 0 ? ::sysconf(_SC_CLK_TCK) : 100;
  const auto line = [](std::uint64_t user, std::uint64_t idle, std::uint64_t steal) {
    return fmt::format("cpu  {} 0 100 {} 10 0 20 {} 0 0", user, idle, steal);
  };
  const std::uint64_t two_hours = static_cast<std::uint64_t>(2 * 3600 * hz);
  const std::string unseen = steal_unseen_warning(line(two_hours / 2, two_hours / 2, 0));
  EXPECT_NE(unseen.find("counts no steal time in 2.0 h of CPU time"), std::string::npos) << unseen;
  EXPECT_NE(unseen.find("steal_pct 0 means unseen, not none"), std::string::npos) << unseen;
  EXPECT_EQ(steal_unseen_warning(line(two_hours / 2, two_hours / 2, 7)), "");  // steal is counted here
  EXPECT_EQ(steal_unseen_warning(line(hz, hz, 0)), "");                        // too soon to tell
  EXPECT_EQ(steal_unseen_warning("cpu0 1 2 3"), "");                           // not the aggregate line
  EXPECT_EQ(steal_unseen_warning(""), "");
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
  const std::string no_msr = kData + "/no-msr/{}/msr";
  EXPECT_EQ(cpu_clock_missing_reason(0, kData + "/cpu", no_msr),
            fmt::format("no cpufreq under {0}/cpu/cpu0/cpufreq and {0}/no-msr/0/msr does not exist (modprobe msr): "
                        "cpu_mhz_median stays empty",
                        kData));
  // Present but without the registers (an empty file reads nothing, as a VM's msr device may).
  char tmpl[] = "/tmp/bwlab-msr-empty-XXXXXX";
  const int fd = ::mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  ::close(fd);
  const std::string reason = cpu_clock_missing_reason(0, kData + "/cpu", tmpl);
  ::unlink(tmpl);
  EXPECT_NE(reason.find("cannot be read (APERF/MPERF not exposed"), std::string::npos) << reason;
}

// A fake msr device: a sparse file read like /dev/cpu/N/msr, 8 bytes at offset = MSR address. In
// the real device each offset is a register; in a file the reads at 0xE7 (MPERF) and 0xE8 (APERF)
// overlap by 7 bytes, so the file holds the 9 bytes 01..09 at 0xE7: MPERF reads bytes 01..08 and
// APERF bytes 02..09 (little-endian), which proves the offsets and the width of both reads.
class FakeMsr : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/bwlab-msr-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const auto& f : files_) ::unlink(f.c_str());
    ::rmdir(dir_.c_str());
  }
  std::string pattern() const { return dir_ + "/msr{}"; }
  // Writes `bytes` at `offset` of PU `pu`'s fake device.
  void write(int pu, const std::vector<unsigned char>& bytes, off_t offset) {
    const std::string path = fmt::format("{}/msr{}", dir_, pu);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    files_.push_back(path);
    EXPECT_EQ(::pwrite(fd, bytes.data(), bytes.size(), offset), static_cast<ssize_t>(bytes.size()));
    ::close(fd);
  }
  std::string dir_;
  std::vector<std::string> files_;
};

TEST_F(FakeMsr, ReadsAperfAndMperfAtTheirAddresses) {
  write(3, {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09}, kMsrMperf);
  const auto v = read_aperf_mperf(3, pattern());
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->mperf, 0x0807060504030201ull);
  EXPECT_EQ(v->aperf, 0x0908070605040302ull);
  EXPECT_FALSE(read_aperf_mperf(2, pattern()).has_value());               // no device for PU 2
  EXPECT_EQ(cpu_clock_missing_reason(3, kData + "/cpu", pattern()), "");  // no cpufreq, but the msr reads
  // A device that ends inside APERF cannot be read.
  write(4, {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08}, kMsrMperf);
  EXPECT_FALSE(read_aperf_mperf(4, pattern()).has_value());
  EXPECT_NE(cpu_clock_missing_reason(4, kData + "/cpu", pattern()), "");
}

TEST(Noise, BusyClockIsTscTimesAperfOverMperf) {
  EXPECT_DOUBLE_EQ(busy_mhz(2000.0, {100, 200}, {100 + 1500, 200 + 1000}), 3000.0);
  EXPECT_DOUBLE_EQ(busy_mhz(2400.0, {0, 0}, {500, 1000}), 1200.0);
  EXPECT_TRUE(std::isnan(busy_mhz(2000.0, {100, 200}, {100, 200})));   // the core never left C-states
  EXPECT_TRUE(std::isnan(busy_mhz(2000.0, {100, 200}, {50, 300})));    // a counter went back
  EXPECT_TRUE(std::isnan(busy_mhz(std::nan(""), {0, 0}, {500, 1000})));  // no TSC rate
}

TEST(Noise, WindowClockPrefersCpufreqThenAperfMperf) {
  ClockSample before, after;
  before.when = std::chrono::steady_clock::time_point{};
  after.when = before.when + 1000us;
  before.tsc = 5'000'000;
  after.tsc = 7'000'000;  // 2 000 000 ticks in 1000 us: 2000 MHz
  EXPECT_DOUBLE_EQ(tsc_mhz(before, after), 2000.0);
  // PU 0 has no cpufreq in the fixture, PU 1 has 2595 MHz; both have APERF/MPERF at a ratio of 1.5.
  before.msr = {AperfMperf{1000, 1000}, AperfMperf{1000, 1000}};
  after.msr = {AperfMperf{2500, 2000}, AperfMperf{2500, 2000}};
  const std::string root = kData + "/cpu";
  EXPECT_DOUBLE_EQ(window_cpu_mhz({0, 1}, before, after, root), (3000.0 + 2595.0) / 2);
  EXPECT_DOUBLE_EQ(window_cpu_mhz({1, 0}, before, after, root), (2595.0 + 3000.0) / 2);
  before.msr = {AperfMperf{1000, 1000}};
  after.msr = {AperfMperf{2500, 2000}};
  EXPECT_DOUBLE_EQ(window_cpu_mhz({0}, before, after, root), 3000.0);  // no cpufreq: APERF/MPERF
  EXPECT_DOUBLE_EQ(window_cpu_mhz({1}, before, after, root), 2595.0);  // cpufreq wins over the msr
  after.msr = {std::nullopt};
  EXPECT_TRUE(std::isnan(window_cpu_mhz({0}, before, after, root)));  // neither source
  EXPECT_TRUE(std::isnan(window_cpu_mhz({0}, ClockSample{}, ClockSample{}, root)));  // window never opened
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

// One 1 ms window of a one-thread team whose first pass waits until another thread, told the
// window has opened, moved it with sched_setaffinity to target(cpu it started on), and until it
// runs there. The window cannot end before the move.
WindowResult window_with_a_move(PinnedTeam& team, const std::function<int(int)>& target) {
  const auto guard = std::chrono::steady_clock::now() + 60s;  // hang guard only
  std::atomic<pid_t> tid{0};
  std::atomic<int> start_cpu{-1}, to{-1};
  std::atomic<bool> moved{false};
  std::thread mover([&] {
    while (start_cpu.load() < 0 && std::chrono::steady_clock::now() < guard) std::this_thread::yield();
    to.store(target(start_cpu.load()));
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(to.load(), &set);
    if (tid.load() != 0) {
      EXPECT_EQ(sched_setaffinity(tid.load(), sizeof set, &set), 0);
    }
    moved.store(true);
  });
  const WorkFactory work = [&](int) -> PassFn {
    return [&, first = true]() mutable {
      if (first) {
        first = false;
        sample_cpu();
        start_cpu.store(current_cpu());
        while (!moved.load() && std::chrono::steady_clock::now() < guard) std::this_thread::yield();
        // Runs on the new PU from its next scheduling on; yield until it has.
        while (current_cpu() != to.load() && std::chrono::steady_clock::now() < guard) sched_yield();
        sample_cpu();
      }
      return PassCount{4096, 1, 0, 0, 0};
    };
  };
  const WindowResult r =
      measure_work_window(team, work, WindowConfig{1ms, false, nullptr}, [&](int) { tid.store(gettid()); });
  mover.join();
  EXPECT_LT(std::chrono::steady_clock::now(), guard) << "hang guard";
  EXPECT_FALSE(r.stopped);
  return r;
}

// The point's figures and flags for one window of one thread planned on `planned`.
Point figures_of(const WindowResult& r, int planned) {
  Point p;
  p.kernel = "test";
  p.size_bytes = 4096;
  p.duration_ms = 1;
  PointPlan plan;
  plan.slots = plan.shown = {0};
  plan.pus_planned = {planned};
  plan.unstable_pct = std::numeric_limits<double>::infinity();
  fill_figures(p, {r}, plan);
  return p;
}

// A thread moved off its PU from outside, mid-window: the point says so.
TEST(TrustedWindow, AThreadMovedMidWindowIsFlaggedAsRanOffItsPu) {
  const std::vector<int> allowed = topo().allowed_pus();
  if (allowed.size() < 2)
    GTEST_SKIP() << "needs 2 allowed PUs to move a thread between, this process may use " << allowed.size()
                 << " (cgroup cpuset or taskset)";
  const int home = allowed[0], elsewhere = allowed[1];
  PinnedTeam team(topo(), {home});
  const WindowResult r = window_with_a_move(team, [&](int) { return elsewhere; });
  EXPECT_GT(r.threads[0].off_pu_samples, 0u);
  const Point p = figures_of(r, home);
  ASSERT_EQ(p.per_thread.size(), 1u);
  EXPECT_FALSE(p.per_thread[0].pinned);
  bool flagged = false;
  for (const auto& f : p.flags)
    flagged = flagged || f.find(fmt::format("not pinned: thread 0 was seen on PU {}, planned {} (ran off its PU in 1 "
                                            "of 1 window;",
                                            elsewhere, home)) == 0;
  EXPECT_TRUE(flagged) << fmt::format("{}", fmt::join(p.flags, " | "));
}

// --placement none: an unbound thread the OS moves is not "off its PU" (it has none); the point
// says the OS moved it.
TEST(TrustedWindow, AnUnboundThreadTheOsMovedIsReportedAsMovedNotAsUnpinned) {
  const std::vector<int> allowed = topo().allowed_pus();
  if (allowed.size() < 2) GTEST_SKIP() << "needs 2 allowed PUs, this process may use " << allowed.size();
  PinnedTeam team(topo(), {kAnyPu});
  const WindowResult r =
      window_with_a_move(team, [&](int start) { return start == allowed[0] ? allowed[1] : allowed[0]; });
  EXPECT_EQ(r.threads[0].off_pu_samples, 0u) << "an unbound thread has no PU to be off";
  EXPECT_GE(r.threads[0].cpus_seen.size(), 2u);
  const Point p = figures_of(r, kAnyPu);
  ASSERT_EQ(p.pus_planned, std::vector<int>{kAnyPu});
  const std::string flags = fmt::format("{}", fmt::join(p.flags, " | "));
  EXPECT_NE(flags.find("placement none: the OS moved thread 0 in 1 of 1 window (PUs seen: "), std::string::npos)
      << flags;
  EXPECT_EQ(flags.find("not pinned"), std::string::npos) << flags;
}

// --placement none: two unbound threads the OS kept on one PU for a whole window took turns there.
// The point says so and counts as unsteady; threads on two PUs, or one that moved, are not flagged.
TEST(TrustedWindow, UnboundThreadsKeptOnOnePuAreFlaggedAsSharingIt) {
  const auto window = [](std::vector<std::vector<int>> cpus) {
    WindowResult w;
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      ThreadWindow t;
      t.slot = static_cast<int>(i);
      t.cpu_start = cpus[i].front();
      t.cpu_end = cpus[i].back();
      t.cpus_seen = cpus[i];
      t.bytes = 4096, t.passes = 1, t.elapsed_ns = 1000, t.cpu_ns = t.wall_ns = 1000;
      w.threads.push_back(t);
    }
    return w;
  };
  const auto flags_of = [](const std::vector<WindowResult>& reps) {
    Point p;
    p.kernel = "test", p.source = "measured", p.size_bytes = 4096, p.duration_ms = 1;
    PointPlan plan;
    plan.slots = plan.shown = {0, 1};
    plan.pus_planned = {kAnyPu, kAnyPu};
    plan.unstable_pct = std::numeric_limits<double>::infinity();
    fill_figures(p, reps, plan);
    return p;
  };
  const Point shared = flags_of({window({{1}, {1}}), window({{1}, {0}}), window({{1, 1}, {1}})});
  const std::string flags = fmt::format("{}", fmt::join(shared.flags, " | "));
  EXPECT_NE(flags.find("placement none: threads 0 and 1 shared PU 1 in 2 of 3 windows (the OS kept them on one PU: "
                       "they took turns"),
            std::string::npos)
      << flags;
  EXPECT_TRUE(flagged_unsteady(shared)) << flags;
  const Point apart = flags_of({window({{1}, {0}}), window({{1, 0}, {0}})});  // apart, or one moved between them
  EXPECT_EQ(fmt::format("{}", fmt::join(apart.flags, " | ")).find("shared PU"), std::string::npos);
  EXPECT_FALSE(flagged_unsteady(apart));
}

}  // namespace
}  // namespace bwlab
