// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/machine.hpp"

namespace bwlab::model {

// What decides the write path of one microarchitecture, as data (docs/model.md, "Write path per
// microarchitecture", cites the source of every value or says "assumed" and why). The solver
// never branches on a microarchitecture: it reads these figures through MachineParams.
struct Uarch {
  std::string name;                  // "skylake-sp"
  std::vector<std::string> aliases;  // "cascadelake-sp", ...
  std::string description;
  std::vector<std::string> features;  // kernels' CPU features: sse2 avx2 avx512f erms clzero
  double ref_ghz = 0;                 // core clock the concurrency figures below refer to
  double typical_turbo_ghz = 0;       // assumed clock of a spec sheet that gives none (turbo on)
  double mlp_wa_lines = 10, mlp_nt_lines = 10;  // lines in flight per core at ref_ghz
  double dram_latency_ns = 90, llc_latency_ns = 25, remote_extra_ns = 50;
  double llc_gbps_per_core = 25;
  double llc_domain_cores = 0;  // cores sharing one L3 slice (AMD CCX/CCD); 0: one LLC per package
  double link_gbps = 40;  // inter-socket, per package pair and direction (typical part)
  int max_sockets = 8;    // 1 for parts with no inter-socket link (laptops)
  int max_smt = 2;        // hardware threads per core the family has (every row: 2; Xeon Phi had 4)
  // rep stos: extents of at least stos_no_rfo_min_bytes write whole lines without reading them
  // (fast-string protocol); stos_evasion of the RFOs are evaded at idle, falling by
  // stos_evasion_load_drop x utilisation of the memory node.
  std::uint64_t stos_no_rfo_min_bytes = 0;
  double stos_evasion = 0, stos_evasion_load_drop = 0;
  double stos_evasion_nonzero = 1;  // share of the evasion kept by a non-zero fill (0: zero fills only)
  double speci2m_max_fraction = 0;  // RFO -> I2M for ordinary stores at full utilisation (Ice Lake-SP+)
  double own_latency_ns = 0;        // one socket: idle latency of an evaded line's ownership (0: a memory latency)
  double vector_store_scale = 1;    // cacheable vector stores' concurrency relative to stosb
  double smt_gain = 0.1;            // write-allocate: 2 siblings get (1 + gain) x one core
  double smt_gain_nt = 0.1;         // NT: siblings share the write-combining buffers (may be < 0)
  bool zero_store_elimination = false;  // zero fills skip write-backs (not modelled: fills are zero)
  // Which figures were fitted to measurements, and to what (`machine show` says so per parameter);
  // the others are sourced or assumed (docs/model.md says which).
  std::vector<std::string> fitted;  // parameter names: "mlp_wa_lines", ...
  std::string fitted_to;            // "seed 000 (Platinum 8270CL, turbo off)"
};

// The table, in the order `bwlab machine uarchs` lists it.
const std::vector<Uarch>& uarch_table();
// By name or alias; nullptr when unknown.
const Uarch* find_uarch(std::string_view name);
// The row for a CPU by its CPUID vendor, display family and display model (Intel family 6:
// Broadwell-X/DE, Skylake/Cascade Lake-SP, Ice Lake-SP, Sapphire/Emerald Rapids, Tiger Lake;
// AMD family 23/25/26: Rome, Milan, Genoa/Bergamo, Turin); nullptr for anything else.
const Uarch* uarch_for_cpu(std::string_view vendor, int family, int model);
// "broadwell, skylake-sp (cascadelake-sp, skylake-x), ..." for error messages.
std::string uarch_names();

// Copies a microarchitecture's figures into m and records their origin: "microarchitecture default
// (NAME[, via]); fitted to WHAT" for the row's fitted figures, "...; sourced or assumed (docs/model.md)"
// for the others. `via` says how the row was chosen ("from CPUID family 26 model 2").
void apply_uarch(MachineParams& m, const Uarch& u, const std::string& via = {});

// SpecSheet (a server or laptop as its spec sheet gives it) is in core/model/machine.hpp: a
// machine file keeps the sheet it was built from.

// A machine from a spec sheet: topology "package:S numa:1 core:C pu:T", DRAM peak = channels x
// MT/s x 8 B per socket, the microarchitecture's write path and concurrency at the given clock
// (turbo when given: published runs run with turbo on; else the base clock; else the family's
// typical turbo clock). Throws InputError naming the bad field. The result keeps `s` in spec_sheet.
MachineParams machine_from_spec(const SpecSheet& s);
// The microarchitecture a machine_from_spec name gives ("cascadelake-sp" of
// "cascadelake-sp-1s-18c-6x2666-llc24.75m-3.7ghz"), as the sheet named it, when it is a row of the
// table; "" for any other name (a preset's, a calibration's).
std::string sheet_uarch_of_name(std::string_view machine_name);

// The sheet's DRAM peak per socket, GB/s: channels x MT/s x 8 B (what machine_from_spec sets and
// calibrate holds a fitted peak against).
double spec_dram_peak_gbps(const SpecSheet& s);

// The spec sheet a machine was built from (machine_from_spec, or a machine file that
// `bwlab machine spec` or the GUI's what-if panel wrote). Throws InputError naming `origin` for a
// machine that holds none (a preset, a calibration).
SpecSheet spec_sheet_of(const MachineParams& m, const std::string& origin);

}  // namespace bwlab::model
