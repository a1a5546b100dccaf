// SPDX-License-Identifier: MIT
// Finding the memory-controller counters the kernel exposes through perf_event_open, under a
// sysfs root (/sys/bus/event_source/devices by default; tests point it at fixtures), and turning
// their event strings into perf_event_attr config values. No counter is opened here (see
// dram_meter.hpp).
//
// What is recognised, and where each layout is documented:
//  - Intel server IMC, `uncore_imc_N` (SNB-EP..SKX/ICX/SPR): events/cas_count_read and
//    cas_count_write with .scale 6.103515625e-5 and .unit MiB (64 bytes per CAS = 64 / 2^20 MiB);
//    Linux arch/x86/events/intel/uncore_snbep.c (snbep/hswep/skx/snr/icx/spr_uncore_imc_events).
//  - Intel free-running IMC counters, `uncore_imc_free_running_N` (ICX/SPR: read/write; client
//    TGL/ADL: data_read/data_write), and client `uncore_imc` (SNB..SKL desktop: data_reads/
//    data_writes), same .scale/.unit convention; uncore_snbep.c and uncore_snb.c.
//  - AMD Zen 4 and later UMC, `amd_umc_N` (Linux 6.x, arch/x86/events/amd/uncore.c: format
//    event = config:0-7, rdwrmask = config:8-9). Its sysfs events/ directory is empty, so the
//    encodings come from perf's tools/perf/pmu-events/arch/x86/amdzen4/memory-controller.json:
//    umc_cas_cmd.rd = EventCode 0x0a, RdWrMask 0x1; umc_cas_cmd.wr = EventCode 0x0a, RdWrMask 0x2;
//    one CAS moves 64 bytes (a cache line).
//  - Not used: AMD `amd_df` (Zen 2/3 data-fabric dram_channel_data_controller_N events count
//    reads and writes together, so they cannot fill separate read and write columns).
// The sysfs layout itself: Documentation/ABI/testing/sysfs-bus-event_source-devices-events and
// -format (type, cpumask, events/NAME with "term=value,...", events/NAME.scale, events/NAME.unit,
// format/TERM with "config:lo-hi[,lo-hi]" or config1/config2).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace bwlab {

inline constexpr const char* kPerfDevicesRoot = "/sys/bus/event_source/devices";

enum class DramDirection { read, write };

// One DRAM event of one PMU, ready for perf_event_open on each CPU of `cpus`.
struct DramEvent {
  std::string pmu;            // "uncore_imc_0"
  int type = -1;              // the PMU's perf type (its `type` file)
  std::vector<int> cpus;      // the PMU's cpumask: one CPU per socket (die) it counts for
  std::string name;           // "cas_count_read", "umc_cas_cmd.rd"
  std::string encoding;       // "event=0x04,umask=0x03"
  DramDirection direction = DramDirection::read;
  std::uint64_t config = 0, config1 = 0, config2 = 0;
  double bytes_per_count = 0; // .scale x .unit in bytes (64 for a CAS)
  std::string source;         // where the encoding came from: "sysfs" or the perf JSON it copies
};

struct DramDiscovery {
  std::vector<DramEvent> events;  // read and write events of every memory-controller PMU found
  std::string absent_reason;      // why `events` is empty ("" when not empty)
  bool found() const { return !events.empty(); }
};

// Scans `root` for the memory-controller PMUs above (Intel's free-running IMC counters only when
// no uncore_imc CAS counters exist: both cover the same channels). A PMU that has a read event but no write
// event (or the reverse), or whose files cannot be parsed, is left out and said why in
// absent_reason when nothing else is found. Never throws for a missing or unreadable root.
DramDiscovery discover_dram_events(const std::filesystem::path& root = kPerfDevicesRoot);

// The config words of `encoding` ("event=0x04,umask=0x03"; a bare term means 1) laid out by the
// PMU's format/ files under `pmu_dir` ("config:0-7", "config:0-7,32-35", "config1:0-31").
// Throws std::runtime_error naming an unknown term or a value wider than its bits.
struct PerfConfig {
  std::uint64_t config = 0, config1 = 0, config2 = 0;
};
PerfConfig encode_perf_event(const std::filesystem::path& pmu_dir, std::string_view encoding);

// Bytes per count from an event's .scale and .unit: "MiB" x 2^20, "KiB" x 2^10, "B"/"Bytes"/""
// x 1, "MB" x 1e6. NaN for any other unit (never a guessed factor).
double scale_to_bytes(double scale, std::string_view unit);

// "0,18", "0-3,8": the CPUs of a cpumask/cpus file. Empty on a malformed list.
std::vector<int> parse_cpu_list(std::string_view text);

// DRAM bytes moved per byte cleared: dram_bytes / bytes_cleared; NaN when either is unknown
// (NaN) or nothing was cleared.
double dram_per_byte(double dram_bytes, double bytes_cleared);

}  // namespace bwlab
