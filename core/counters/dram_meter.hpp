// SPDX-License-Identifier: MIT
// Counting DRAM traffic around measured windows: the memory-controller events found by
// discover_dram_events, opened with perf_event_open (pid = -1, one CPU of each PMU's cpumask,
// disabled) before any window, then reset + enabled when a window opens and disabled + read once
// every thread has left it, all with ioctl outside the timed loop.
//
// What the figures mean: memory controllers count every agent of their socket (other processes
// and other tenants of a VM host too), so the bytes are the socket's DRAM traffic during the
// window, not bwlab's alone; on an idle machine the clearing dominates.
#pragma once
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/counters/dram_pmu.hpp"

namespace bwlab {

// Bytes the memory controllers moved during one window; NaN when not counted.
struct DramBytes {
  double read = std::numeric_limits<double>::quiet_NaN();
  double write = std::numeric_limits<double>::quiet_NaN();
  bool counted() const { return read == read && write == write; }  // neither is NaN
};

class DramMeter {
 public:
  // Opens every event of `found` on every CPU of its cpumask. Returns nullptr and sets `why_not`
  // (one line) when nothing was found or perf_event_open refused one of them (the first
  // refusal is named, with /proc/sys/kernel/perf_event_paranoid when the error is a permission).
  static std::unique_ptr<DramMeter> open(const DramDiscovery& found, std::string& why_not);
  virtual ~DramMeter();
  DramMeter(const DramMeter&) = delete;
  DramMeter& operator=(const DramMeter&) = delete;

  virtual void start();      // reset and enable every counter
  virtual DramBytes stop();  // disable, read, scale (counts x bytes_per_count, summed per direction)

  // "uncore_imc_0..5 cas_count_read/cas_count_write on CPUs 0,18": what is counted, for the run header.
  std::string describe() const;

 protected:
  DramMeter() = default;  // for tests of the engine's calls (a meter with no counters)

 private:
  struct Fd {
    int fd = -1;
    const DramEvent* event = nullptr;
  };
  std::vector<DramEvent> events_;
  std::vector<Fd> fds_;
};

}  // namespace bwlab
