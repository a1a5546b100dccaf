// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace bwlab {

// One thread of one measured point.
struct ThreadFigures {
  int slot = 0;           // thread index within the team
  int pu_planned = -1;    // OS index of the PU the plan pinned it to
  int pu_observed = -1;   // OS index it was seen running on (sched_getcpu), -1 if unknown
  bool pinned = false;    // observed == planned at the start and the end of every window
  int mem_node = -1;      // NUMA node its buffer's pages were found on, -1 if unknown
  double gbps_median = 0;            // median over repetitions, GB = 1e9 bytes
  std::vector<double> gbps_reps;     // one per repetition
  std::uint64_t bytes_total = 0;     // counted bytes over all repetitions
  std::uint64_t passes_total = 0;    // counted passes over all repetitions
};

// One measured or simulated point: the record that the engine and the model produce and the
// table, CSV, JSON, plots and comparisons consume.
struct Point {
  std::string source = "measured";  // measured | simulated
  std::string scenario = "scaling";
  std::string host;
  std::string cpu_model;
  std::string kernel;
  std::string traffic_class;        // write-allocate | non-temporal | zeroing-without-fetch
  std::string fill;                 // zero | 0xNN | perf
  int threads = 0;
  std::string placement;            // compact | scatter | list:0,2
  std::string membind;              // local | interleave | node:N
  std::string pages;                // 4k | thp
  std::uint64_t size_bytes = 0;     // per-thread buffer
  int reps = 0;
  double duration_ms = 0;           // requested window per repetition
  double bytes_median = 0;          // bytes counted per repetition, all threads (median over reps)
  double elapsed_ns_median = 0;     // measured window per repetition (median over reps)
  double gbps_median = 0;           // aggregate = sum of per-thread GB/s (median over reps)
  double gbps_min = 0;
  double gbps_max = 0;
  double gbps_pstdev_pct = 0;       // population stdev of the aggregate over reps, % of mean
  double gbps_per_thread_median = 0;
  double thread_fairness = 0;       // slowest / fastest thread (median over reps), 1 = fair
  std::vector<int> pus;             // observed PU per thread (OS index)
  std::vector<int> pus_planned;     // planned PU per thread (OS index)
  std::vector<std::string> flags;   // e.g. "unstable: 7.3% pstdev over 5 reps; try --reps 11"
  std::vector<double> gbps_reps;    // aggregate per repetition (JSON only)
  std::vector<ThreadFigures> per_thread;  // JSON only
};

// Metadata of one run, stored in the JSON beside the points.
struct RunInfo {
  int schema_version = 1;
  std::string bwlab_version;
  std::string date;           // ISO 8601 UTC
  std::string command_line;
  std::string host;
  std::string cpu_vendor;
  std::string cpu_model_name;
  int cpu_family = 0, cpu_model = 0, cpu_stepping = 0;
  std::vector<std::string> cpu_flags_used;  // CPU features bwlab looked at and found
  std::string microcode;      // empty if unreadable
  std::string kernel_release;
  std::string thp;            // /sys/kernel/mm/transparent_hugepage/enabled selection
  std::string glibc_version;
  std::string topology;       // one-line summary
  std::vector<std::string> warnings;  // environment checks
  bool partial = false;       // the run was interrupted; the points are those finished
  std::string partial_reason;
};

}  // namespace bwlab
