// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernels/cpu_features.hpp"

namespace bwlab {

namespace model {
// A server or laptop as its spec sheet gives it (model::machine_from_spec, core/model/uarch.hpp).
struct SpecSheet {
  std::string uarch;
  int sockets = 1, cores = 1, smt = 1, channels = 1;  // cores and channels per socket
  double mts = 0;                   // DDR transfer rate, MT/s
  std::uint64_t llc_bytes = 0;      // per socket
  double base_ghz = 0, turbo_ghz = 0;  // 0: not given
  bool operator==(const SpecSheet&) const = default;
};
}  // namespace model

// The analytical contention model's parameters for one machine (docs/model.md explains each
// one, its equation and where the figure comes from). Units are in the names.
struct MachineParams {
  std::string name;          // preset name or "local"
  std::string description;   // one line: system, CPU, where the figures come from
  std::string cpu;           // CPU model string, e.g. "Intel Xeon Platinum 8270CL" (matches seed rows)
  std::string topology;      // synthetic hwloc string, or "local"
  std::vector<std::string> features;  // CPU features the kernels need: sse2, avx2, avx512f, clzero, erms
  std::string provenance;    // how the parameters were obtained (fit, date, error)
  std::string uarch;         // microarchitecture of the write-path table (core/model/uarch.hpp), or empty
  // Where each parameter comes from, by param_ref name: "spec sheet", "microarchitecture
  // default (NAME)", "fitted to seeds", "calibrated here". Absent: "model default".
  std::map<std::string, std::string, std::less<>> origins;
  // The spec sheet the machine was built from (`bwlab machine spec`, the GUI's what-if panel):
  // the "spec_sheet" object of its machine file. Absent for presets and calibrations.
  std::optional<model::SpecSheet> spec_sheet;

  // Single-thread concurrency (Little's law): lines in flight per core for each traffic class,
  // at the idle latencies below. Write-allocate = read-for-ownership of every line cleared;
  // non-temporal = write-combining buffers draining to the memory controller.
  double mlp_wa_lines = 10;
  double mlp_nt_lines = 10;
  // Per-kernel multiplier on its class concurrency (kernels absent here use 1), e.g. movntdq
  // vs movnti on Tiger Lake. The reference kernels are stosb (write-allocate) and movnti (NT).
  std::map<std::string, double, std::less<>> kernel_scale;

  double dram_latency_ns = 90;    // idle local DRAM latency
  double llc_latency_ns = 25;     // idle LLC hit latency (sets the in-cache clearing rate)
  double remote_extra_ns = 50;    // extra idle latency of memory on another package
  double queue_k = 0.2;           // loaded latency = idle x (1 + k u / (1 - u)), u = utilisation

  double dram_peak_gbps_per_node = 100;  // channels x MT/s x 8 bytes (the physical limit)
  double dram_efficiency = 0.85;         // achievable fraction of the peak with one-way traffic
  double rw_mix_penalty = 0.15;          // capacity lost at a 50/50 read/write mix (bus turnarounds)
  double link_gbps = 40;                 // inter-socket link bandwidth, per direction, per package pair

  std::uint64_t llc_bytes_per_package = 32ull << 20;
  double llc_usable_fraction = 0.9;      // of the LLC a clearing loop can keep resident
  // Cores that share one slice of the package's LLC (AMD: a CCX or CCD has its own L3); a
  // package of C cores has floor(C / llc_domain_cores) domains, each with that share of
  // llc_bytes_per_package. 0: the whole LLC is one domain (Intel's mesh and ring).
  double llc_domain_cores = 0;
  double llc_gbps_per_core = 30;         // aggregate LLC bandwidth limit = this x cores of the package

  double smt_gain = 0.1;     // two busy siblings together get (1 + smt_gain) x one core's concurrency
  double smt_gain_nt = 0.1;  // the same for NT stores (siblings share the write-combining buffers; may be < 0)

  // Core clock. Concurrency-limited rates scale with core_ghz / ref_ghz (ref_ghz: the clock the
  // mlp_* figures were fitted or tabled at). 0 in either: no scaling.
  double core_ghz = 0;
  double ref_ghz = 0;

