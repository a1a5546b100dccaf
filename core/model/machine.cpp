// SPDX-License-Identifier: MIT
#include "core/model/machine.hpp"

#include <algorithm>
#include <cmath>
#include <istream>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace bwlab {
namespace {

using json = nlohmann::json;

// Numeric parameters by name: the JSON keys and the names fits use.
struct NumField {
  const char* name;
  double MachineParams::*ptr;
};
constexpr NumField kNumFields[] = {
    {"mlp_wa_lines", &MachineParams::mlp_wa_lines},
    {"mlp_nt_lines", &MachineParams::mlp_nt_lines},
    {"dram_latency_ns", &MachineParams::dram_latency_ns},
    {"llc_latency_ns", &MachineParams::llc_latency_ns},
    {"remote_extra_ns", &MachineParams::remote_extra_ns},
    {"queue_k", &MachineParams::queue_k},
    {"dram_peak_gbps_per_node", &MachineParams::dram_peak_gbps_per_node},
    {"dram_efficiency", &MachineParams::dram_efficiency},
    {"rw_mix_penalty", &MachineParams::rw_mix_penalty},
    {"link_gbps", &MachineParams::link_gbps},
    {"llc_usable_fraction", &MachineParams::llc_usable_fraction},
    {"llc_gbps_per_core", &MachineParams::llc_gbps_per_core},
    {"smt_gain", &MachineParams::smt_gain},
    {"speci2m_max_fraction", &MachineParams::speci2m_max_fraction},
    {"warmup_us", &MachineParams::warmup_us},
    {"warmup_ratio", &MachineParams::warmup_ratio},
};

const std::vector<std::string> kServerFeatures{"sse2", "avx2", "avx512f", "erms"};

// Figures from public specifications (docs/model.md, "Presets", cites each one); the
// single-thread parameters were fitted to ../shared/data/seed-memset.csv with
// `bwlab calibrate --from seed-memset.csv --base NAME` (see docs/model.md).
std::vector<MachineParams> make_presets() {
  std::vector<MachineParams> v;
  {
    MachineParams m;
    m.name = "skylake-x-8270cl";
    m.description = "Oracle X8-2: 2 x Intel Xeon Platinum 8270CL (Skylake-X, 26 cores, 6 x DDR4-2933 per socket)";
    m.cpu = "Intel Xeon Platinum 8270CL";
    m.topology = "package:2 numa:1 core:26 pu:2";
    m.features = kServerFeatures;
    m.dram_latency_ns = 90;
    m.remote_extra_ns = 50;
    m.dram_peak_gbps_per_node = 6 * 2.933 * 8;  // 140.8 GB/s
    m.link_gbps = 3 * 20.8;                     // 3 UPI links at 10.4 GT/s
    m.llc_bytes_per_package = static_cast<std::uint64_t>(35.75 * (1 << 20));
    m.llc_gbps_per_core = 25;
    // fitted (seed 000): stosb 16M..4G, movnt 2M..4G, single thread, turbo off
    m.mlp_wa_lines = 10.09;
    m.mlp_nt_lines = 9.622;
    m.llc_latency_ns = 29.32;
    m.provenance = "preset: public specifications + single-thread fit to seed 000 (perf bench memset, turbo off)";
    v.push_back(m);
  }
  {
    MachineParams m;
    m.name = "icelake-x-8358";
    m.description = "Oracle X9-2: 2 x Intel Xeon Platinum 8358 (Ice Lake-X, 32 cores, 8 x DDR4-3200 per socket)";
    m.cpu = "Intel Xeon Platinum 8358";
    m.topology = "package:2 numa:1 core:32 pu:2";
    m.features = kServerFeatures;
    m.dram_latency_ns = 90;
    m.remote_extra_ns = 50;
    m.dram_peak_gbps_per_node = 8 * 3.2 * 8;  // 204.8 GB/s
    m.link_gbps = 3 * 22.4;                   // 3 UPI links at 11.2 GT/s
    m.llc_bytes_per_package = 48ull << 20;
    m.llc_gbps_per_core = 25;
    m.speci2m_max_fraction = 0.5;  // assumption, see docs/model.md
    m.mlp_wa_lines = 19.2;
    m.mlp_nt_lines = 37.44;
    m.llc_latency_ns = 73.03;  // effective: includes L2 misses to a mesh LLC at turbo off
    m.warmup_us = 695.8;       // fitted with --fit +warmup_us,warmup_ratio (single-pass seeds only)
    m.warmup_ratio = 0.5254;
    m.provenance = "preset: public specifications + single-thread fit to seed 001 (perf bench memset, turbo off)";
    v.push_back(m);
  }
  {
    MachineParams m;
    m.name = "broadwell-x-e5-2630v4";
    m.description = "Oracle X6-2: 2 x Intel Xeon E5-2630 v4 (Broadwell-X, 10 cores, 4 x DDR4-2133 per socket)";
    m.cpu = "Intel Xeon E5-2630 v4";
    m.topology = "package:2 numa:1 core:10 pu:2";
    m.features = {"sse2", "avx2", "erms"};
    m.dram_latency_ns = 85;
    m.remote_extra_ns = 45;
    m.dram_peak_gbps_per_node = 4 * 2.133 * 8;  // 68.3 GB/s
    m.link_gbps = 2 * 16.0;                     // 2 QPI links at 8.0 GT/s
    m.llc_bytes_per_package = 25ull << 20;
    m.llc_gbps_per_core = 20;
    m.mlp_wa_lines = 8.13;
    m.mlp_nt_lines = 17.72;
    m.llc_latency_ns = 27.37;
    m.provenance = "preset: public specifications + single-thread fit to seed 002 (perf bench memset, turbo off)";
    v.push_back(m);
  }
  {
    MachineParams m;
    m.name = "tigerlake-i7-1165g7";
    m.description = "laptop: Intel Core i7-1165G7 (Tiger Lake, 4 cores, LPDDR4x-4266 assumed)";
    m.cpu = "Intel Core i7-1165G7";
    m.topology = "package:1 numa:1 core:4 pu:2";
    m.features = kServerFeatures;
    m.dram_latency_ns = 100;
    m.remote_extra_ns = 0;
    m.dram_peak_gbps_per_node = 4.266 * 16;   // 68.3 GB/s (LPDDR4x-4266, 128 bit; DDR4-3200 would be 51.2)
    m.link_gbps = 1;                          // one package: unused
    m.llc_bytes_per_package = 12ull << 20;
    m.llc_gbps_per_core = 40;
    m.llc_latency_ns = 15;  // not in the seeds: assumed
    m.mlp_wa_lines = 34;    // not in the seeds (no stosb rows): assumed half the NT figure
    m.mlp_nt_lines = 68.69;
    m.kernel_scale = {{"movntdq", 1.24}};
    m.provenance = "preset: public specifications + single-thread fit to seed 001 (NT only; write-allocate assumed)";
    v.push_back(m);
  }
  return v;
}

}  // namespace

