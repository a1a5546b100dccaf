// SPDX-License-Identifier: MIT
#include "core/report/fields.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/kernels/fill.hpp"
#include "core/kernels/kernels.hpp"

namespace bwlab {

namespace {

constexpr FieldUse kOptional = FieldUse::optional;
constexpr FieldUse kJsonOnly = FieldUse::json_only;

// See fields.hpp for how to add a row. Order = CSV column order = JSON key order.
constexpr PointField kFields[] = {
    {"source", &Point::source, "", "measured | simulated | imported (bwlab import)"},
    {"scenario", &Point::scenario, "", "scaling | victim | mix | pagefault | tlbflush"},
    {"host", &Point::host, "", "host name"},
    {"cpu_model", &Point::cpu_model, "", "CPU model name"},
    {"kernel", &Point::kernel, "", "kernel run (victim: the victim's; pagefault; tlbflush: munmap)"},
    {"traffic_class", &Point::traffic_class, "",
     "write-allocate | non-temporal | zeroing-without-fetch | os"},
    {"fill", &Point::fill, "", "what is written: zero | 0xNN | perf"},
    {"threads", &Point::threads, "", "threads of the point (victim: k + 1; mix: those running kernel)"},
    {"placement", &Point::placement, "", "compact | scatter | list:0,2 | none"},
    {"membind", &Point::membind, "", "local | remote | interleave | node:N"},
    {"pages", &Point::pages, "", "4k | thp | hugetlb2m | hugetlb1g"},
    {"size_bytes", &Point::size_bytes, "bytes", "buffer per thread (tlbflush: each reader's memory)"},
    {"reps", &Point::reps, "", "repetitions (simulated: 0)"},
    {"duration_ms", &Point::duration_ms, "ms", "requested window per repetition"},
    {"bytes_median", &Point::bytes_median, "bytes",
     "bytes counted per repetition, all threads (median over reps)"},
    {"elapsed_ns_median", &Point::elapsed_ns_median, "ns",
     "measured window per repetition (median over reps)"},
    {"gbps_median", &Point::gbps_median, "GB/s",
     "aggregate = sum of per-thread rates, GB = 10^9 bytes (median over reps)"},
    {"gbps_min", &Point::gbps_min, "GB/s", "lowest aggregate over reps (simulated: low end of the model band)"},
    {"gbps_max", &Point::gbps_max, "GB/s", "highest aggregate over reps (simulated: high end of the model band)"},
    {"gbps_pstdev_pct", &Point::gbps_pstdev_pct, "%",
     "population stdev of the aggregate over reps, % of the mean (simulated: empty, no reps)"},
    {"gbps_per_thread_median", &Point::gbps_per_thread_median, "GB/s", "median per-thread rate"},
    {"thread_fairness", &Point::thread_fairness, "",
     "slowest / fastest thread (median over reps), 1 = fair"},
    {"pus", &Point::pus, "", "observed PU per thread (OS index); empty for predictions (simulated) and imported figures"},
    {"pus_planned", &Point::pus_planned, "",
     "planned PU per thread (OS index); -1: placement none in a measured run, the OS placed it; a simulated `none` "
     "point holds the placement the model assumes the OS makes (packages, LLC domains and cores before SMT siblings)"},
    {"flags", &Point::flags, "", "warnings with advice, e.g. unstable: 7.3% pstdev over 5 reps"},
    {"gbps_reps", &Point::gbps_reps, "GB/s", "JSON only: the aggregate of each repetition",
     kJsonOnly},
    {"per_thread", &Point::per_thread, "",
     "JSON only: per thread: planned and observed PU, memory node, GB/s, bytes, passes, kernel, "
     "operations",
     kJsonOnly},
    // ---- scenario fields: empty (-1, NaN) where they do not apply ----
    {"role", &Point::role, "", "victim | mix | empty", kOptional},
    {"peer_kernel", &Point::peer_kernel, "",
     "victim: the aggressors' kernel; mix: the other kernels, '+'-joined", kOptional},
    {"peer_threads", &Point::peer_threads, "",
     "victim: aggressors (k); mix: threads of the other kernels; tlbflush: readers (k)", kOptional},
    {"peer_gbps_median", &Point::peer_gbps_median, "GB/s",
     "victim: the aggressors' aggregate; mix: the other kernels' aggregate", kOptional},
    {"baseline_gbps", &Point::baseline_gbps, "GB/s",
     "victim: the victim kernel alone (k = 0), same run, size and fill", kOptional},
    {"slowdown_pct", &Point::slowdown_pct, "%",
     "victim: (1 - gbps_median / baseline_gbps) x 100, > 0 = slower", kOptional},
    {"huge_pct", &Point::huge_pct, "%",
     "share of the buffers' bytes backed by huge pages (/proc/self/smaps)", kOptional},
    {"pages_touched_median", &Point::pages_touched_median, "pages",
     "pagefault: pages touched per repetition, all threads", kOptional},
    {"faults_median", &Point::faults_median, "faults",
     "pagefault: page faults counted (getrusage minflt) per repetition, all threads", kOptional},
    {"faults_per_s", &Point::faults_per_s, "1/s", "pagefault: faults per second, sum over threads",
     kOptional},
    {"entries", &Point::entries, "pages", "tlbflush: E, 4 KiB pages per munmap call", kOptional},
    {"munmap_ns_median", &Point::munmap_ns_median, "ns",
     "tlbflush: time per munmap call (median over reps)", kOptional},
    {"munmap_ns_pstdev_pct", &Point::munmap_ns_pstdev_pct, "%",
     "tlbflush: population stdev of munmap_ns over reps, % of the mean", kOptional},
    {"munmap_calls_median", &Point::munmap_calls_median, "calls",
     "tlbflush: munmap calls per repetition", kOptional},
    {"reader_ns_median", &Point::reader_ns_median, "ns",
     "tlbflush: time per read of the readers while munmap runs", kOptional},
    {"reader_ns_pstdev_pct", &Point::reader_ns_pstdev_pct, "%",
     "tlbflush: population stdev of reader_ns over reps, % of the mean", kOptional},
    {"reader_alone_ns", &Point::reader_alone_ns, "ns",
     "tlbflush: the same readers with the unmapper idle (same run)", kOptional},
    // Imported points (bwlab import): where the figure came from and how its unit was converted.
    {"origin_tool", &Point::origin_tool, "", "imported: the command or tool as stated in the source", kOptional},
    {"origin_format", &Point::origin_format, "", "imported: perf-bench, lkml-table, likwid-bench, pmbw or gbench",
     kOptional},
    {"origin_file", &Point::origin_file, "", "imported: the file it was read from", kOptional},
    {"origin_line", &Point::origin_line, "", "imported: the line of the figure in that file", kOptional},
    {"origin_function", &Point::origin_function, "", "imported: the tool's own name for what ran (x86-64-stosb, ...)",
     kOptional},
    {"origin_unit", &Point::origin_unit, "", "imported: the unit as printed (GB/sec, MByte/s, bytes/s, ...)",
     kOptional},
    {"origin_to_gbps", &Point::origin_to_gbps, "", "imported: factor from the printed unit to GB/s (1e9 bytes/s)",
     kOptional},
    {"origin_spread_unit", &Point::origin_spread_unit, "",
     "imported: percent, as-reported (unit not stated) or empty (no spread given)", kOptional},
    {"origin_spread", &Point::origin_spread, "", "imported: the spread as printed (see origin_spread_unit)",
     kOptional},
    {"origin_microcode", &Point::origin_microcode, "", "imported: microcode stated above a table", kOptional},
    {"origin_turbo", &Point::origin_turbo, "", "imported: turbo on, off or unknown (not stated)", kOptional},
    {"origin_note", &Point::origin_note, "", "imported: the --note given to bwlab import", kOptional},
    // What disturbed the windows of a measured point (the worst window; see --reject-noisy).
    {"steal_pct_max", &Point::steal_pct_max, "%",
     "highest steal time of the PUs used in one window, % of their ticks (/proc/stat; 10 ms ticks)", kOptional},
    {"invol_ctx_switches", &Point::invol_ctx_switches, "switches",
     "most involuntary context switches of the threads in one window (getrusage RUSAGE_THREAD)", kOptional},
    {"cpu_mhz_median", &Point::cpu_mhz_median, "MHz",
     "core clock of the PUs used (cpufreq, else APERF/MPERF), median over windows; empty where the host hides it", kOptional},
    {"noisy_windows", &Point::noisy_windows, "windows",
     "windows kept that were disturbed beyond --noisy-steal-pct or --noisy-lost-pct", kOptional},
    // DRAM traffic (core/counters): memory-controller counters around each window, where the host has them.
    {"dram_read_per_byte", &Point::dram_read_per_byte, "",
     "measured: DRAM bytes read per byte cleared by all threads of the windows (memory-controller "
     "counters; empty where the host has none)",
     kOptional},
    {"dram_write_per_byte", &Point::dram_write_per_byte, "",
     "measured: DRAM bytes written per byte cleared, likewise", kOptional},
};

constexpr std::string_view kTypeNames[] = {"text",    "integer", "integer", "number",
                                           "integers", "texts",  "numbers", "objects"};
static_assert(std::size(kTypeNames) == std::variant_size_v<PointMember>);

std::string escape_cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::span<const PointField> point_fields() { return kFields; }

const PointField* find_point_field(std::string_view name) {
  for (const PointField& f : kFields)
    if (f.name == name) return &f;
  return nullptr;
}

std::string_view field_type_name(const PointField& f) { return kTypeNames[f.member.index()]; }

std::string fields_markdown() {
  std::string out = "| column | type | unit | description |\n|---|---|---|---|\n";
  for (const PointField& f : kFields)
    out += fmt::format("| `{}` | {} | {} | {} |\n", f.name, field_type_name(f), escape_cell(f.unit),
                       escape_cell(f.description));
  return out;
}

void canonical_fill(Point& p) {
  if (p.fill.empty() || p.fill == "unknown") return;
  try {
    p.fill = parse_fill(p.fill).label();
  } catch (const InputError&) {
  }
}

std::string implausible_value(const Point& p) {
  if (p.threads < 1) return fmt::format("column threads: {} (at least 1 thread)", p.threads);
  if (p.reps < 0) return fmt::format("column reps: {} (0 or more repetitions; a simulated point has 0)", p.reps);
  for (const PointField& f : kFields) {
    const auto* m = std::get_if<double Point::*>(&f.member);
    // GB/s figures and spreads are never negative (slowdown_pct is: a victim may speed up).
    const bool spread = f.name.find("pstdev") != std::string_view::npos;
    if (!m || (f.name.find("gbps") == std::string_view::npos && !spread)) continue;
    const double v = p.**m;
    if (std::isinf(v) || v < 0)
      return fmt::format("column {}: {} is not a {} (0 or more; an empty cell when missing)", f.name, v,
                         spread ? "spread" : "GB/s figure");
  }
  // What a kernel wrote, as run's --fill takes it (0x1ff is no byte); a file that states none
  // says "unknown" (imported rows), and tlbflush rows write nothing.
  if (!p.fill.empty() && p.fill != "unknown" && p.source != "imported") {
    try {
      (void)parse_fill(p.fill);
    } catch (const InputError&) {
      return fmt::format("column fill: '{}' (zero, 0xNN or perf: the byte a kernel wrote)", p.fill);
    }
  }
  if (p.source != "measured" && p.source != "simulated" && p.source != "imported")
    return fmt::format("column source: '{}' (measured, simulated or imported: a figure must say where it came from)",
                       p.source);
  // The context columns hold what run and simulate write; empty or "unknown" where a source did not
  // state it (imported). A point of scenario "bogus" vanished from the verdict without a word.
  const auto digits = [](std::string_view s, bool commas) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
      return (c >= '0' && c <= '9') || (commas && (c == ',' || c == '-'));
    });
  };
  const auto stated = [](const std::string& s) { return !s.empty() && s != "unknown"; };
  if (!p.scenario.empty() && p.scenario != "scaling" && p.scenario != "victim" && p.scenario != "mix" &&
      p.scenario != "pagefault" && p.scenario != "tlbflush")
    return fmt::format("column scenario: '{}' (scaling, victim, mix, pagefault or tlbflush)", p.scenario);
  if (stated(p.placement) && p.placement != "compact" && p.placement != "scatter" && p.placement != "none" &&
      !(p.placement.starts_with("list:") && digits(std::string_view(p.placement).substr(5), true)) &&
      !digits(p.placement, true))  // a PU list as --placement takes it (the public files' "0,1")
    return fmt::format("column placement: '{}' (compact, scatter, none or a PU list list:0,2,...)", p.placement);
  if (stated(p.membind) && p.membind != "local" && p.membind != "remote" && p.membind != "interleave" &&
      !(p.membind.starts_with("node:") && digits(std::string_view(p.membind).substr(5), false)))
    return fmt::format("column membind: '{}' (local, remote, interleave or node:N)", p.membind);
  if (stated(p.pages) && p.pages != "4k" && p.pages != "thp" && p.pages != "hugetlb2m" && p.pages != "hugetlb1g")
    return fmt::format("column pages: '{}' (4k, thp, hugetlb2m or hugetlb1g)", p.pages);
  if (p.source != "imported" && p.size_bytes == 0)
    return "column size_bytes: 0 (a buffer of at least one byte per thread)";
  // What bwlab itself writes (run and simulate refuse --sizes below one page): a 100-byte point
  // measures call overhead, and a hand-edited one was read as a clearing rate.
  if (p.source != "imported" && p.size_bytes < 4096)
    return fmt::format("column size_bytes: {} (bwlab measures and simulates buffers of 4096 bytes or more per thread)",
                       p.size_bytes);
  if (p.duration_ms < 0 || std::isinf(p.duration_ms))
    return fmt::format("column duration_ms: {} (a window of 0 ms or more; an empty cell when missing)", p.duration_ms);
  if (p.source == "measured" && p.reps < 1)
    return fmt::format("column reps: {} (a measured point has at least 1 repetition)", p.reps);
  // Every point but tlbflush's (ns per munmap call, no GB/s by design) has a median rate: one
  // missing or zero was read as "no figure" by verdict, refused by compare and plot, drawn by the GUI.
  if (p.scenario != "tlbflush" && !(p.gbps_median > 0))
    return fmt::format("column gbps_median: {} (a rate above 0 GB/s; only tlbflush points have none)", p.gbps_median);
  // A measured point's spread over its repetitions (0 for one repetition): verdict and compare
  // judge noise by it, and a missing one passed as "steady".
  if (p.source == "measured" && p.scenario != "tlbflush") {
    if (!std::isfinite(p.gbps_pstdev_pct))
      return fmt::format("column gbps_pstdev_pct: {} (a measured point's spread over its repetitions, 0 for one)",
                         p.gbps_pstdev_pct);
    for (const auto& [name, v] : {std::pair{"gbps_min", p.gbps_min}, std::pair{"gbps_max", p.gbps_max}})
      if (!(v > 0)) return fmt::format("column {}: {} (a measured point's range over its repetitions, above 0)", name, v);
  }
  // A JSON point's windows are its figures' source: export writes them as the repetitions, compare
  // reads the summary. A hand-edited list (gbps_reps [1,2,3] beside a median of 142) made the two
  // disagree about one file.
  if (p.source == "measured" && !p.gbps_reps.empty()) {
    if (static_cast<int>(p.gbps_reps.size()) != p.reps)
      return fmt::format("column gbps_reps: {} windows for reps {} (one GB/s per repetition)", p.gbps_reps.size(), p.reps);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double g : p.gbps_reps)
      if (std::isfinite(g)) lo = std::min(lo, g), hi = std::max(hi, g);  // a window without a figure is null
    const auto off = [](double a, double b) { return !(std::abs(a - b) <= 1e-4 + 1e-9 * std::abs(b)); };
    if (std::isfinite(lo) && (off(lo, p.gbps_min) || off(hi, p.gbps_max)))
      return fmt::format("column gbps_reps: {}..{} GB/s, but gbps_min..gbps_max is {}..{} (the range is over these "
                         "repetitions)", lo, hi, p.gbps_min, p.gbps_max);
  }
  // The class follows the kernel (verdict sides by it): a kernel bwlab knows writes its own class,
  // the OS scenarios write "os"; an empty cell is not stated. Unknown kernels are named by the
  // loader (refuse_unknown_kernels).
  const bool os = p.scenario == "pagefault" || p.scenario == "tlbflush";
  if (p.source == "measured" || p.source == "simulated") {
    const KernelInfo* k = os ? nullptr : find_kernel(p.kernel);
    const std::string_view want = os ? std::string_view("os") : k ? to_string(k->traffic) : std::string_view();
    if (!want.empty() && stated(p.traffic_class) && p.traffic_class != want)
      return fmt::format("column traffic_class: '{}' ({} {}: {})", p.traffic_class, os ? "scenario" : "kernel",
                         os ? p.scenario : p.kernel, want);
  } else if (os) {  // imported (bwlab's own pagefault point through Google Benchmark's JSON): the OS's class
    if (stated(p.traffic_class) && p.traffic_class != "os")
      return fmt::format("column traffic_class: '{}' (scenario {}: os)", p.traffic_class, p.scenario);
  } else if (stated(p.traffic_class) && p.traffic_class != "write-allocate" && p.traffic_class != "non-temporal" &&
             p.traffic_class != "zeroing-without-fetch") {
    return fmt::format("column traffic_class: '{}' (write-allocate, non-temporal or zeroing-without-fetch)",
                       p.traffic_class);
  }
  // The spread must hold the median (a hand-edited gbps_min above it drew a band that missed its own
  // curve). Rounded figures are written to 4 decimals, so allow that much.
  const auto above = [](double a, double b) { return std::isfinite(a) && std::isfinite(b) && a > b + 1e-4 + 1e-9 * b; };
  if (above(p.gbps_min, p.gbps_median))
    return fmt::format("column gbps_min: {} is above gbps_median {} (min <= median <= max)", p.gbps_min, p.gbps_median);
  if (above(p.gbps_median, p.gbps_max))
    return fmt::format("column gbps_max: {} is below gbps_median {} (min <= median <= max)", p.gbps_max, p.gbps_median);
  return {};
}

}  // namespace bwlab
