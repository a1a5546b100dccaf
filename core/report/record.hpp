// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace bwlab {

// One thread of one measured point.
struct ThreadFigures {
  int slot = 0;           // thread index within the team
  int pu_planned = -1;    // OS index of the PU the plan pinned it to; -1 with placement none (unbound)
  int pu_observed = -1;   // OS index it was seen running on (sched_getcpu), -1 if unknown
  bool pinned = false;    // observed == planned at the start and the end of every window; false if unbound
  int mem_node = -1;      // NUMA node its buffer's pages were found on, -1 if unknown
  double gbps_median = 0;            // median over repetitions, GB = 1e9 bytes
  std::vector<double> gbps_reps;     // one per repetition
  std::uint64_t bytes_total = 0;     // counted bytes over all repetitions
  std::uint64_t passes_total = 0;    // counted passes over all repetitions
  std::string kernel;                // what this thread ran (victim, mix, tlbflush: differs per thread)
  std::uint64_t ops_total = 0;       // pagefault: pages touched; tlbflush: munmap calls or reads
};

// Where an imported point came from (source = "imported", core/import): the tool and format
// the figure was read from, and every conversion applied. Empty for measured/simulated points.
// Until the CSV/JSON schema carries these as columns, the same facts are also in one flag of the
// point ("imported from ..."), so a CSV round trip keeps them as text.

// The flag of a simulated point whose buffers the model keeps in the LLC from pass to pass (the
// simulator writes it; the verdict reads it: such a size is no large clear).
inline constexpr const char* kLlcResidentFlag = "simulated: buffer resident in the LLC";

// One measured or simulated point: the record that the engine and the model produce and the
// table, CSV, JSON, plots and comparisons consume.
//
// Scenarios (the `scenario` field) and what one point is:
//  scaling   every thread runs `kernel`; gbps_* aggregate over all threads.
//  victim    one victim thread runs `kernel` while peer_threads aggressors run peer_kernel; the
//            gbps_* figures are the victim's alone (role = victim), peer_gbps_median the
//            aggressors' total, slowdown_pct against the same victim with 0 aggressors (same run).
//  mix       threads split between kernels; one point per kernel (role = mix): `threads` of them
//            ran `kernel`, gbps_* their aggregate; peer_* the rest of the mix.
//  pagefault kernel = "pagefault": each thread maps `size_bytes`, touches every page (the OS
//            clears it on the fault) and unmaps; gbps_* = bytes made ready / time spent touching.
//  tlbflush  kernel = "munmap": one thread maps, touches and munmaps `entries` 4 KiB pages while
//            peer_threads readers read their own `size_bytes`; gbps_* are NaN, munmap_* and
//            reader_* hold the figures.
// Fields that do not apply are empty strings, -1 (ints) or NaN (doubles; empty in the CSV).
// A new member that belongs in the files needs one row in core/report/fields.cpp (see fields.hpp).
struct Point {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  std::string source = "measured";  // measured | simulated | imported (origin says from what)
  std::string scenario = "scaling"; // scaling | victim | mix | pagefault | tlbflush
  std::string host;
  std::string cpu_model;
  std::string kernel;
  std::string traffic_class;        // write-allocate | non-temporal | zeroing-without-fetch | os (pagefault, tlbflush)
  std::string fill;                 // zero | 0xNN | perf
  int threads = 0;
  std::string placement;            // compact | scatter | list:0,2
  std::string membind;              // local | remote | interleave | node:N
  std::string pages;                // 4k | thp | hugetlb2m | hugetlb1g
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
  std::vector<ThreadFigures> per_thread;  // JSON only; victim: slot 0 is the victim, then the aggressors

