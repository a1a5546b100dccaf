// SPDX-License-Identifier: MIT
// Memory-controller counters (core/counters): discovery on sysfs fixtures copied from the kernel's
// documented layouts (tests/data/sysfs/README.md), the perf_event_attr configs built from their
// format files, scale arithmetic, per-byte ratios, and the absent path on this machine. A point's
// ratios over its windows: scenario_points_test.cpp (fill_dram).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "core/counters/dram_meter.hpp"
#include "core/counters/dram_pmu.hpp"

namespace bwlab {
namespace {

const std::filesystem::path kSysfs = std::filesystem::path(BWLAB_SYSFS_FIXTURES);

std::vector<const DramEvent*> of(const DramDiscovery& d, DramDirection dir) {
  std::vector<const DramEvent*> out;
  for (const DramEvent& e : d.events)
    if (e.direction == dir) out.push_back(&e);
  return out;
}

TEST(DramPmu, SkylakeServerFindsSixImcChannelsWithCasCounts) {
  const DramDiscovery d = discover_dram_events(kSysfs / "intel-skx");
  ASSERT_TRUE(d.found()) << d.absent_reason;
  EXPECT_TRUE(d.absent_reason.empty());
  ASSERT_EQ(d.events.size(), 12u);  // uncore_imc_0..5, read + write; uncore_cha_0 and cpu ignored
  const auto reads = of(d, DramDirection::read), writes = of(d, DramDirection::write);
  ASSERT_EQ(reads.size(), 6u);
  ASSERT_EQ(writes.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    const DramEvent& r = *reads[static_cast<std::size_t>(i)];
    const DramEvent& w = *writes[static_cast<std::size_t>(i)];
    EXPECT_EQ(r.pmu, "uncore_imc_" + std::to_string(i));
    EXPECT_EQ(w.pmu, r.pmu);
    EXPECT_EQ(r.type, 14 + i);
    EXPECT_EQ(r.name, "cas_count_read");
    EXPECT_EQ(w.name, "cas_count_write");
    EXPECT_EQ(r.config, 0x0304u);  // event=0x04 in bits 0-7, umask=0x03 in bits 8-15
    EXPECT_EQ(w.config, 0x0c04u);
    EXPECT_EQ(r.config1, 0u);
    EXPECT_EQ(r.cpus, (std::vector<int>{0, 18}));  // one CPU per socket
    EXPECT_DOUBLE_EQ(r.bytes_per_count, 64.0);     // 6.103515625e-5 MiB = 64 bytes per CAS
    EXPECT_EQ(r.source, "sysfs");
  }
}

TEST(DramPmu, IceLakeServerUsesCasCountersNotAlsoTheFreeRunningOnes) {
  const DramDiscovery d = discover_dram_events(kSysfs / "intel-icx");
  ASSERT_EQ(d.events.size(), 4u) << "the same channels must not be counted twice";
  for (const DramEvent& e : d.events) {
    EXPECT_EQ(e.pmu.rfind("uncore_imc_free_running", 0), std::string::npos) << e.pmu;
    EXPECT_EQ(e.config, e.direction == DramDirection::read ? 0x0f04u : 0x3004u);
  }
}

TEST(DramPmu, ClientFreeRunningCountersWhenTheyAreAllThereIs) {
  const DramDiscovery d = discover_dram_events(kSysfs / "intel-tgl");
  ASSERT_EQ(d.events.size(), 4u);
  const auto reads = of(d, DramDirection::read);
  ASSERT_EQ(reads.size(), 2u);
  EXPECT_EQ(reads[0]->pmu, "uncore_imc_free_running_0");
  EXPECT_EQ(reads[0]->name, "data_read");
  EXPECT_EQ(reads[0]->config, 0x20ffu);
  EXPECT_EQ(of(d, DramDirection::write)[1]->config, 0x21ffu);
  EXPECT_DOUBLE_EQ(reads[0]->bytes_per_count, 64.0);
}

TEST(DramPmu, AmdZen4UmcEncodingsFromPerfJsonThroughTheSysfsFormat) {
  const DramDiscovery d = discover_dram_events(kSysfs / "amd-zen4");
  ASSERT_EQ(d.events.size(), 4u) << d.absent_reason;  // amd_umc_0/1; amd_df and amd_l3 are not DRAM read/write
  for (const DramEvent& e : d.events) {
    EXPECT_EQ(e.pmu.rfind("amd_umc_", 0), 0u) << e.pmu;
    EXPECT_EQ(e.name, e.direction == DramDirection::read ? "umc_cas_cmd.rd" : "umc_cas_cmd.wr");
    // event=0x0a in bits 0-7, rdwrmask (1 read, 2 write) in bits 8-9
    EXPECT_EQ(e.config, e.direction == DramDirection::read ? 0x10au : 0x20au);
    EXPECT_EQ(e.cpus, std::vector<int>{0});
    EXPECT_DOUBLE_EQ(e.bytes_per_count, 64.0);
    EXPECT_NE(e.source.find("amdzen4"), std::string::npos);
  }
  EXPECT_EQ(d.events[0].type, 13);
}

TEST(DramPmu, SplitBitFieldsAndBareTerms) {
  // Zen 4 data fabric: event config:0-7,32-37, umask config:8-15,24-27.
  const PerfConfig c = encode_perf_event(kSysfs / "amd-zen4" / "amd_df", "event=0x1c7,umask=0xf38");
  EXPECT_EQ(c.config, 0xc7u | (0x38u << 8) | (0xfull << 24) | (0x1ull << 32));
  // A bare term means 1 (edge is config:18 in the SKX IMC format).
  EXPECT_EQ(encode_perf_event(kSysfs / "intel-skx" / "uncore_imc_0", "event=0x04,edge").config, 0x04u | (1u << 18));
  EXPECT_THROW(encode_perf_event(kSysfs / "intel-skx" / "uncore_imc_0", "event=0x04,nosuch=1"), std::runtime_error);
  EXPECT_THROW(encode_perf_event(kSysfs / "intel-skx" / "uncore_imc_0", "umask=0x1ff"), std::runtime_error);
  EXPECT_THROW(encode_perf_event(kSysfs / "intel-skx" / "uncore_imc_0", "event=zz"), std::runtime_error);
}

TEST(DramPmu, ScaleAndUnitToBytes) {
  EXPECT_DOUBLE_EQ(scale_to_bytes(6.103515625e-5, "MiB"), 64.0);
  EXPECT_DOUBLE_EQ(scale_to_bytes(3.814697266e-6, "MiB"), 3.814697266e-6 * 1048576.0);
  EXPECT_DOUBLE_EQ(scale_to_bytes(64, ""), 64.0);
  EXPECT_DOUBLE_EQ(scale_to_bytes(1, "KiB"), 1024.0);
  EXPECT_TRUE(std::isnan(scale_to_bytes(1, "furlongs")));
  // A count of 1000 CAS at 6.103515625e-5 MiB each is 64000 bytes.
  EXPECT_DOUBLE_EQ(1000 * scale_to_bytes(6.103515625e-5, "MiB"), 64000.0);
}

TEST(DramPmu, CpuLists) {
  EXPECT_EQ(parse_cpu_list("0,18\n"), (std::vector<int>{0, 18}));
  EXPECT_EQ(parse_cpu_list("0-3,8"), (std::vector<int>{0, 1, 2, 3, 8}));
  EXPECT_TRUE(parse_cpu_list("").empty());
  EXPECT_TRUE(parse_cpu_list("3-1").empty());
  EXPECT_TRUE(parse_cpu_list("a").empty());
}

TEST(DramPmu, PerByteRatios) {
  EXPECT_DOUBLE_EQ(dram_per_byte(2e9, 1e9), 2.0);
  EXPECT_DOUBLE_EQ(dram_per_byte(0, 1e9), 0.0);
  EXPECT_TRUE(std::isnan(dram_per_byte(1e9, 0)));
  EXPECT_TRUE(std::isnan(dram_per_byte(std::numeric_limits<double>::quiet_NaN(), 1e9)));
}

TEST(DramPmu, BrokenPmusAreLeftOutAndSaidWhy) {
  const DramDiscovery d = discover_dram_events(kSysfs / "intel-broken");
  EXPECT_FALSE(d.found());
  EXPECT_NE(d.absent_reason.find("uncore_imc_0: no write event"), std::string::npos) << d.absent_reason;
  EXPECT_NE(d.absent_reason.find("furlongs"), std::string::npos) << d.absent_reason;
}

TEST(DramPmu, AbsentPathNamesWhatTheHostExposes) {
  const DramDiscovery d = discover_dram_events(kSysfs / "vm-none");
  EXPECT_FALSE(d.found());
  EXPECT_NE(d.absent_reason.find("no memory-controller PMU under"), std::string::npos) << d.absent_reason;
  EXPECT_NE(d.absent_reason.find("(this host exposes: breakpoint, msr, software, tracepoint, uprobe)"),
            std::string::npos)
      << d.absent_reason;
  std::string why;
  EXPECT_EQ(DramMeter::open(d, why), nullptr);
  EXPECT_EQ(why, d.absent_reason);

  const DramDiscovery missing = discover_dram_events(kSysfs / "no-such-directory");
  EXPECT_FALSE(missing.found());
  EXPECT_NE(missing.absent_reason.find("cannot list"), std::string::npos) << missing.absent_reason;
}

// The real machine: either memory-controller events are found (then each is complete) or the
// reason is given; opening them either works or says why. This VM has none (see the README).
TEST(DramPmu, ThisMachine) {
  const DramDiscovery d = discover_dram_events();
  if (!d.found()) {
    EXPECT_FALSE(d.absent_reason.empty());
    std::string why;
    EXPECT_EQ(DramMeter::open(d, why), nullptr);
    EXPECT_FALSE(why.empty());
    return;
  }
  for (const DramEvent& e : d.events) {
    EXPECT_GE(e.type, 0);
    EXPECT_FALSE(e.cpus.empty());
    EXPECT_GT(e.bytes_per_count, 0);
  }
  std::string why;
  auto meter = DramMeter::open(d, why);
  if (!meter) {
    EXPECT_NE(why.find("perf_event_open("), std::string::npos) << why;
    return;
  }
  meter->start();
  const DramBytes b = meter->stop();
  EXPECT_TRUE(b.counted());
  EXPECT_GE(b.read, 0);
  EXPECT_GE(b.write, 0);
}

// The counting machinery for real, on the one PMU every Linux host has: the software PMU's
// cpu-clock (type 1, config 0), opened system-wide on CPU 0 like an uncore event, standing in
// for a DRAM event (this VM has none). Its count is nanoseconds, so "bytes" here are ns x scale.
DramEvent software_clock(DramDirection d, double scale) {
  DramEvent e;
  e.pmu = "software";
  e.type = 1;   // PERF_TYPE_SOFTWARE
  e.cpus = {0};
  e.name = "cpu-clock";
  e.config = 0; // PERF_COUNT_SW_CPU_CLOCK
  e.direction = d;
  e.bytes_per_count = scale;
  return e;
}

TEST(DramMeterReal, StartStopReadOnARealCounter) {
  DramDiscovery d;
  d.events = {software_clock(DramDirection::read, 1.0), software_clock(DramDirection::write, 64.0)};
  std::string why;
  auto meter = DramMeter::open(d, why);
  if (!meter) GTEST_SKIP() << "system-wide software events refused here: " << why;
  EXPECT_TRUE(why.empty());
  EXPECT_EQ(meter->describe(), "software (cpu-clock) on CPU 0");
  // Never enabled: nothing ran, so nothing is claimed.
  EXPECT_FALSE(meter->stop().counted());
  meter->start();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const DramBytes b = meter->stop();
  ASSERT_TRUE(b.counted());
  EXPECT_GT(b.read, 0);
  EXPECT_GT(b.write, b.read);  // same clock, 64 x the scale, read after it
  // start() resets: a window with no sleep counts from zero, not on top of the 100 ms before.
  meter->start();
  const DramBytes again = meter->stop();
  ASSERT_TRUE(again.counted());
  EXPECT_LT(again.read, b.read);
}

TEST(DramMeterReal, ARefusedEventSaysWhich) {
  DramDiscovery d;
  DramEvent e = software_clock(DramDirection::read, 64.0);
  e.pmu = "uncore_imc_0";
  e.name = "cas_count_read";
  e.type = 0x7fff0000;  // no such PMU type
  d.events = {e};
  std::string why;
  EXPECT_EQ(DramMeter::open(d, why), nullptr);
  EXPECT_EQ(why.rfind("perf_event_open(uncore_imc_0/cas_count_read/ on CPU 0) failed: ", 0), 0u) << why;
}

}  // namespace
}  // namespace bwlab
