// SPDX-License-Identifier: MIT
#include "core/counters/dram_meter.hpp"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace bwlab {

namespace {

int perf_event_open(perf_event_attr& attr, int cpu) {
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC));
}

std::string paranoid_note(int err) {
  if (err != EACCES && err != EPERM) return {};
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string level;
  if (!(in >> level)) return "; uncore counters need CAP_PERFMON or root";
  return fmt::format("; perf_event_paranoid is {}, uncore counters need CAP_PERFMON or root", level);
}

}  // namespace

std::unique_ptr<DramMeter> DramMeter::open(const DramDiscovery& found, std::string& why_not) {
  if (!found.found()) {
    why_not = found.absent_reason;
    return nullptr;
  }
  std::unique_ptr<DramMeter> m(new DramMeter());
  m->events_ = found.events;
  for (const DramEvent& e : m->events_) {
    for (int cpu : e.cpus) {
      perf_event_attr attr{};
      attr.size = sizeof(attr);
      attr.type = static_cast<std::uint32_t>(e.type);
      attr.config = e.config;
      attr.config1 = e.config1;
      attr.config2 = e.config2;
      attr.disabled = 1;
      attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
      const int fd = perf_event_open(attr, cpu);
      if (fd < 0) {
        const int err = errno;
        why_not = fmt::format("perf_event_open({}/{}/ on CPU {}) failed: {}{}", e.pmu, e.name, cpu,
                              std::strerror(err), paranoid_note(err));
        return nullptr;  // the destructor closes what was opened
      }
      m->fds_.push_back({fd, &e});
    }
  }
  return m;
}

DramMeter::~DramMeter() {
  for (const Fd& f : fds_) close(f.fd);
}

void DramMeter::start() {
  for (const Fd& f : fds_) ioctl(f.fd, PERF_EVENT_IOC_RESET, 0);
  for (const Fd& f : fds_) ioctl(f.fd, PERF_EVENT_IOC_ENABLE, 0);
}

DramBytes DramMeter::stop() {
  for (const Fd& f : fds_) ioctl(f.fd, PERF_EVENT_IOC_DISABLE, 0);
  DramBytes out{0, 0};
  for (const Fd& f : fds_) {
    std::uint64_t v[3] = {0, 0, 0};  // value, time enabled, time running
    if (read(f.fd, v, sizeof(v)) != static_cast<ssize_t>(sizeof(v)) || v[2] == 0) return DramBytes{};
    // Multiplexed (running < enabled): scaled up the way perf stat does.
    const double count = static_cast<double>(v[0]) * static_cast<double>(v[1]) / static_cast<double>(v[2]);
    (f.event->direction == DramDirection::read ? out.read : out.write) += count * f.event->bytes_per_count;
  }
  return out;
}

std::string DramMeter::describe() const {
  std::vector<std::string> pmus, names;
  std::set<int> cpus;
  for (const DramEvent& e : events_) {
    if (pmus.empty() || pmus.back() != e.pmu) pmus.push_back(e.pmu);
    if (std::find(names.begin(), names.end(), e.name) == names.end()) names.push_back(e.name);
    cpus.insert(e.cpus.begin(), e.cpus.end());
  }
  return fmt::format("{} ({}) on CPU{} {}", fmt::join(pmus, ", "), fmt::join(names, ", "), cpus.size() == 1 ? "" : "s",
                     fmt::join(cpus, ","));
}

}  // namespace bwlab
