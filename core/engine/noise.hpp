// SPDX-License-Identifier: MIT
// What disturbed a timed window on a shared host: steal time of the PUs used (/proc/stat), the
// core clock where the host exposes it (cpufreq), and the judgement "noisy or not" against
// limits. The readers take their paths so tests feed fixtures (tests/data/noise).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace bwlab {

// Per-CPU tick counters of one /proc/stat read.
struct CpuTicks {
  std::uint64_t total = 0;  // user+nice+system+idle+iowait+irq+softirq+steal (guest is inside user)
  std::uint64_t steal = 0;
};

// The `cpuN` lines of a /proc/stat-format file, indexed by N (CPUs not listed: zero ticks).
// Empty when the file cannot be read.
std::vector<CpuTicks> read_cpu_ticks(const std::string& path = "/proc/stat");

// Steal ticks / all ticks of `pus` between two reads, in %; NaN when no tick passed or a PU is
// missing from either read. /proc/stat counts in USER_HZ ticks (10 ms): a 200 ms window on one
// PU has ~20 ticks, so one stolen tick reads as 5%.
double steal_pct(const std::vector<CpuTicks>& before, const std::vector<CpuTicks>& after, const std::vector<int>& pus);

// The clock of `pu` now in MHz (cpufreq scaling_cur_freq under `cpu_root`), NaN when absent.
double cpufreq_mhz(int pu, const std::string& cpu_root = "/sys/devices/system/cpu");

// Empty when cpufreq_mhz reads a clock for `pu`; otherwise why cpu_mhz_median stays empty.
std::string cpu_clock_missing_reason(int pu, const std::string& cpu_root = "/sys/devices/system/cpu");

// When a window counts as disturbed.
struct NoiseLimits {
  double steal_pct = 2.0;  // steal above this % of the PUs' ticks
  double lost_pct = 5.0;   // a working thread got less than (100 - this) % of the window's CPU time
};

}  // namespace bwlab
