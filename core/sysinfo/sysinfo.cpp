// SPDX-License-Identifier: MIT
#include "core/sysinfo/sysinfo.hpp"

#include <gnu/libc-version.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/report/units.hpp"
#include "core/sysinfo/cgroup.hpp"
#include "core/version.hpp"

namespace bwlab {
namespace {

std::string read_first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  return line;
}

// The value of the first "key : value" line of /proc/cpuinfo with that key.
std::string cpuinfo_field(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string k = line.substr(0, colon);
    while (!k.empty() && (k.back() == ' ' || k.back() == '\t')) k.pop_back();
    if (k == key) {
      std::string v = line.substr(colon + 1);
      v.erase(0, v.find_first_not_of(' '));
      return v;
    }
  }
  return {};
}

}  // namespace

namespace {
std::string& host_name_override() {
  static std::string name;  // set once by the command line, before any thread starts
  return name;
}
}  // namespace

void set_host_name(const std::string& name) {
  const bool bad = name.empty() || std::any_of(name.begin(), name.end(), [](unsigned char c) {
                     return c < 0x20 || c == 0x7f || c == ',' || c == '"' || c == '/' || c == ' ';
                   });
  if (bad)
    throw InputError(fmt::format("bad --host '{}': a name without spaces, commas, quotes or slashes (it names the "
                                 "host in CSV rows and a fleet's files)",
                                 name));
  host_name_override() = name;
}

std::string host_name() {
  if (!host_name_override().empty()) return host_name_override();
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

std::string kernel_release() {
  utsname u{};
  return uname(&u) == 0 ? u.release : "";
}

std::string thp_setting() {
  const std::string line = read_first_line("/sys/kernel/mm/transparent_hugepage/enabled");
  const auto a = line.find('['), b = line.find(']');
  return a != std::string::npos && b != std::string::npos && b > a ? line.substr(a + 1, b - a - 1) : "";
}

std::string glibc_version() { return gnu_get_libc_version(); }

std::string microcode() { return cpuinfo_field("microcode"); }

std::string utc_now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::uint64_t memory_available_bytes(std::string* how) {
  std::uint64_t avail = 0;
  {
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    std::uint64_t kb = 0;
    while (in >> key >> kb) {
      std::getline(in, unit);
      if (key == "MemAvailable:") avail = kb * 1024;
    }
  }
  // Two decimals (format_bytes), as validate_sweep's other figures: "half of ulimit -v (0.7 GiB) =
  // 341.8 MiB" did not check (683.6 MiB was the limit).
  // The message puts the figure after it ("MemAvailable = 23.06 GiB"): "MemAvailable 23.06 GiB =
  // 23.06 GiB" said it twice.
  std::string reason = "MemAvailable";
  // cgroup v1 and v2, this process's group and every group above it.
  const CgroupMemory cg = read_cgroup_memory();
  if (cg.limited && cg.headroom < avail) {
    avail = cg.headroom;
    reason = fmt::format("{} = {} with {} in use", cg.where, format_bytes(cg.limit, " "), format_bytes(cg.usage, " "));
  }
  rlimit rl{};
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t lim = rl.rlim_cur / 2;  // the process itself needs address space too
    if (lim < avail) {
      avail = lim;
      reason = fmt::format("half of ulimit -v ({})", format_bytes(rl.rlim_cur, " "));
    }
  }
  if (how) *how = reason;
  return avail;
}

RunInfo describe_run(const CpuFeatures& cpu, const std::string& command_line, const std::string& topology_summary) {
  RunInfo info;
  info.bwlab_version = kVersion;
  info.date = utc_now_iso8601();
  info.command_line = command_line;
  info.host = host_name();
  info.cpu_vendor = cpu.vendor;
  info.cpu_model_name = cpu.model_name;
  info.cpu_family = cpu.family;
  info.cpu_model = cpu.model;
  info.cpu_stepping = cpu.stepping;
  info.cpu_flags_used = cpu.present();
  info.microcode = microcode();
  info.kernel_release = kernel_release();
  info.thp = thp_setting();
  info.glibc_version = glibc_version();
  info.topology = topology_summary;
  return info;
}

std::string steal_unseen_warning(const std::string& proc_stat_first_line) {
  std::istringstream in(proc_stat_first_line);
  std::string label;
  std::uint64_t v[8] = {};
  if (!(in >> label) || label != "cpu") return {};
  for (std::uint64_t& x : v)
    if (!(in >> x)) return {};
  std::uint64_t total = 0;
  for (std::uint64_t x : v) total += x;
  const long hz = ::sysconf(_SC_CLK_TCK) > 0 ? ::sysconf(_SC_CLK_TCK) : 100;
  if (v[7] != 0 || total < static_cast<std::uint64_t>(3600 * hz)) return {};
  return fmt::format("this virtual machine's /proc/stat counts no steal time in {:.1f} h of CPU time: its hypervisor "
                     "probably does not report it, so steal_pct 0 means unseen, not none (a thread's lost CPU time "
                     "is still judged from its own clock, which may count time the host took as run time)",
                     static_cast<double>(total) / static_cast<double>(hz) / 3600.0);
}

std::vector<std::string> environment_warnings(const CpuFeatures& cpu) {
  std::vector<std::string> w;
  const std::string flags = cpuinfo_field("flags");
  if (flags.find(" hypervisor") != std::string::npos) {
    w.push_back("running in a virtual machine: other tenants share the memory bandwidth; compare kernels "
                "within one run (they are interleaved), not across runs");
    if (std::string unseen = steal_unseen_warning(read_first_line("/proc/stat")); !unseen.empty())
      w.push_back(std::move(unseen));
  }
  const std::string gov = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  if (!gov.empty() && gov != "performance")
    w.push_back(fmt::format("CPU frequency governor is '{}': set 'performance' (cpupower frequency-set -g "
                            "performance) for steadier figures",
                            gov));
  if (read_first_line("/sys/devices/system/cpu/intel_pstate/no_turbo") == "0" ||
      read_first_line("/sys/devices/system/cpu/cpufreq/boost") == "1")
    w.push_back("turbo is on: single-thread figures may not scale linearly with the thread count");
  if (!cpu.erms) w.push_back("this CPU lacks ERMS: rep stosb is not its fast path here");
  return w;
}

}  // namespace bwlab
