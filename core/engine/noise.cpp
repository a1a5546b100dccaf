// SPDX-License-Identifier: MIT
#include "core/engine/noise.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

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

std::string cpu_clock_missing_reason(int pu, const std::string& cpu_root) {
  if (!std::isnan(cpufreq_mhz(pu, cpu_root))) return {};
  return fmt::format("cpu_mhz_median is empty: {} is missing (no cpufreq driver, usual in a VM), and reading "
                     "APERF/MPERF through /dev/cpu/N/msr is not implemented",
                     cur_freq_path(pu, cpu_root));
}

}  // namespace bwlab
