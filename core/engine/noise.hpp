// SPDX-License-Identifier: MIT
// What disturbed a timed window on a shared host: steal time of the PUs used (/proc/stat), the
// core clock where the host exposes it (cpufreq, else APERF/MPERF through the msr device), and the
// judgement "noisy or not" against limits. The readers take their paths so tests feed fixtures
// (tests/data/noise).
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
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

// The msr device of a PU: `{}` stands for the PU number.
inline constexpr const char* kMsrPathPattern = "/dev/cpu/{}/msr";
inline constexpr std::uint32_t kMsrMperf = 0xE7;  // IA32_MPERF: counts at the TSC rate while the core is in C0
inline constexpr std::uint32_t kMsrAperf = 0xE8;  // IA32_APERF: counts at the actual clock while in C0

struct AperfMperf {
  std::uint64_t aperf = 0;
  std::uint64_t mperf = 0;
};

// IA32_APERF and IA32_MPERF of `pu` (pread of 8 bytes at offset = MSR address of the msr device);
// nullopt when the device cannot be opened or read (no msr module, not root, not x86).
std::optional<AperfMperf> read_aperf_mperf(int pu, const std::string& msr_pattern = kMsrPathPattern);

// turbostat's Bzy_MHz: the clock while busy = TSC MHz x dAPERF / dMPERF. NaN when a counter did
// not advance (or went back) or tsc_mhz is not positive.
double busy_mhz(double tsc_mhz, const AperfMperf& before, const AperfMperf& after);

// APERF/MPERF of some PUs and the TSC at one instant, so that two samples give the busy clock.
struct ClockSample {
  std::vector<std::optional<AperfMperf>> msr;  // one per PU, in the order asked
  std::uint64_t tsc = 0;                       // rdtsc (0 off x86)
  std::chrono::steady_clock::time_point when;
};
ClockSample sample_clock(const std::vector<int>& pus, const std::string& msr_pattern = kMsrPathPattern);

// TSC ticks per microsecond between two samples (rdtsc over steady_clock): the reference MPERF
// counts at. The TSC is taken as invariant and synchronised across cores (constant_tsc,
// nonstop_tsc), so the two samples may come from different threads. NaN when no time passed.
double tsc_mhz(const ClockSample& before, const ClockSample& after);

// The median clock of `pus` over a window in MHz: per PU cpufreq's scaling_cur_freq at the end
// when present, else the busy clock from APERF/MPERF between the two samples (taken with the same
// `pus`); PUs with neither are left out. NaN when no PU has a clock.
double window_cpu_mhz(const std::vector<int>& pus, const ClockSample& before, const ClockSample& after,
                      const std::string& cpu_root = "/sys/devices/system/cpu");

// Empty when `pu` has a clock source (cpufreq_mhz reads, or read_aperf_mperf does); otherwise why
// cpu_mhz_median stays empty, naming both sources.
std::string cpu_clock_missing_reason(int pu, const std::string& cpu_root = "/sys/devices/system/cpu",
                                     const std::string& msr_pattern = kMsrPathPattern);

// When a window counts as disturbed.
struct NoiseLimits {
  double steal_pct = 2.0;  // steal above this % of the PUs' ticks
  double lost_pct = 5.0;   // a working thread got less than (100 - this) % of the window's CPU time
};

}  // namespace bwlab