  // Relative uncertainty of a prediction: simulated points carry [x / (1 + band), x (1 + band)]
  // in gbps_min / gbps_max. Wide for spec-only machines, narrower after fitting.
  double band = 0.25;

  // Write-allocate evasion. rep stos extents of at least this many bytes write without
  // reading (0: never): stos_evasion of their RFOs at idle, minus stos_evasion_load_drop x the
  // memory node's utilisation. Ice Lake's SpecI2M turns this fraction of RFOs into I2M at full
  // DRAM utilisation (linear in utilisation).
  std::uint64_t stos_no_rfo_min_bytes = 0;
  double stos_evasion = 1;
  double stos_evasion_load_drop = 0;
  // Share of that evasion a rep stos keeps when it writes a non-zero byte (1: the fill does not
  // matter, as on Intel; 0: only zero fills write without reading, as on Zen 3 and Zen 4).
  double stos_evasion_nonzero = 1;
  double speci2m_max_fraction = 0;
  // Idle latency of a line written without its data (an evaded RFO) on a one-package machine,
  // where the LLC's snoop filter can grant ownership; 0: no such path, the line waits a memory
  // latency as on several packages (docs/model.md, "Ownership without data").
  double own_latency_ns = 0;

  // Single-pass protocol only (perf bench mem memset -l 1, used to check the seeds): the
  // DRAM path runs at warmup_ratio of its rate for the first warmup_us of a pass (hypothesis:
  // uncore frequency ramp). Steady-state windows (bwlab run) are not affected.
  double warmup_us = 0;
  double warmup_ratio = 1;

  // The CPU features as CpuFeatures, for kernel availability checks.
  CpuFeatures cpu_features() const;
  // Empty when the machine runs `kernel` (or no kernel has that name), else why not: "kernel
  // avx512-nt is not available on machine M: needs avx512f, which that machine lacks". The one
  // wording of simulate's refusal and of the rows validate and calibrate leave out.
  std::string kernel_unavailable(std::string_view kernel) const;
  // Multiplier for a kernel (1 when not listed).
  double scale_for(std::string_view kernel) const;
  // Concurrency multiplier of the core clock (core_ghz / ref_ghz, 1 when either is unset).
  double clock_scale() const;
  // Where a parameter comes from (origins, else "model default").
  std::string origin_of(std::string_view param) const;
};

// Built-in presets (seed machines), by name.
const std::vector<MachineParams>& preset_table();

// JSON machine files ("bwlab_machine": 1). read_machine_json throws InputError naming the problem.
void write_machine_json(std::ostream& out, const MachineParams& m);
MachineParams read_machine_json(std::istream& in, const std::string& origin);
// Writes the machine file at `path` atomically (a reader never sees half a file), as
// `bwlab machine spec --out` does. Throws InputError for a .csv name (check_output_format) or a
// path that cannot be written (check_writable).
void save_machine_file(const std::string& path, const MachineParams& m);
// Throws InputError when `path` is a non-empty file that is not a bwlab machine file (a measured
// run, a CSV of points): `machine spec --out r.json` replaced a measured run without a word. An
// earlier machine file is replaced, as regenerating one from a sheet should. save_machine_file
// checks it; calibrate checks it before measuring.
void check_machine_output(const std::string& path, const std::string& option);

// Names of the numeric parameters that fits may vary (see param_ref), e.g. "mlp_wa_lines",
// and "scale:<kernel>" for kernel_scale entries.
double* param_ref(MachineParams& m, std::string_view name);  // nullptr if unknown

// Every parameter as (name, value text, origin, unit), in the order `bwlab machine show` prints
// them. Units: ns, GB/s, GHz, us, bytes, lines/core (cache lines in flight per core), cores,
// fraction (0..1), share (+-) (a change as a fraction, negative for a loss), ratio, coefficient, x/(1+band) (the band: a prediction's low..high is
// x / (1 + band) .. x (1 + band)), x its class (a kernel's multiplier on its class's concurrency).
struct ParamLine {
  std::string name, value, origin, unit;
};
std::vector<ParamLine> describe_params(const MachineParams& m);

}  // namespace bwlab