CpuFeatures MachineParams::cpu_features() const {
  CpuFeatures c;
  auto has = [&](const char* f) { return std::find(features.begin(), features.end(), f) != features.end(); };
  c.sse2 = has("sse2");
  c.avx2 = has("avx2");
  c.avx512f = has("avx512f");
  c.erms = has("erms");
  c.clzero = has("clzero");
  c.model_name = cpu;
  return c;
}

double MachineParams::scale_for(std::string_view kernel) const {
  auto it = kernel_scale.find(kernel);
  return it == kernel_scale.end() ? 1.0 : it->second;
}

const std::vector<MachineParams>& preset_table() {
  static const std::vector<MachineParams> presets = make_presets();
  return presets;
}

double* param_ref(MachineParams& m, std::string_view name) {
  for (const auto& f : kNumFields)
    if (name == f.name) return &(m.*f.ptr);
  if (name.substr(0, 6) == "scale:") {
    auto it = m.kernel_scale.find(name.substr(6));
    if (it == m.kernel_scale.end()) it = m.kernel_scale.emplace(std::string(name.substr(6)), 1.0).first;
    return &it->second;
  }
  return nullptr;
}

void write_machine_json(std::ostream& out, const MachineParams& m) {
  json j;
  j["bwlab_machine"] = 1;
  j["name"] = m.name;
  j["description"] = m.description;
  j["cpu"] = m.cpu;
  j["topology"] = m.topology;
  j["features"] = m.features;
  j["provenance"] = m.provenance;
  json p = json::object();
  for (const auto& f : kNumFields) p[f.name] = m.*f.ptr;
  p["llc_bytes_per_package"] = m.llc_bytes_per_package;
  p["stos_no_rfo_min_bytes"] = m.stos_no_rfo_min_bytes;
  j["params"] = p;
  json ks = json::object();
  for (const auto& [k, v] : m.kernel_scale) ks[k] = v;
  j["kernel_scale"] = ks;
  out << j.dump(2) << '\n';
}