  // ---- Scenario fields (CSV columns after `flags`; the order is core/report/fields.cpp's) ----
  std::string role;                 // victim: "victim"; mix: "mix"; empty for the other scenarios
  std::string peer_kernel;          // victim: the aggressors' kernel; mix: the other kernels, '+'-joined
  int peer_threads = -1;            // victim: aggressors (k); mix: threads of the other kernels;
                                    // tlbflush: reader threads (k)
  double peer_gbps_median = kNone;  // victim: aggressors' aggregate GB/s; mix: the other kernels' aggregate
  double baseline_gbps = kNone;     // victim: the victim kernel alone (k = 0), same run, size and fill
  double slowdown_pct = kNone;      // victim: (1 - gbps_median / baseline_gbps) * 100, > 0 = slower
  double huge_pct = kNone;          // % of the buffers' bytes found backed by huge pages (AnonHugePages
                                    // or hugetlb in /proc/self/smaps), checked after the first touch
  double pages_touched_median = kNone;  // pagefault: pages touched per repetition, all threads
  double faults_median = kNone;     // pagefault: page faults the kernel counted (getrusage minflt) per
                                    // repetition, all threads
  double faults_per_s = kNone;      // pagefault: faults per second, sum over threads (median over reps)
  int entries = -1;                 // tlbflush: E, 4 KiB pages per munmap call
  double munmap_ns_median = kNone;  // tlbflush: nanoseconds per munmap call (median over reps)
  double munmap_ns_pstdev_pct = kNone;
  double munmap_calls_median = kNone;   // tlbflush: munmap calls per repetition
  double reader_ns_median = kNone;  // tlbflush: nanoseconds per read of the readers while munmap runs
  double reader_ns_pstdev_pct = kNone;
  double reader_alone_ns = kNone;   // tlbflush: the same readers with the unmapper idle (same run)

  // ---- Imported points (bwlab import, core/import): where a figure came from; empty / NaN / -1
  // for measured and simulated points ----
  std::string origin_tool;          // the command or tool as stated, e.g. "perf bench mem memset -l 1 -f x86-64-stosb"
  std::string origin_format;        // perf-bench | lkml-table | likwid-bench | pmbw | gbench
  std::string origin_file;          // the file it was read from
  int origin_line = -1;             // 1-based line of the figure in that file
  std::string origin_function;      // the tool's own name for what ran (x86-64-stosb, ScanWrite64PtrSimpleLoop, ...)
  std::string origin_unit;          // the unit as printed: "GB/sec", "GB/s", "MByte/s", "bytes/s"
  double origin_to_gbps = kNone;    // factor from the printed unit to GB/s (1e9 bytes/s)
  std::string origin_spread_unit;   // percent | as-reported (no unit stated) | "" (no spread given)
  double origin_spread = kNone;     // as printed (see origin_spread_unit)
  std::string origin_microcode;     // machine lines above a table ("" = not stated)
  std::string origin_turbo;         // on | off | unknown
  std::string origin_note;          // --note

  // ---- What disturbed the windows (measured points; one value per point, the worst window) ----
  double steal_pct_max = kNone;     // highest steal % of the PUs used over the windows (/proc/stat)
  int invol_ctx_switches = -1;      // most involuntary context switches in one window, all threads
  double cpu_mhz_median = kNone;    // core clock (cpufreq, else APERF/MPERF), median over windows; NaN: not exposed
  int noisy_windows = -1;           // windows kept that were disturbed beyond the limits
  // ---- DRAM traffic from the memory controllers' counters (core/counters), measured points only;
  // NaN where the host exposes none (the run says why once) and for simulated/imported points ----
  double dram_read_per_byte = kNone;   // DRAM bytes read / bytes cleared by all threads, over the point's windows
  double dram_write_per_byte = kNone;  // DRAM bytes written / bytes cleared, likewise
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
  // The measuring machine's last-level caches (bytes each, how many): a verdict from rows that
  // fit there says so for any host name (it did only for this machine's). 0: not recorded.
  std::uint64_t llc_bytes = 0;
  int llc_count = 0;
  std::vector<std::string> warnings;  // environment checks
  bool partial = false;       // the run was interrupted; the points are those finished
  std::string partial_reason;
  // Simulated runs: the machine file the model ran (its JSON text, as `bwlab machine spec` writes
  // it), so a reader can draw that machine's ceilings and topology. Empty for measured runs.
  // Opaque here: core/report does not know the model.
  std::string machine;
};

}  // namespace bwlab
