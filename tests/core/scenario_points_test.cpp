// SPDX-License-Identifier: MIT
// fill_figures on synthetic windows: every figure and flag against hand-computed values; no
// measurement involved.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/scenario/points.hpp"

namespace bwlab {
namespace {

constexpr int kPu0 = 4, kPu1 = 6;

ThreadWindow tw(int slot, int pu, double bytes, double elapsed_ns, std::uint64_t passes = 1000) {
  ThreadWindow t;
  t.slot = slot;
  t.pu_planned = pu;
  t.cpu_start = t.cpu_end = pu;
  t.bytes = static_cast<std::uint64_t>(bytes);
  t.elapsed_ns = static_cast<std::int64_t>(elapsed_ns);
  t.passes = passes;
  t.ops = 2;
  return t;
}

// 3 reps x 2 threads, 100 ms windows. Thread 0: 10, 12, 15 GB/s; thread 1: 5, 8, 10 GB/s.
// Aggregate 15, 20, 25 GB/s; bytes 1.5e9, 2.0e9, 2.5e9.
std::vector<WindowResult> three_reps(double elapsed_ns = 100e6, std::uint64_t passes = 1000) {
  const double t0[] = {1.0e9, 1.2e9, 1.5e9}, t1[] = {0.5e9, 0.8e9, 1.0e9};
  std::vector<WindowResult> reps(3);
  for (int r = 0; r < 3; ++r)
    reps[static_cast<std::size_t>(r)].threads = {tw(0, kPu0, t0[r], elapsed_ns, passes),
                                                 tw(1, kPu1, t1[r], elapsed_ns, passes)};
  return reps;
}

Point point() {
  Point p;
  p.kernel = "stosb";
  p.size_bytes = 16ull << 20;
  p.duration_ms = 100;
  return p;
}

PointPlan plan(std::vector<int> slots = {0, 1}) {
  PointPlan pl;
  pl.slots = std::move(slots);
  pl.shown = {0, 1};
  pl.pus_planned = {kPu0, kPu1};
  pl.mem_nodes = {0};  // shorter than the slots: thread 1's node is unknown
  pl.unstable_pct = 5.0;
  return pl;
}

// A plan whose stability threshold the three reps (20.4%) stay under, so one flag is tested at a time.
PointPlan calm_plan() {
  PointPlan pl = plan();
  pl.unstable_pct = 25.0;
  return pl;
}

Point figures(const std::vector<WindowResult>& reps, const PointPlan& pl) {
  Point p = point();
  fill_figures(p, reps, pl);
  return p;
}

const double kPstdev = 100.0 * std::sqrt(50.0 / 3.0) / 20.0;  // of 15, 20, 25: 20.41%

TEST(PointFigures, AggregateFiguresFromTheWindows) {
  Point p = point();
  fill_figures(p, three_reps(), plan());
  EXPECT_EQ(p.reps, 3);
  ASSERT_EQ(p.gbps_reps.size(), 3u);
  EXPECT_DOUBLE_EQ(p.gbps_reps[0], 15.0);
  EXPECT_DOUBLE_EQ(p.gbps_reps[1], 20.0);
  EXPECT_DOUBLE_EQ(p.gbps_reps[2], 25.0);
  EXPECT_DOUBLE_EQ(p.gbps_median, 20.0);
  EXPECT_DOUBLE_EQ(p.gbps_min, 15.0);
  EXPECT_DOUBLE_EQ(p.gbps_max, 25.0);
  EXPECT_NEAR(p.gbps_pstdev_pct, kPstdev, 1e-9);
  EXPECT_DOUBLE_EQ(p.bytes_median, 2.0e9);
  EXPECT_DOUBLE_EQ(p.elapsed_ns_median, 100e6);
  // Median thread per rep: 7.5, 10, 12.5 -> 10. Slowest/fastest: 0.5, 2/3, 2/3 -> 2/3.
  EXPECT_DOUBLE_EQ(p.gbps_per_thread_median, 10.0);
  EXPECT_NEAR(p.thread_fairness, 2.0 / 3.0, 1e-12);
}

TEST(PointFigures, PerThreadFigures) {
  Point p = point();
  PointPlan pl = plan();
  pl.slot_kernels = {"victim-k"};  // thread 1 has none: it takes the point's kernel
  fill_figures(p, three_reps(), pl);
  ASSERT_EQ(p.per_thread.size(), 2u);
  const ThreadFigures& a = p.per_thread[0];
  const ThreadFigures& b = p.per_thread[1];
  EXPECT_EQ(a.slot, 0);
  EXPECT_EQ(b.slot, 1);
  EXPECT_EQ(a.gbps_reps, (std::vector<double>{10.0, 12.0, 15.0}));
  EXPECT_EQ(b.gbps_reps, (std::vector<double>{5.0, 8.0, 10.0}));
  EXPECT_DOUBLE_EQ(a.gbps_median, 12.0);
  EXPECT_DOUBLE_EQ(b.gbps_median, 8.0);
  EXPECT_EQ(a.bytes_total, 3'700'000'000u);
  EXPECT_EQ(b.bytes_total, 2'300'000'000u);
  EXPECT_EQ(a.passes_total, 3000u);
  EXPECT_EQ(a.ops_total, 6u);
  EXPECT_EQ(a.kernel, "victim-k");
  EXPECT_EQ(b.kernel, "stosb");
  EXPECT_EQ(a.mem_node, 0);
  EXPECT_EQ(b.mem_node, -1);
  EXPECT_TRUE(a.pinned);
  EXPECT_TRUE(b.pinned);
  EXPECT_EQ(p.pus, (std::vector<int>{kPu0, kPu1}));
  EXPECT_EQ(p.pus_planned, (std::vector<int>{kPu0, kPu1}));
}

TEST(PointFigures, AggregateOverSomeSlotsShowsAll) {
  Point p = point();
  fill_figures(p, three_reps(), plan({0}));  // victim-style: thread 0's rate is the point's
  EXPECT_DOUBLE_EQ(p.gbps_median, 12.0);
  EXPECT_DOUBLE_EQ(p.bytes_median, 1.2e9);
  EXPECT_DOUBLE_EQ(p.thread_fairness, 1.0);  // one thread is as fair as itself
  EXPECT_EQ(p.per_thread.size(), 2u);
}

TEST(PointFigures, BusyTimeRate) {
  std::vector<WindowResult> reps = three_reps();
  for (auto& w : reps)
    for (auto& t : w.threads) t.busy_ns = t.elapsed_ns / 2;  // touching took half the window
  Point p = point();
  PointPlan pl = plan();
  pl.base = RateBase::busy;
  fill_figures(p, reps, pl);
  EXPECT_DOUBLE_EQ(p.gbps_median, 40.0);
  EXPECT_DOUBLE_EQ(p.per_thread[0].gbps_median, 24.0);
}

TEST(PointFigures, UnstableFlagWithAdvice) {
  Point p = point();
  fill_figures(p, three_reps(), plan());
  ASSERT_EQ(p.flags.size(), 1u);
  EXPECT_EQ(p.flags[0], "unstable: 20.4% pstdev of GB/s over 3 reps, try --reps 7 or a longer --duration");

  Point q = point();
  PointPlan calm = plan();
  calm.unstable_pct = 25.0;
  fill_figures(q, three_reps(), calm);
  EXPECT_TRUE(q.flags.empty());
}

TEST(PointFigures, NoStabilityJudgementWhenGbpsIsNotTheFigure) {
  PointPlan pl = plan();
  pl.unstable_pct = std::numeric_limits<double>::infinity();  // tlbflush: ns are its figures
  Point p = point();
  fill_figures(p, three_reps(), pl);
  EXPECT_TRUE(p.flags.empty());
  std::vector<WindowResult> one = three_reps();
  one.resize(1);
  Point q = point();
  fill_figures(q, one, pl);
  ASSERT_EQ(q.flags.size(), 1u);
  EXPECT_EQ(q.flags[0], "single repetition: no spread, use --reps 3 or more");
}

TEST(PointFigures, SingleRepetitionFlag) {
  std::vector<WindowResult> reps = three_reps();
  reps.resize(1);
  Point p = point();
  fill_figures(p, reps, plan());
  EXPECT_EQ(p.reps, 1);
  ASSERT_EQ(p.flags.size(), 1u);
  EXPECT_EQ(p.flags[0], "single repetition: no spread, use --reps 3 or more");
}

TEST(PointFigures, NotPinnedWhenAThreadWasSeenElsewhere) {
  std::vector<WindowResult> reps = three_reps();
  reps[1].threads[1].cpu_start = 7;  // thread 1 began rep 1 on PU 7, not its planned 6
  const Point p = figures(reps, calm_plan());
  EXPECT_TRUE(p.per_thread[0].pinned);
  EXPECT_FALSE(p.per_thread[1].pinned);
  EXPECT_EQ(p.per_thread[1].pu_observed, kPu1);  // where it ended the last window
  ASSERT_EQ(p.flags.size(), 1u);
  EXPECT_EQ(p.flags[0], "not pinned: thread 1 was seen on PU 7, planned 6 (ran off its PU in 1 of 3 windows; PUs seen: 6,7)");
}

TEST(PointFigures, NotPinnedAtTheEndOfAWindow) {
  std::vector<WindowResult> reps = three_reps();
  reps[2].threads[0].cpu_end = 9;
  const Point p = figures(reps, calm_plan());
  EXPECT_FALSE(p.per_thread[0].pinned);
  EXPECT_EQ(p.pus, (std::vector<int>{9, kPu1}));
  ASSERT_EQ(p.flags.size(), 1u);
  EXPECT_EQ(p.flags[0], "not pinned: thread 0 was seen on PU 9, planned 4 (ran off its PU in 1 of 3 windows; PUs seen: 4,9)");
}

TEST(PointFigures, StretchedWindowHeldUp) {
  const Point p = figures(three_reps(200e6, 1000), calm_plan());  // 1000 short passes per window of 200 ms
  ASSERT_EQ(p.flags.size(), 1u);
  EXPECT_EQ(p.flags[0], "window 200 ms for --duration 100 ms: threads were held up (preempted by the host or other "
                        "tasks?)");
}

TEST(PointFigures, StretchedWindowLongPass) {
  // One pass per window: thread 0 cleared 3.7e9 / 3 bytes per pass at a median 6 GB/s = 206 ms.
  const Point p = figures(three_reps(200e6, 1), calm_plan());
  ASSERT_EQ(p.flags.size(), 1u);
  EXPECT_EQ(p.flags[0], "window 200 ms for --duration 100 ms: a pass of 16MiB took 206 ms on average");
}

// --duration 1.5ms was said as "for --duration 2 ms": the duration as given.
TEST(PointFigures, StretchedWindowNamesAFractionalDuration) {
  std::vector<WindowResult> reps = three_reps(200e6, 1000);
  Point p = point();
  p.duration_ms = 1.5;
  fill_figures(p, reps, calm_plan());
  ASSERT_EQ(p.flags.size(), 1u);
  EXPECT_EQ(p.flags[0].rfind("window 200 ms for --duration 1.5 ms: ", 0), 0u) << p.flags[0];
}

TEST(PointFigures, WindowWithinToleranceHasNoStretchFlag) {
  const Point p = figures(three_reps(150e6), calm_plan());  // exactly 1.5 x: not flagged
  EXPECT_TRUE(p.flags.empty());
}

TEST(PointFigures, RepsAutoFlags) {
  Point met = point();
  PointPlan pl = plan();
  pl.unstable_pct = 25.0;
  pl.reps_auto = true;
  pl.target_pstdev_pct = 25.0;
  fill_figures(met, three_reps(), pl);
  ASSERT_EQ(met.flags.size(), 1u);
  EXPECT_EQ(met.flags[0], "reps auto: 20.4% pstdev after 3 reps (target 25%)");

  Point capped = point();
  pl.target_pstdev_pct = 2.0;
  fill_figures(capped, three_reps(), pl);
  ASSERT_EQ(capped.flags.size(), 1u);
  EXPECT_EQ(capped.flags[0], "reps auto: cap of 3 reps reached at 20.4% pstdev (target 2%)");

  // Flagged unstable too: the advice names what --reps auto runs by, not a --reps N it did not use.
  pl.unstable_pct = 5.0;
  auto first_flag = [&](double target_pstdev_pct) {
    pl.target_pstdev_pct = target_pstdev_pct;
    Point p = point();
    fill_figures(p, three_reps(), pl);
    EXPECT_EQ(p.flags.size(), 2u);
    return p.flags.empty() ? std::string() : p.flags[0];
  };
  EXPECT_EQ(first_flag(2.0),  // the cap was reached
            "unstable: 20.4% pstdev of GB/s over 3 reps, raise --max-reps (the cap, 3, was reached) or use a longer "
            "--duration");
  EXPECT_EQ(first_flag(25.0),  // the target was met, above --unstable-pct
            "unstable: 20.4% pstdev of GB/s over 3 reps, lower --target-pstdev (now 25%) for more reps, or use a "
            "longer --duration");
}

TEST(PointFigures, FlagOrderThenNotes) {
  std::vector<WindowResult> reps = three_reps(200e6, 1000);
  reps[0].threads[1].cpu_end = 3;
  Point p = point();
  PointPlan pl = plan();
  pl.reps_auto = true;
  pl.notes = {"buffer note", "thp note"};
  fill_figures(p, reps, pl);
  ASSERT_EQ(p.flags.size(), 6u);
  EXPECT_EQ(p.flags[0].rfind("unstable:", 0), 0u);
  EXPECT_EQ(p.flags[1].rfind("reps auto:", 0), 0u);
  EXPECT_EQ(p.flags[2].rfind("not pinned: thread 1 was seen on PU 3, planned 6 (", 0), 0u);
  EXPECT_EQ(p.flags[3].rfind("window 200 ms", 0), 0u);
  EXPECT_EQ(p.flags[4], "buffer note");
  EXPECT_EQ(p.flags[5], "thp note");
}

// ---- fill_dram: a point's DRAM bytes per byte cleared over its windows ----
WindowResult dram_window(double read, double write, std::vector<std::uint64_t> bytes_all) {
  WindowResult w;
  w.dram = DramBytes{read, write};
  for (std::size_t i = 0; i < bytes_all.size(); ++i) {
    ThreadWindow t;
    t.slot = static_cast<int>(i);
    t.bytes_all = bytes_all[i];
    t.bytes = bytes_all[i] / 2;  // the counted part is not what the counters saw
    w.threads.push_back(t);
  }
  return w;
}

TEST(DramPoint, RatiosOverThePointsWindowsAndAllTheirThreads) {
  Point p;
  // Two windows: 3000 + 1000 bytes cleared by two threads; 4000 read (an RFO per byte), 4400 written.
  fill_dram(p, {dram_window(3000, 3300, {1000, 2000}), dram_window(1000, 1100, {500, 500})});
  EXPECT_DOUBLE_EQ(p.dram_read_per_byte, 1.0);
  EXPECT_DOUBLE_EQ(p.dram_write_per_byte, 1.1);
}

TEST(DramPoint, OneWindowNotCountedLeavesThePointEmpty) {
  Point p;
  fill_dram(p, {dram_window(3000, 3300, {1000, 2000}), dram_window(Point::kNone, Point::kNone, {500, 500})});
  EXPECT_TRUE(std::isnan(p.dram_read_per_byte));
  EXPECT_TRUE(std::isnan(p.dram_write_per_byte));
  Point none;
  fill_dram(none, {});
  EXPECT_TRUE(std::isnan(none.dram_read_per_byte));
  Point nothing_cleared;  // tlbflush: no bytes cleared, no ratio
  fill_dram(nothing_cleared, {dram_window(10, 10, {0, 0})});
  EXPECT_TRUE(std::isnan(nothing_cleared.dram_read_per_byte));
}

TEST(PointFigures, PinningKeepsEveryPuSampledOverAllRepetitions) {
  std::vector<WindowResult> reps = three_reps();
  reps[0].threads[0].cpus_seen = {kPu0, 5};  // mid-window in rep 0, back home by its end
  reps[2].threads[0].cpus_seen = {kPu0, 8};  // and in rep 2
  const Point p = figures(reps, calm_plan());
  EXPECT_FALSE(p.per_thread[0].pinned);
  EXPECT_TRUE(p.per_thread[1].pinned);
  ASSERT_EQ(p.flags.size(), 1u);
  EXPECT_EQ(p.flags[0], "not pinned: thread 0 was seen on PU 5, planned 4 (ran off its PU in 2 of 3 windows; PUs "
                        "seen: 4,5,8)");
}

// Thread `slot` of rep `r` got `cpu_ms` of CPU in a 100 ms stay, with `invol` switches.
void disturb(std::vector<WindowResult>& reps, std::size_t r, std::size_t slot, double cpu_ms, int invol) {
  ThreadWindow& t = reps[r].threads[slot];
  t.wall_ns = 100'000'000;
  t.cpu_ns = static_cast<std::int64_t>(cpu_ms * 1e6);
  t.invol_ctx_switches = invol;
}

TEST(PointFigures, JudgeWindowByStealOrLostCpuTime) {
  std::vector<WindowResult> reps = three_reps();
  const NoiseLimits limits{2.0, 5.0};
  disturb(reps, 0, 0, 96, 3);  // lost 4%: within the limit
  disturb(reps, 0, 1, 99, 1);
  WindowNoise n = judge_window(reps[0], {0, 1}, limits);
  EXPECT_FALSE(n.noisy);
  EXPECT_EQ(n.invol_ctx_switches, 4);
  EXPECT_NEAR(n.lost_pct, 4.0, 1e-9);
  EXPECT_EQ(n.lost_slot, 0);
  EXPECT_TRUE(std::isnan(n.steal_pct));
  reps[0].steal_pct = 2.5;  // steal above 2%
  EXPECT_TRUE(judge_window(reps[0], {0, 1}, limits).noisy);
  reps[0].steal_pct = 2.0;  // at the limit: not noisy
  EXPECT_FALSE(judge_window(reps[0], {0, 1}, limits).noisy);
  disturb(reps, 0, 1, 90, 7);  // thread 1 lost 10%
  n = judge_window(reps[0], {0, 1}, limits);
  EXPECT_TRUE(n.noisy);
  EXPECT_EQ(n.lost_slot, 1);
  EXPECT_FALSE(judge_window(reps[0], {0}, limits).noisy);  // only thread 0 judged
  reps[0].threads[1].idle = true;  // an idle slot sleeps: never judged
  EXPECT_FALSE(judge_window(reps[0], {0, 1}, limits).noisy);
}

TEST(PointFigures, NoiseColumnsAreTheWorstWindowAndNoisyOnesAreCounted) {
  std::vector<WindowResult> reps = three_reps();
  reps[0].steal_pct = 0;
  reps[1].steal_pct = 5.0;  // noisy: steal
  reps[2].steal_pct = 1.0;
  reps[0].cpu_mhz = 2000;
  reps[2].cpu_mhz = 3000;   // rep 1: clock unknown
  disturb(reps, 0, 0, 100, 2);
  disturb(reps, 0, 1, 100, 1);
  disturb(reps, 2, 1, 80, 9);  // noisy: thread 1 got 80% of the window
  PointPlan pl = calm_plan();
  pl.replaced_windows = 1;
  pl.reject_noisy_applies = true;  // scaling
  pl.reject_noisy_on = true;       // given: one window was replaced
  const Point p = figures(reps, pl);
  EXPECT_DOUBLE_EQ(p.steal_pct_max, 5.0);
  EXPECT_EQ(p.invol_ctx_switches, 9);  // rep 2: 0 + 9; rep 0: 2 + 1
  EXPECT_DOUBLE_EQ(p.cpu_mhz_median, 2500.0);
  EXPECT_EQ(p.noisy_windows, 2);
  ASSERT_EQ(p.flags.size(), 2u);
  EXPECT_EQ(p.flags[0], "noisy: 2 of 3 windows disturbed (worst: thread 1 got only 80% of the window's CPU time; 9 "
                        "involuntary context switches); --reject-noisy was on and its fresh windows were disturbed "
                        "too: measure again on a quieter machine");
  EXPECT_EQ(p.flags[1], "reject-noisy: 1 noisy window replaced by a fresh one");  // was "by fresh ones"
  // Not given: the flag advises it (it advised it beside its own "replaced by fresh ones").
  pl.reject_noisy_on = false, pl.replaced_windows = 0;
  EXPECT_EQ(figures(reps, pl).flags[0], "noisy: 2 of 3 windows disturbed (worst: thread 1 got only 80% of the window's "
                                        "CPU time; 9 involuntary context switches); --reject-noisy measures such "
                                        "windows again");
  // The other scenarios refuse --reject-noisy: their flag does not advise it.
  pl.reject_noisy_applies = false;
  const Point other = figures(reps, pl);
  EXPECT_EQ(other.flags[0], "noisy: 2 of 3 windows disturbed (worst: thread 1 got only 80% of the window's CPU "
                            "time; 9 involuntary context switches); measure again on a quieter machine");
}

TEST(PointFigures, QuietWindowsHaveNoNoiseFlagAndUnknownStealStaysEmpty) {
  const Point p = figures(three_reps(), calm_plan());
  EXPECT_TRUE(std::isnan(p.steal_pct_max));
  EXPECT_TRUE(std::isnan(p.cpu_mhz_median));
  EXPECT_EQ(p.invol_ctx_switches, 0);
  EXPECT_EQ(p.noisy_windows, 0);
  EXPECT_TRUE(p.flags.empty());
}

}  // namespace
}  // namespace bwlab