MachineParams read_machine_json(std::istream& in, const std::string& origin) {
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {  // parse errors, and number overflows (out_of_range.406, found by fuzz_machine)
    throw InputError(fmt::format("machine file {}: not valid JSON ({})", origin, e.what()));
  }
  auto fail = [&](const std::string& what) { return InputError(fmt::format("machine file {}: {}", origin, what)); };
  if (!j.is_object() || !j.contains("bwlab_machine"))
    throw fail("not a bwlab machine file (no \"bwlab_machine\" key; write one with `bwlab calibrate --out FILE`)");
  if (j["bwlab_machine"] != 1) throw fail(fmt::format("unsupported bwlab_machine version {}", j["bwlab_machine"].dump()));
  MachineParams m;
  try {
    m.name = j.value("name", "file");
    m.description = j.value("description", "");
    m.cpu = j.value("cpu", "");
    m.topology = j.value("topology", "local");
    m.features = j.value("features", std::vector<std::string>{});
    m.provenance = j.value("provenance", "");
    if (!j.contains("params") || !j["params"].is_object()) throw fail("no \"params\" object");
    const json& p = j["params"];
    for (auto it = p.begin(); it != p.end(); ++it) {
      const std::string& key = it.key();
      if (!it->is_number()) throw fail(fmt::format("parameter {} is not a number", key));
      if (key == "llc_bytes_per_package") {
        m.llc_bytes_per_package = it->get<std::uint64_t>();
      } else if (key == "stos_no_rfo_min_bytes") {
        m.stos_no_rfo_min_bytes = it->get<std::uint64_t>();
      } else if (double* d = param_ref(m, key); d && key.rfind("scale:", 0) != 0) {
        *d = it->get<double>();
      } else {
        throw fail(fmt::format("unknown parameter {}", key));
      }
    }
    if (j.contains("kernel_scale")) {
      if (!j["kernel_scale"].is_object()) throw fail("\"kernel_scale\" is not an object");
      for (auto it = j["kernel_scale"].begin(); it != j["kernel_scale"].end(); ++it) {
        if (!it->is_number()) throw fail(fmt::format("kernel_scale {} is not a number", it.key()));
        m.kernel_scale[it.key()] = it->get<double>();
      }
    }
  } catch (const json::exception& e) {
    throw fail(e.what());
  }
  auto positive = [&](const char* name, double v) {
    if (!(v > 0) || !std::isfinite(v)) throw fail(fmt::format("parameter {} must be positive, got {}", name, v));
  };
  positive("mlp_wa_lines", m.mlp_wa_lines);
  positive("mlp_nt_lines", m.mlp_nt_lines);
  positive("dram_latency_ns", m.dram_latency_ns);
  positive("llc_latency_ns", m.llc_latency_ns);
  positive("dram_peak_gbps_per_node", m.dram_peak_gbps_per_node);
  positive("dram_efficiency", m.dram_efficiency);
  positive("link_gbps", m.link_gbps);
  positive("llc_gbps_per_core", m.llc_gbps_per_core);
  positive("warmup_ratio", m.warmup_ratio);
  if (m.dram_efficiency > 1) throw fail("parameter dram_efficiency must be at most 1");
  if (m.rw_mix_penalty < 0 || m.rw_mix_penalty >= 1) throw fail("parameter rw_mix_penalty must be in [0, 1)");
  if (m.queue_k < 0) throw fail("parameter queue_k must not be negative");
  if (m.llc_bytes_per_package == 0) throw fail("parameter llc_bytes_per_package must be positive");
  for (const auto& [k, v] : m.kernel_scale)
    if (!(v > 0)) throw fail(fmt::format("kernel_scale {} must be positive", k));
  return m;
}

}  // namespace bwlab
