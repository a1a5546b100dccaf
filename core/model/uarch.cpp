// SPDX-License-Identifier: MIT
// The write-path table (docs/model.md, "Write path per microarchitecture", gives the source
// of every figure or the reasoning behind an assumption) and machines from spec sheets.
#include "core/model/uarch.hpp"
#include "core/sweep/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/report/plural.hpp"

namespace bwlab::model {
namespace {

const std::vector<std::string> kIntelServer{"sse2", "avx2", "avx512f", "erms"};
const std::vector<std::string> kIntelAvx2{"sse2", "avx2", "erms"};
const std::vector<std::string> kZen2{"sse2", "avx2", "erms", "clzero"};
const std::vector<std::string> kZen4{"sse2", "avx2", "avx512f", "erms", "clzero"};

constexpr std::uint64_t kFastStringMin = 4096;  // assumed: one page (docs/model.md)

std::vector<Uarch> make_table() {
  std::vector<Uarch> v;
  auto intel_stos = [](Uarch& u) {
    u.stos_no_rfo_min_bytes = kFastStringMin;  // Intel SDM vol. 3, 8.2.4 (fast-string line invalidations)
    u.stos_evasion = 0.95;                     // assumed: ~5% of lines (extent edges, interrupts) still read
    // One socket: the snoop filter in the LLC slices (CHA) grants ownership at LLC latency
    // (McCalpin 2023, memory directories; docs/model.md, "Ownership without data").
    u.own_latency_ns = u.llc_latency_ns;
  };
  {
    Uarch u;
    u.name = "broadwell";
    u.typical_turbo_ghz = 3.3;  // assumed: typical single-core turbo of the family (docs/model.md)
    u.aliases = {"broadwell-ep", "broadwell-x"};
    u.description = "Intel Xeon E5 v4 (Broadwell-EP): ring LLC, QPI";
    u.features = kIntelAvx2;
    u.ref_ghz = 2.2;  // seed 002 (E5-2630 v4, turbo off)
    u.mlp_wa_lines = 7.846, u.mlp_nt_lines = 17.72, u.llc_latency_ns = 26.41;  // fitted to seed 002
    u.fitted = {"mlp_wa_lines", "mlp_nt_lines", "llc_latency_ns"}, u.fitted_to = "seed 002 (E5-2630 v4, turbo off)";
    u.dram_latency_ns = 85, u.remote_extra_ns = 45, u.llc_gbps_per_core = 20;
    u.link_gbps = 2 * 16.0;  // 2 QPI x 8.0 GT/s x 2 B
    intel_stos(u);
    u.smt_gain = 0.1, u.smt_gain_nt = -0.05;
    v.push_back(u);
  }
  {
    Uarch u;
    u.name = "skylake-sp";
    u.typical_turbo_ghz = 3.7;  // assumed: typical single-core turbo of the family (docs/model.md)
    u.aliases = {"cascadelake-sp", "skylake-x", "cascadelake"};
    u.description = "Intel Xeon Scalable 1st/2nd gen (Skylake-SP, Cascade Lake): mesh, non-inclusive LLC, UPI";
    u.features = kIntelServer;
    u.ref_ghz = 2.7;  // seed 000 (Platinum 8270CL, turbo off)
    u.mlp_wa_lines = 9.915, u.mlp_nt_lines = 9.622, u.llc_latency_ns = 28.80;  // fitted to seed 000
    u.fitted = {"mlp_wa_lines", "mlp_nt_lines", "llc_latency_ns"}, u.fitted_to = "seed 000 (Platinum 8270CL, turbo off)";
    u.dram_latency_ns = 90, u.remote_extra_ns = 50, u.llc_gbps_per_core = 25;
    u.link_gbps = 62.4;  // 3 UPI x 10.4 GT/s x 2 B (written out: 3 * 20.8 is 62.400000000000006 in a machine file)
    intel_stos(u);
    u.smt_gain = 0.1, u.smt_gain_nt = -0.05;
    v.push_back(u);
  }
  {
    Uarch u;
    u.name = "icelake-sp";
    u.typical_turbo_ghz = 3.4;  // assumed: typical single-core turbo of the family (docs/model.md)
    u.aliases = {"icelake-x", "icelake-server"};
    u.description = "Intel Xeon Scalable 3rd gen (Ice Lake-SP): mesh, SpecI2M";
    u.features = kIntelServer;
    u.ref_ghz = 2.6;  // seed 001 (Platinum 8358, turbo off)
    u.mlp_wa_lines = 18.77, u.mlp_nt_lines = 37.44, u.llc_latency_ns = 71.42;  // fitted to seed 001
    u.fitted = {"mlp_wa_lines", "mlp_nt_lines", "llc_latency_ns"}, u.fitted_to = "seed 001 (Platinum 8358, turbo off)";
    u.dram_latency_ns = 90, u.remote_extra_ns = 50, u.llc_gbps_per_core = 25;
    u.link_gbps = 67.2;  // 3 UPI x 11.2 GT/s x 2 B
    intel_stos(u);
    u.speci2m_max_fraction = 0.5;  // assumed share (HotChips 2020: RFO -> SpecI2M under heavy load)
    u.smt_gain = 0.1, u.smt_gain_nt = -0.05;
    u.zero_store_elimination = true;  // Downs 2020 (Ice Lake client); server assumed the same core
    v.push_back(u);
  }
  {
    Uarch u;
    u.name = "sapphirerapids";
    u.typical_turbo_ghz = 3.5;  // assumed: typical single-core turbo of the family (docs/model.md)
    u.aliases = {"sapphirerapids-sp", "emeraldrapids", "emeraldrapids-sp"};
    u.description = "Intel Xeon Scalable 4th/5th gen (Sapphire/Emerald Rapids): DDR5, SpecI2M";
    u.features = kIntelServer;
    u.ref_ghz = 2.6;                                   // assumed: Ice Lake-SP figures carried over
    u.mlp_wa_lines = 18.77, u.mlp_nt_lines = 37.44, u.llc_latency_ns = 71.42;
    u.dram_latency_ns = 110, u.remote_extra_ns = 60;   // assumed: DDR5 idle latency above DDR4
    u.llc_gbps_per_core = 25;
    u.link_gbps = 4 * 32.0;  // 4 UPI 2.0 x 16 GT/s x 2 B
    intel_stos(u);
    u.speci2m_max_fraction = 0.5;  // assumed as Ice Lake-SP
    u.smt_gain = 0.1, u.smt_gain_nt = -0.05;
    u.zero_store_elimination = true;  // assumed (Golden Cove descends from Sunny Cove)
    v.push_back(u);
  }
  {
    Uarch u;
    u.name = "tigerlake";
    u.typical_turbo_ghz = 4.7;  // assumed: typical single-core turbo of the family (docs/model.md)
    u.aliases = {"tigerlake-u", "willowcove"};
    u.description = "Intel Core 11th gen mobile (Tiger Lake): ring LLC, one package";
    u.features = kIntelServer;
    u.ref_ghz = 2.8;  // seed 001 laptop (i7-1165G7, base clock)
    u.mlp_wa_lines = 34, u.mlp_nt_lines = 68.69, u.llc_latency_ns = 15;  // NT fitted; WA and LLC assumed
    u.fitted = {"mlp_nt_lines"}, u.fitted_to = "seed 001 laptop (i7-1165G7, base clock)";
    u.dram_latency_ns = 100, u.remote_extra_ns = 0, u.llc_gbps_per_core = 40;
    u.link_gbps = 1;  // one package: unused
    u.max_sockets = 1;
    intel_stos(u);
    u.smt_gain = 0.1, u.smt_gain_nt = 0.1;
    u.zero_store_elimination = true;  // Downs 2020 (Ice Lake client core, Willow Cove assumed the same)
    v.push_back(u);
  }
  auto amd = [](Uarch& u) {
    u.stos_no_rfo_min_bytes = 0;  // assumed: no documented no-RFO string protocol; stos is cacheable
    u.stos_evasion = 0;
    u.llc_gbps_per_core = 32;
    u.remote_extra_ns = 60;
    u.smt_gain = 0.1, u.smt_gain_nt = 0.1;
  };
  {
    Uarch u;
    u.name = "zen2";
    u.typical_turbo_ghz = 3.35;  // assumed: typical single-core turbo of the family (docs/model.md)
    u.aliases = {"rome", "epyc-rome"};
    u.description = "AMD EPYC 7002 (Zen 2, Rome): CCX L3, I/O die";
    u.features = kZen2;
    u.ref_ghz = 2.25;
    u.mlp_wa_lines = 12, u.mlp_nt_lines = 16, u.llc_latency_ns = 15;  // assumed
    u.llc_domain_cores = 4;   // a CCX: 4 cores share 16 MB of L3 (AMD EPYC 7002 tuning guide)
    u.dram_latency_ns = 110;  // assumed: I/O-die hop
    u.link_gbps = 64;         // assumed
    amd(u);
    v.push_back(u);
  }
  {
    Uarch u;
    u.name = "zen3";
    u.typical_turbo_ghz = 3.5;  // assumed: typical single-core turbo of the family (docs/model.md)
    u.aliases = {"milan", "epyc-milan"};
    u.description = "AMD EPYC 7003 (Zen 3, Milan): 8-core CCX L3";
    u.features = kZen2;
    u.ref_ghz = 2.45;
    u.mlp_wa_lines = 14, u.mlp_nt_lines = 18, u.llc_latency_ns = 15;  // assumed
    u.llc_domain_cores = 8;   // a CCD: 8 cores share 32 MB of L3 (AMD EPYC 7003 tuning guide)
    u.dram_latency_ns = 105, u.link_gbps = 64;
    amd(u);
    // rep stos of a large extent writes without reading, as on Zen 4: goldsteinn/memset-benchmarks'
    // EPYC 7713 sheet (results/ZEN3.html; tests/data/public/goldsteinn_ZEN3.csv) has one thread of
    // stosb at 2.9x avx2-store and 0.94x NT at 256 MiB, no gap at 32 MiB, 2x at 64 MiB. The
    // threshold (16 MiB), evasion and ownership latency are Zen 4's, assumed; that sheet is then
    // in-sample for these three figures (docs/model.md, "Relative figures").
    u.stos_no_rfo_min_bytes = 16ull << 20;
    u.stos_evasion = 0.95;
    u.own_latency_ns = 24;
    // Only for zero fills: with a byte of 1 the same sheet has stosb 0.46-0.56x NT at 1-4 threads
    // (0.94-1.1x with zeros); the Intel sheets show no such difference (docs/model.md).
    u.stos_evasion_nonzero = 0;
    v.push_back(u);
  }
  {
    Uarch u;
    u.name = "zen4";
    u.typical_turbo_ghz = 3.7;  // assumed: typical single-core turbo of the family (docs/model.md)
    u.aliases = {"genoa", "epyc-genoa"};
    u.description = "AMD EPYC 9004 (Zen 4, Genoa): DDR5, AVX-512";
    u.features = kZen4;
    // One thread on a 2-vCPU KVM guest of an EPYC 9004 host (family 25 model 17), measured with
    // bwlab on 2026-12-01 (docs/model.md, "Zen 4 measured here"): 3 rounds x 5 windows, 256 MiB
    // and 1 GiB, medians: avx2-store 18.9 / 24.7 GB/s, avx2/avx512-nt 62-68, stosb 58.1 / 58.8.
    // The guest shows no clock: the family's typical boost (3.7 GHz) is assumed as ref_ghz.
    u.ref_ghz = 3.7;
    u.dram_latency_ns = 115, u.link_gbps = 96;  // assumed
    // Fitted here at the assumed 115 ns; llc_latency_ns from 16 MiB buffers (LLC-resident: stosb
    // 66.8, avx2-store 68.2 GB/s).
    u.mlp_wa_lines = 38.8, u.mlp_nt_lines = 116, u.llc_latency_ns = 37;
    u.fitted = {"mlp_wa_lines", "mlp_nt_lines", "llc_latency_ns", "own_latency_ns"};
    u.fitted_to = "this project's Zen 4 guest (tests/data/measured/zen4-guest-2026-12-01.csv)";
    u.llc_domain_cores = 8;  // a CCD: 8 cores share 32 MB of L3 (AMD EPYC 9004 tuning guide)
    amd(u);
    // rep stos of a large extent writes without reading (stosb 2.4-3.1x avx2-store, 0.89-0.94x
    // NT, measured here); 4 MiB calls did not (docs/fidelity.md), 64 MiB buffers did: 16 MiB,
    // the geometric middle of that bracket, is assumed. Evasion 0.95 assumed as on Intel.
    u.stos_no_rfo_min_bytes = 16ull << 20;
    u.stos_evasion = 0.95;
    u.own_latency_ns = 24;  // fitted here: stosb 1 GiB at one thread on a 12 x DDR5-4800 sheet (58.8 GB/s)
    // Only for zero fills: goldsteinn's EPYC 9554P sheet (results/ZEN4.html), a byte of 1 makes
    // one thread of stosb 0.33x NT and 0.68x the cacheable store (zeros: 0.88x, 1.8x). Assumed: none.
    u.stos_evasion_nonzero = 0;
    v.push_back(u);
  }
  {
    Uarch u;
    u.name = "zen5";
    u.typical_turbo_ghz = 4.1;  // assumed: typical single-core turbo of the family (docs/model.md)
    u.aliases = {"turin", "epyc-turin"};
    u.description = "AMD EPYC 9005 (Zen 5, Turin): DDR5, AVX-512 (full-width)";
    u.features = kZen4;
    // One thread on a 2-vCPU guest of an EPYC 9005 host ("Oxide Virtual Turin-like Processor",
    // family 26 model 2), measured with bwlab on 2026-12-03 (docs/model.md, "Zen 5 measured here"):
    // 3 runs x 5 windows, THP buffers, best of the runs' medians (STREAM's convention: the host
    // halved every kernel's rate in some runs, the cacheable store's too). 256 MiB / 1 GiB:
    // avx2-store 36.8 / 36.6 GB/s, avx2/avx512-nt 64.5-67.9, stosb 67.8 / 65.3. The guest shows no
    // clock: the family's typical boost (4.1 GHz) is assumed as ref_ghz.
    u.ref_ghz = 4.1;
    u.dram_latency_ns = 115, u.link_gbps = 96;  // assumed as Zen 4
    // Fitted here (`bwlab calibrate --from`, 12 one-thread points, log-RMS 0.063) at the assumed
    // 115 ns and Zen 4's 37 ns LLC latency; the 16 MiB rows (LLC-resident) fit llc_gbps_per_core.
    u.mlp_wa_lines = 68.7, u.mlp_nt_lines = 124.5, u.llc_latency_ns = 37;
    u.fitted = {"mlp_wa_lines", "mlp_nt_lines", "own_latency_ns", "llc_gbps_per_core"};
    u.fitted_to = "this project's Zen 5 guest (tests/data/measured/zen5-guest-2026-12-03.csv)";
    u.llc_domain_cores = 8;  // a Zen 5 CCD: 8 cores share 32 MB of L3 (Turin Dense's Zen 5c CCD has 16)
    amd(u);
    u.llc_gbps_per_core = 53.4;  // fitted here (AMD rows: 32 assumed)
    // rep stos of a large extent writes without reading, as on Zen 3 and Zen 4: stosb at 64 MiB,
    // 256 MiB and 1 GiB runs at 1.6-1.8x avx2-store and 0.99-1.01x NT, measured here; threshold
    // and evasion assumed as Zen 4's. Ownership latency fitted here (53.7 ns).
    u.stos_no_rfo_min_bytes = 16ull << 20;
    u.stos_evasion = 0.95;
    u.own_latency_ns = 53.7;
    // Zero fills only: assumed as Zen 3 and Zen 4 (goldsteinn's bare-metal sheets). This guest
    // cannot tell: a byte of 1 halves NT as well (host property; docs/model.md, "Zen 5 measured here").
    u.stos_evasion_nonzero = 0;
    v.push_back(u);
  }
  return v;
}

void set(MachineParams& m, const char* name, double value, const std::string& origin) {
  *param_ref(m, name) = value;
  m.origins[name] = origin;
}

// The origin apply_uarch records for one of the row's figures.
std::string row_origin(const Uarch& u, const std::string& via, std::string_view param) {
  const bool fitted = std::find(u.fitted.begin(), u.fitted.end(), param) != u.fitted.end();
  return fmt::format("microarchitecture default ({}{}); {}", u.name, via.empty() ? "" : ", " + via,
                     fitted ? "fitted to " + u.fitted_to : std::string("sourced or assumed (docs/model.md)"));
}

// A microarchitecture name as the table spells them: lower case.
std::string lower_name(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower;
}

}  // namespace

const std::vector<Uarch>& uarch_table() {
  static const std::vector<Uarch> table = make_table();
  return table;
}

const Uarch* find_uarch(std::string_view name) {
  // Case does not matter: CascadeLake-SP is cascadelake-sp.
  const std::string lower = lower_name(name);
  for (const auto& u : uarch_table()) {
    if (u.name == lower) return &u;
    for (const auto& a : u.aliases)
      if (a == lower) return &u;
  }
  return nullptr;
}

const Uarch* uarch_for_cpu(std::string_view vendor, int family, int model) {
  const char* name = nullptr;
  if (vendor == "GenuineIntel" && family == 6) {
    switch (model) {
      case 0x4F: case 0x56: name = "broadwell"; break;       // Broadwell-X, Broadwell-DE
      case 0x55: name = "skylake-sp"; break;                 // Skylake-SP, Cascade Lake, Cooper Lake
      case 0x6A: case 0x6C: name = "icelake-sp"; break;      // Ice Lake-SP, -D
      case 0x8F: case 0xCF: name = "sapphirerapids"; break;  // Sapphire Rapids, Emerald Rapids
      case 0x8C: case 0x8D: name = "tigerlake"; break;       // Tiger Lake U, H
      default: break;
    }
  } else if (vendor == "AuthenticAMD") {
    if (family == 0x17 && model >= 0x30 && model <= 0x3F) name = "zen2";  // Rome
    if (family == 0x19 && model <= 0x0F) name = "zen3";                  // Milan
    if (family == 0x19 && ((model >= 0x10 && model <= 0x1F) || (model >= 0xA0 && model <= 0xAF)))
      name = "zen4";  // Genoa, Bergamo
    // Family 1Ah models 00h-1Fh: the EPYC 9005 parts (Turin, Turin Dense); Linux's
    // arch/x86/kernel/cpu/amd.c (bsp_init_amd) marks 00h-2Fh, 40h-4Fh and 60h-7Fh Zen 5, the
    // rest client parts, which this server row does not describe.
    if (family == 0x1A && model <= 0x1F) name = "zen5";
  }
  return name ? find_uarch(name) : nullptr;
}

std::string uarch_names() {
  std::string out;
  for (const auto& u : uarch_table()) {
    if (!out.empty()) out += ", ";
    out += u.name;
    if (!u.aliases.empty()) out += fmt::format(" ({})", fmt::join(u.aliases, ", "));
  }
  return out;
}

void apply_uarch(MachineParams& m, const Uarch& u, const std::string& via) {
  m.uarch = u.name;
  m.features = u.features;
  const std::pair<const char*, double> figures[] = {
      {"ref_ghz", u.ref_ghz},
      {"mlp_wa_lines", u.mlp_wa_lines},
      {"mlp_nt_lines", u.mlp_nt_lines},
      {"dram_latency_ns", u.dram_latency_ns},
      {"llc_latency_ns", u.llc_latency_ns},
      {"remote_extra_ns", u.remote_extra_ns},
      {"llc_gbps_per_core", u.llc_gbps_per_core},
      {"llc_domain_cores", u.llc_domain_cores},
      {"link_gbps", u.link_gbps},
      {"stos_evasion", u.stos_evasion},
      {"stos_evasion_load_drop", u.stos_evasion_load_drop},
      {"stos_evasion_nonzero", u.stos_evasion_nonzero},
      {"speci2m_max_fraction", u.speci2m_max_fraction},
      {"own_latency_ns", u.own_latency_ns},
      {"smt_gain", u.smt_gain},
      {"smt_gain_nt", u.smt_gain_nt},
  };
  for (const auto& [name, value] : figures) set(m, name, value, row_origin(u, via, name));
  m.stos_no_rfo_min_bytes = u.stos_no_rfo_min_bytes;
  m.origins["stos_no_rfo_min_bytes"] = row_origin(u, via, "stos_no_rfo_min_bytes");
  for (const char* k : {"avx2-store", "avx512-store"})
    if (u.vector_store_scale != 1) {
      m.kernel_scale[k] = u.vector_store_scale;
      m.origins[std::string("scale:") + k] = row_origin(u, via, "vector_store_scale");
    }
}

double spec_dram_peak_gbps(const SpecSheet& s) { return s.channels * s.mts * 8 / 1000.0; }

MachineParams machine_from_spec(const SpecSheet& s) {
  const Uarch* u = find_uarch(s.uarch);
  if (!u) {
    std::vector<std::string> names;
    for (const auto& x : uarch_table()) {
      names.push_back(x.name);
      names.insert(names.end(), x.aliases.begin(), x.aliases.end());
    }
    // "zen6" is one edit from "zen5" but another generation, not a typo: only digits differ.
    auto other_generation = [](const std::string& a, const std::string& b) {
      if (a.size() != b.size()) return false;
      bool differs = false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
          if (!std::isdigit(static_cast<unsigned char>(a[i])) || !std::isdigit(static_cast<unsigned char>(b[i])))
            return false;
          differs = true;
        }
      return differs;
    };
    if (const std::string near = nearest_name(s.uarch, names); !near.empty() && other_generation(s.uarch, near)) {
      std::vector<std::string> generations;  // every name that differs only in its digits: zen2 .. zen5
      for (const auto& n : names)
        if (other_generation(s.uarch, n)) generations.push_back(n);
      throw InputError(fmt::format("unknown --uarch '{}': the table has no row for it ({} {} another generation, "
                                   "with its own write path); microarchitectures are: {}",
                                   s.uarch, fmt::join(generations, ", "), generations.size() > 1 ? "are each" : "is",
                                   uarch_names()));
    } else if (!near.empty())
      throw InputError(fmt::format("unknown --uarch '{}'; did you mean {}?", s.uarch, near));
    throw InputError(fmt::format("unknown --uarch '{}'; microarchitectures are: {}", s.uarch, uarch_names()));
  }
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw InputError(what);
  };
  need(s.sockets >= 1 && s.sockets <= 8, fmt::format("--sockets must be 1..8, got {}", s.sockets));
  need(s.cores >= 1 && s.cores <= 512, fmt::format("--cores (per socket) must be 1..512, got {}", s.cores));
  // Hardware threads per core come in 1, 2 (Hyper-Threading, AMD SMT) or 4 (Xeon Phi); the row says
  // which its cores have (2 at most for every row now), and the message names only those.
  need((s.smt == 1 || s.smt == 2 || s.smt == 4) && s.smt <= u->max_smt,
       fmt::format("--smt {}: --uarch {} cores run {} hardware threads per core (1: SMT off)", s.smt, u->name,
                   u->max_smt >= 4 ? "1, 2 or 4" : u->max_smt >= 2 ? "1 or 2" : "1"));
  need(s.channels >= 1 && s.channels <= 24, fmt::format("--channels (per socket) must be 1..24, got {}", s.channels));
  need(s.mts >= 400 && s.mts <= 20000, fmt::format("--mts must be 400..20000 (e.g. 2666), got {}", s.mts));
  need(s.llc_bytes >= (64u << 10), "--llc (per socket) must be at least 64K, e.g. 24.75M");
  need(s.llc_bytes <= (std::uint64_t{4} << 30),
       fmt::format("--llc (per socket) must be at most 4G (AMD's largest X3D parts have 1.1 GiB), got {:.4g} GiB; "
                   "K, M, G are KiB, MiB, GiB",
                   static_cast<double>(s.llc_bytes) / (1u << 30)));
  // 0 is "not given" inside (the command line refuses a typed 0): the message gives the range a user may type.
  // At least 0.5 GHz: a 1 MHz clock was taken, and its prediction printed a band that missed its figure.
  need(s.base_ghz == 0 || (s.base_ghz >= 0.5 && s.base_ghz <= 7),
       fmt::format("--base-ghz must be 0.5..7 GHz, got {}", s.base_ghz));
  need(s.turbo_ghz == 0 || (s.turbo_ghz >= 0.5 && s.turbo_ghz <= 7),
       fmt::format("--turbo-ghz must be 0.5..7 GHz, got {}", s.turbo_ghz));
  need(!(s.turbo_ghz > 0 && s.base_ghz > 0 && s.turbo_ghz < s.base_ghz),
       fmt::format("--turbo-ghz {} is below --base-ghz {}: the turbo clock is the higher one", s.turbo_ghz, s.base_ghz));
  need(s.sockets <= u->max_sockets,
       fmt::format("--uarch {} parts have no inter-socket link: use --sockets 1 (got {})", u->name, s.sockets));
  MachineParams m;
  apply_uarch(m, *u);
  const std::string spec = "spec sheet";
  m.cpu = "";
  m.description = fmt::format("{} x {}, {}, {} x {} MT/s per socket (from a spec sheet)", s.sockets,
                              u->description, count_of(s.cores, "core"), s.channels, s.mts);
  m.topology = fmt::format("package:{} numa:1 core:{} pu:{}", s.sockets, s.cores, s.smt);
  set(m, "dram_peak_gbps_per_node", spec_dram_peak_gbps(s), spec);
  m.llc_bytes_per_package = s.llc_bytes;
  m.origins["llc_bytes_per_package"] = spec;
  const double clock = s.turbo_ghz > 0 ? s.turbo_ghz : s.base_ghz;
  if (clock > 0)
    set(m, "core_ghz", clock, s.turbo_ghz > 0 ? "spec sheet (turbo: published runs run with turbo on)" : spec);
  else
    set(m, "core_ghz", u->typical_turbo_ghz,
        fmt::format("microarchitecture default ({}: typical turbo, no clock given)", u->name));
  // The name tells machines apart where host names do (compare's "different hosts", plot notes):
  // every sheet field that changes a prediction is in it, so a 4 x 2933 and a 6 x 2666 sheet of one
  // part are two machines, and so are the same sheet without SMT, with another LLC or at another
  // clock (the one the model runs at, given or the uarch's typical turbo): they shared a name, and
  // compare called a 45% gap "unchanged". By the name the sheet gave (cascadelake-sp, an alias of
  // the skylake-sp row, stays cascadelake-sp).
  m.name = fmt::format("{}-{}s-{}c{}-{}x{}-llc{:.4g}m-{:g}ghz", lower_name(s.uarch), s.sockets, s.cores,
                       s.smt == 1 ? "-nosmt" : "", s.channels, s.mts, static_cast<double>(s.llc_bytes) / (1u << 20),
                       m.core_ghz);
  set(m, "band", 0.60, "spec-only machine: x/1.6 holds 86% of the public multi-thread rows (docs/model.md, \"Uncertainty\")");
  m.provenance = fmt::format("spec sheet + microarchitecture table ({}); not fitted to this machine", u->name);
  m.spec_sheet = s;
  return m;
}

std::string sheet_uarch_of_name(std::string_view machine_name) {
  // machine_from_spec's "<uarch>-<S>s-<C>c...": the uarch is what precedes "-<S>s-<C>c".
  static const std::regex sheet_name(R"(^(.+?)-[0-9]+s-[0-9]+c)");
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_search(machine_name.begin(), machine_name.end(), match, sheet_name)) return {};
  const std::string uarch = match[1].str();
  return find_uarch(uarch) ? uarch : std::string();
}

SpecSheet spec_sheet_of(const MachineParams& m, const std::string& origin) {
  if (!m.spec_sheet)
    throw InputError(fmt::format("machine {} was not built from a spec sheet (no \"spec_sheet\" in it: a preset or a "
                                 "calibration); write one with `bwlab machine spec`",
                                 origin));
  return *m.spec_sheet;
}

}  // namespace bwlab::model
