// SPDX-License-Identifier: MIT
#include "core/engine/noise.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <cerrno>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <fmt/format.h>

namespace bwlab {

std::vector<CpuTicks> read_cpu_ticks(const std::string& path) {
  std::vector<CpuTicks> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || line[3] < '0' || line[3] > '9') continue;
    std::istringstream s(line.substr(3));
    std::size_t cpu = 0;
    if (!(s >> cpu)) continue;
    // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is already in user.
    std::uint64_t v[8] = {};
    int got = 0;
    while (got < 8 && (s >> v[got])) ++got;
    if (got < 8) continue;
    if (out.size() <= cpu) out.resize(cpu + 1);
    CpuTicks& t = out[cpu];
    for (std::uint64_t x : v) t.total += x;
    t.steal = v[7];
  }
  return out;
}

double steal_pct(const std::vector<CpuTicks>& before, const std::vector<CpuTicks>& after, const std::vector<int>& pus) {
  std::uint64_t total = 0, steal = 0;
  for (int pu : pus) {
    const auto i = static_cast<std::size_t>(pu);
    if (pu < 0 || i >= before.size() || i >= after.size() || after[i].total < before[i].total ||
        after[i].steal < before[i].steal)
      return std::numeric_limits<double>::quiet_NaN();
    total += after[i].total - before[i].total;
    steal += after[i].steal - before[i].steal;
  }
  if (total == 0) return std::numeric_limits<double>::quiet_NaN();
  return 100.0 * static_cast<double>(steal) / static_cast<double>(total);
}

namespace {
std::string cur_freq_path(int pu, const std::string& root) {
  return fmt::format("{}/cpu{}/cpufreq/scaling_cur_freq", root, pu);
}
}  // namespace

double cpufreq_mhz(int pu, const std::string& cpu_root) {
  std::ifstream in(cur_freq_path(pu, cpu_root));
  double khz = 0;
  if (!(in >> khz) || !(khz > 0)) return std::numeric_limits<double>::quiet_NaN();
  return khz / 1000.0;
}

namespace {
std::string msr_path(int pu, const std::string& pattern) { return fmt::format(fmt::runtime(pattern), pu); }

bool read_msr(int fd, std::uint32_t reg, std::uint64_t& value) {
  return ::pread(fd, &value, sizeof value, static_cast<off_t>(reg)) == static_cast<ssize_t>(sizeof value);
}
}  // namespace

std::optional<AperfMperf> read_aperf_mperf(int pu, const std::string& msr_pattern) {
  const int fd = ::open(msr_path(pu, msr_pattern).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  AperfMperf v;
  const bool ok = read_msr(fd, kMsrAperf, v.aperf) && read_msr(fd, kMsrMperf, v.mperf);
  ::close(fd);
  if (!ok) return std::nullopt;
  return v;
}

double busy_mhz(double tsc_mhz, const AperfMperf& before, const AperfMperf& after) {
  if (!(tsc_mhz > 0) || after.aperf <= before.aperf || after.mperf <= before.mperf)
    return std::numeric_limits<double>::quiet_NaN();
  return tsc_mhz * static_cast<double>(after.aperf - before.aperf) / static_cast<double>(after.mperf - before.mperf);
}

ClockSample sample_clock(const std::vector<int>& pus, const std::string& msr_pattern) {
  ClockSample s;
  s.msr.reserve(pus.size());
  for (int pu : pus) s.msr.push_back(read_aperf_mperf(pu, msr_pattern));
  s.when = std::chrono::steady_clock::now();
#if defined(__x86_64__) || defined(__i386__)
  s.tsc = __rdtsc();
#endif
  return s;
}

double tsc_mhz(const ClockSample& before, const ClockSample& after) {
  const double us = std::chrono::duration<double, std::micro>(after.when - before.when).count();
  if (!(us > 0) || after.tsc <= before.tsc) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(after.tsc - before.tsc) / us;
}

double window_cpu_mhz(const std::vector<int>& pus, const ClockSample& before, const ClockSample& after,
                      const std::string& cpu_root) {
  const double tsc = tsc_mhz(before, after);
  std::vector<double> mhz;
  for (std::size_t i = 0; i < pus.size(); ++i) {
    double m = cpufreq_mhz(pus[i], cpu_root);
    if (std::isnan(m) && i < before.msr.size() && i < after.msr.size() && before.msr[i] && after.msr[i])
      m = busy_mhz(tsc, *before.msr[i], *after.msr[i]);
    if (m > 0) mhz.push_back(m);
  }
  if (mhz.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(mhz.begin(), mhz.end());
  return (mhz[(mhz.size() - 1) / 2] + mhz[mhz.size() / 2]) / 2;
}

std::string cpu_clock_missing_reason(int pu, const std::string& cpu_root, const std::string& msr_pattern) {
  if (!std::isnan(cpufreq_mhz(pu, cpu_root)) || read_aperf_mperf(pu, msr_pattern)) return {};
  // Why the MSR path failed: absent (the msr module is not loaded, or a container hides it), not
  // permitted (needs root), or present but unreadable (a hypervisor that does not expose APERF/MPERF).
  const std::string path = msr_path(pu, msr_pattern);
  std::string why;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  const int err = fd < 0 ? errno : 0;
  if (fd >= 0) ::close(fd);
  if (fd >= 0)
    why = "cannot be read (APERF/MPERF not exposed, as in many VMs)";
  else if (err == ENOENT || err == ENXIO || err == ENODEV)
    why = "does not exist (modprobe msr)";
  else if (err == EACCES || err == EPERM)
    why = "is not readable by this user (needs root)";
  else
    why = fmt::format("cannot be opened ({})", std::strerror(err));
  return fmt::format("no cpufreq under {}/cpu{}/cpufreq and {} {}: cpu_mhz_median stays empty", cpu_root, pu, path,
                     why);
}

}  // namespace bwlab
