// SPDX-License-Identifier: MIT
#include "core/model/machine.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <istream>
#include <iterator>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/report/input_file.hpp"
#include "core/kernels/kernels.hpp"
#include "core/model/uarch.hpp"
#include "core/report/atomic_file.hpp"
#include "core/sweep/suggest.hpp"

namespace bwlab {
namespace {

using json = nlohmann::json;

// Numeric parameters by name: the JSON keys and the names fits use.
struct NumField {
  const char* name;
  double MachineParams::*ptr;
  const char* unit;  // for `bwlab machine show` ("band 0.6" read as a figure without a meaning)
};
constexpr NumField kNumFields[] = {
    {"mlp_wa_lines", &MachineParams::mlp_wa_lines, "lines/core"},
    {"mlp_nt_lines", &MachineParams::mlp_nt_lines, "lines/core"},
    {"dram_latency_ns", &MachineParams::dram_latency_ns, "ns"},
    {"llc_latency_ns", &MachineParams::llc_latency_ns, "ns"},
    {"remote_extra_ns", &MachineParams::remote_extra_ns, "ns"},
    {"queue_k", &MachineParams::queue_k, "coefficient"},
    {"dram_peak_gbps_per_node", &MachineParams::dram_peak_gbps_per_node, "GB/s"},
    {"dram_efficiency", &MachineParams::dram_efficiency, "fraction"},
    {"rw_mix_penalty", &MachineParams::rw_mix_penalty, "fraction"},
    {"link_gbps", &MachineParams::link_gbps, "GB/s"},
    {"llc_usable_fraction", &MachineParams::llc_usable_fraction, "fraction"},
    {"llc_gbps_per_core", &MachineParams::llc_gbps_per_core, "GB/s"},
    {"llc_domain_cores", &MachineParams::llc_domain_cores, "cores"},
    {"smt_gain", &MachineParams::smt_gain, "share (+-)"},
    {"smt_gain_nt", &MachineParams::smt_gain_nt, "share (+-)"},
    {"core_ghz", &MachineParams::core_ghz, "GHz"},
    {"ref_ghz", &MachineParams::ref_ghz, "GHz"},
    {"band", &MachineParams::band, "x/(1+band)"},
    {"stos_evasion", &MachineParams::stos_evasion, "fraction"},
    {"stos_evasion_load_drop", &MachineParams::stos_evasion_load_drop, "fraction"},
    {"stos_evasion_nonzero", &MachineParams::stos_evasion_nonzero, "fraction"},
    {"speci2m_max_fraction", &MachineParams::speci2m_max_fraction, "fraction"},
    {"own_latency_ns", &MachineParams::own_latency_ns, "ns"},
    {"warmup_us", &MachineParams::warmup_us, "us"},
    {"warmup_ratio", &MachineParams::warmup_ratio, "ratio"},
};

// Spec-sheet figures (docs/model.md, "Presets", cites each one) on top of the write-path table
// (core/model/uarch.cpp); the single-thread parameters of the table rows were fitted to
// ../shared/data/seed-memset.csv with `bwlab calibrate --from seed-memset.csv --base NAME`.
// The seeds ran with turbo off: core_ghz = ref_ghz = the base clock.
MachineParams preset(const char* uarch, const char* name, double base_ghz) {
  MachineParams m;
  model::apply_uarch(m, *model::find_uarch(uarch));
  m.name = name;
  const std::string fitted = "fitted to seeds (single thread, turbo off)";
  for (const char* p : {"mlp_wa_lines", "mlp_nt_lines", "llc_latency_ns"}) m.origins[p] = fitted;
  *param_ref(m, "core_ghz") = base_ghz;
  m.origins["core_ghz"] = "seed conditions (turbo off: base clock)";
  m.origins["ref_ghz"] = "seed conditions (turbo off: base clock)";
  m.band = 0.15;
  m.origins["band"] = "preset fitted to seeds (docs/model.md, \"Uncertainty\")";
  return m;
}

void spec(MachineParams& m, const char* param, double value) {
  *param_ref(m, param) = value;
  m.origins[param] = "spec sheet";
}

std::vector<MachineParams> make_presets() {
  std::vector<MachineParams> v;
  {
    MachineParams m = preset("skylake-sp", "skylake-x-8270cl", 2.7);
    m.description = "Oracle X8-2: 2 x Intel Xeon Platinum 8270CL (Skylake-X, 26 cores, 6 x DDR4-2933 per socket)";
    m.cpu = "Intel Xeon Platinum 8270CL";
    m.topology = "package:2 numa:1 core:26 pu:2";
    spec(m, "dram_peak_gbps_per_node", 6 * 2.933 * 8);  // 140.8 GB/s
    spec(m, "link_gbps", 62.4);                        // 3 UPI links at 10.4 GT/s x 2 B
    m.llc_bytes_per_package = static_cast<std::uint64_t>(35.75 * (1 << 20));
    m.provenance = "preset: public specifications + single-thread fit to seed 000 (perf bench memset, turbo off)";
    v.push_back(m);
  }
  {
    MachineParams m = preset("icelake-sp", "icelake-x-8358", 2.6);
    m.description = "Oracle X9-2: 2 x Intel Xeon Platinum 8358 (Ice Lake-X, 32 cores, 8 x DDR4-3200 per socket)";
    m.cpu = "Intel Xeon Platinum 8358";
    m.topology = "package:2 numa:1 core:32 pu:2";
    spec(m, "dram_peak_gbps_per_node", 8 * 3.2 * 8);  // 204.8 GB/s
    spec(m, "link_gbps", 67.2);                       // 3 UPI links at 11.2 GT/s x 2 B
    m.llc_bytes_per_package = 48ull << 20;
    // llc_latency_ns is effective: includes L2 misses to a mesh LLC at turbo off
    m.warmup_us = 695.8;  // fitted with --fit +warmup_us,warmup_ratio (single-pass seeds only)
    m.warmup_ratio = 0.5254;
    m.origins["warmup_us"] = m.origins["warmup_ratio"] = "fitted to seeds (single-pass protocol only)";
    m.provenance = "preset: public specifications + single-thread fit to seed 001 (perf bench memset, turbo off)";
    v.push_back(m);
  }
  {
    MachineParams m = preset("broadwell", "broadwell-x-e5-2630v4", 2.2);
    m.description = "Oracle X6-2: 2 x Intel Xeon E5-2630 v4 (Broadwell-X, 10 cores, 4 x DDR4-2133 per socket)";
    m.cpu = "Intel Xeon E5-2630 v4";
    m.topology = "package:2 numa:1 core:10 pu:2";
    spec(m, "dram_peak_gbps_per_node", 4 * 2.133 * 8);  // 68.3 GB/s
    spec(m, "link_gbps", 2 * 16.0);                     // 2 QPI links at 8.0 GT/s
    m.llc_bytes_per_package = 25ull << 20;
    m.provenance = "preset: public specifications + single-thread fit to seed 002 (perf bench memset, turbo off)";
    v.push_back(m);
  }
  {
    MachineParams m = preset("tigerlake", "tigerlake-i7-1165g7", 2.8);
    m.description = "laptop: Intel Core i7-1165G7 (Tiger Lake, 4 cores, LPDDR4x-4266 assumed)";
    m.cpu = "Intel Core i7-1165G7";
    m.topology = "package:1 numa:1 core:4 pu:2";
    spec(m, "dram_peak_gbps_per_node", 4.266 * 16);  // 68.3 GB/s (LPDDR4x-4266, 128 bit; DDR4-3200 would be 51.2)
    m.llc_bytes_per_package = 12ull << 20;
    m.origins["mlp_wa_lines"] = "assumed: half the NT figure (no stosb rows in the seeds)";
    m.origins["llc_latency_ns"] = "assumed (not in the seeds)";
    m.kernel_scale = {{"movntdq", 1.24}};
    m.origins["scale:movntdq"] = "fitted to seeds (single thread, turbo off)";
    m.provenance = "preset: public specifications + single-thread fit to seed 001 (NT only; write-allocate assumed)";
    v.push_back(m);
  }
  for (auto& m : v) m.origins["llc_bytes_per_package"] = "spec sheet";
  return v;
}

}  // namespace

std::string MachineParams::kernel_unavailable(std::string_view kernel) const {
  const KernelInfo* k = find_kernel(kernel);
  if (!k) return {};
  const Availability a = kernel_availability(*k, cpu_features(), "that machine");
  return a.available ? std::string() : fmt::format("kernel {} is not available on machine {}: {}", k->name, name, a.reason);
}

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

double MachineParams::clock_scale() const { return core_ghz > 0 && ref_ghz > 0 ? core_ghz / ref_ghz : 1.0; }

std::string MachineParams::origin_of(std::string_view param) const {
  auto it = origins.find(param);
  return it == origins.end() ? "model default" : it->second;
}

std::vector<ParamLine> describe_params(const MachineParams& m) {
  std::vector<ParamLine> out;
  // rep stos evades reads for ownership only from stos_no_rfo_min_bytes on; 0 is "never", and the
  // evasion figures then do nothing: said beside them, so that show agrees with what simulate does.
  const bool never_evades = m.stos_no_rfo_min_bytes == 0;
  for (const auto& f : kNumFields) {
    std::string origin = m.origin_of(f.name);
    if (never_evades && std::string_view(f.name).substr(0, 12) == "stos_evasion")
      origin += "; unused: stos_no_rfo_min_bytes is 0, rep stos never evades";
    // A clock of 0 is "not set": rates are not scaled by the clock (clock_scale 1). "0 GHz" read as a bug.
    if (std::string_view(f.name) == "core_ghz" && !(m.core_ghz > 0)) {
      out.push_back({f.name, "0 (unset)", origin + "; no clock known: rates are not scaled by core_ghz / ref_ghz", f.unit});
      continue;
    }
    out.push_back({f.name, fmt::format("{:g}", m.*f.ptr), origin, f.unit});
  }
  out.push_back({"llc_bytes_per_package", fmt::format("{}", m.llc_bytes_per_package), m.origin_of("llc_bytes_per_package"),
                 "bytes"});
  out.push_back({"stos_no_rfo_min_bytes", never_evades ? "0 (never)" : fmt::format("{}", m.stos_no_rfo_min_bytes),
                 m.origin_of("stos_no_rfo_min_bytes"), "bytes"});
  for (const auto& [k, v] : m.kernel_scale) {
    const std::string name = "scale:" + k;
    out.push_back({name, fmt::format("{:g}", v), m.origin_of(name), "x its class"});
  }
  return out;
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
  j["uarch"] = m.uarch;
  json orig = json::object();
  for (const auto& [k, v] : m.origins) orig[k] = v;
  j["origins"] = orig;
  json p = json::object();
  for (const auto& f : kNumFields) p[f.name] = m.*f.ptr;
  p["llc_bytes_per_package"] = m.llc_bytes_per_package;
  p["stos_no_rfo_min_bytes"] = m.stos_no_rfo_min_bytes;
  j["params"] = p;
  json ks = json::object();
  for (const auto& [k, v] : m.kernel_scale) ks[k] = v;
  j["kernel_scale"] = ks;
  if (const auto& s = m.spec_sheet)
    j["spec_sheet"] = {{"uarch", s->uarch},       {"sockets", s->sockets},     {"cores", s->cores},
                       {"smt", s->smt},           {"channels", s->channels},   {"mts", s->mts},
                       {"llc_bytes", s->llc_bytes}, {"base_ghz", s->base_ghz}, {"turbo_ghz", s->turbo_ghz}};
  out << j.dump(2) << '\n';
}

void check_machine_output(const std::string& path, const std::string& option) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || std::filesystem::file_size(path, ec) == 0 || ec) return;
  std::ifstream in(path, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const json j = json::parse(without_bom(text), nullptr, false);  // no exception: discarded when not JSON
  if (!j.is_discarded() && j.is_object() && j.contains("bwlab_machine")) return;
  const std::string what = !j.is_discarded() && j.is_object() && j.contains("points")
                               ? "a file of measured or simulated points"
                               : "not a bwlab machine file";
  throw InputError(fmt::format("{}{} exists and is {}: writing a machine file there would destroy it; name another "
                               "file (an earlier machine file is replaced)",
                               option.empty() ? "" : option + " ", path, what));
}

void save_machine_file(const std::string& path, const MachineParams& m) {
  check_output_format({"", path}, FileFormat::json, "a machine file");
  check_writable(path);
  check_machine_output(path, "");
  std::ostringstream text;
  write_machine_json(text, m);
  write_file_atomically(path, text.str());
}

MachineParams read_machine_json(std::istream& in, const std::string& origin) {
  json j;
  const std::string text(without_bom(std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()}));
  // A CSV of points or any other text: said plainly (it was the parser's "[json.exception.parse_error.101] ...").
  if (const auto first = text.find_first_not_of(" \t\r\n"); first == std::string::npos || text[first] != '{')
    throw InputError(fmt::format("machine file {}: not a bwlab machine file ({}; write one with `bwlab machine spec "
                                 "... --out FILE.json` from a spec sheet, or `bwlab calibrate --out FILE.json`)",
                                 origin, first == std::string::npos ? "it is empty" : "not JSON: it does not start with '{'"));
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // parse errors, and number overflows (out_of_range.406, found by fuzz_machine)
    throw InputError(fmt::format("machine file {}: not valid JSON ({})", origin, e.what()));
  }
  auto fail = [&](const std::string& what) { return InputError(fmt::format("machine file {}: {}", origin, what)); };
  if (!j.is_object() || !j.contains("bwlab_machine"))
    throw fail("not a bwlab machine file (no \"bwlab_machine\" key; write one with `bwlab machine spec ... --out FILE` from a spec sheet, or `bwlab calibrate --out FILE` on the machine)");
  if (j["bwlab_machine"] != 1) throw fail(fmt::format("unsupported bwlab_machine version {}", j["bwlab_machine"].dump()));
  MachineParams m;
  try {
    // A field of the wrong type is named ("type must be string, but is number" named none).
    const auto text_of = [&](const char* key, const char* fallback) {
      if (!j.contains(key)) return std::string(fallback);
      if (!j[key].is_string()) throw fail(fmt::format("\"{}\" is not a string", key));
      return j[key].get<std::string>();
    };
    m.name = text_of("name", "file");
    if (m.name.empty()) throw fail("\"name\" is empty (the points of a simulation carry it as their host, model:NAME)");
    m.description = text_of("description", "");
    m.cpu = text_of("cpu", "");
    m.topology = text_of("topology", "local");
    // A spec sheet's machine carries its topology: without one it ran on this machine's ("18
    // threads asked for, but this process may use only 2 PUs" for an 18-core sheet).
    if (!j.contains("topology") && j.contains("spec_sheet"))
      throw fail("no \"topology\": a spec sheet's machine names its topology (bwlab machine spec writes it, e.g. "
                 "\"package:1 numa:1 core:18 pu:2\")");
    if (j.contains("features") && !j["features"].is_array()) throw fail("\"features\" is not a list");
    m.features = j.value("features", std::vector<std::string>{});
    m.provenance = text_of("provenance", "");
    m.uarch = text_of("uarch", "");
    // A hand-edited name ran as if known ("skylake-spx" was shown as the machine's uarch).
    if (!m.uarch.empty() && !model::find_uarch(m.uarch)) {
      std::vector<std::string> names;
      for (const model::Uarch& u : model::uarch_table()) names.push_back(u.name);
      const std::string near = nearest_name(m.uarch, names);
      throw fail(fmt::format("uarch '{}' is not in the write-path table{}; the names are: {}", m.uarch,
                             near.empty() ? "" : " (did you mean " + near + "?)", model::uarch_names()));
    }
    if (j.contains("origins")) {
      if (!j["origins"].is_object()) throw fail("\"origins\" is not an object");
      for (auto it = j["origins"].begin(); it != j["origins"].end(); ++it) {
        if (!it->is_string()) throw fail(fmt::format("origin of {} is not a string", it.key()));
        m.origins[it.key()] = it->get<std::string>();
      }
    }
    if (!j.contains("params") || !j["params"].is_object()) throw fail("no \"params\" object");
    const json& p = j["params"];
    // A parameter the file leaves out takes the model's default, and says so. But one whose origin
    // the file names ("spec sheet") was written and then cut or edited away: a 2-socket sheet's
    // prediction fell from 193.9 to 144.4 GB/s on the default DRAM peak, without a word.
    const auto default_text = [](std::string_view key) {  // only for the refusal: not on every read
      for (const ParamLine& d : describe_params(MachineParams{}))
        if (d.name == key) return fmt::format("{} {}", d.value, d.unit);
      return std::string("?");
    };
    const auto left_out = [&](const char* key) {
      if (p.contains(key)) return;
      if (j.contains("origins") && j["origins"].contains(key))
        throw fail(fmt::format("parameter {} is missing, though the file gives its origin ({}): the file was cut or "
                               "edited. Write it again (bwlab machine spec / calibrate), or delete its origin too to "
                               "take the model's default ({})",
                               key, j["origins"][key].dump(), default_text(key)));
      m.origins[key] = "model default (not in the file)";
    };
    for (const auto& f : kNumFields) left_out(f.name);
    for (const char* key : {"llc_bytes_per_package", "stos_no_rfo_min_bytes"}) left_out(key);
    for (auto it = p.begin(); it != p.end(); ++it) {
      const std::string& key = it.key();
      if (!it->is_number()) throw fail(fmt::format("parameter {} is not a number", key));
      const bool bytes = key == "llc_bytes_per_package" || key == "stos_no_rfo_min_bytes";
      // A negative byte count wrapped to 18446744073709551615 (and -4096 turned rep stos's evasion off).
      if (bytes && !it->is_number_unsigned())
        throw fail(fmt::format("parameter {} must be a whole number of bytes, not negative, got {}", key, it->dump()));
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
        if (!find_kernel(it.key()))
          throw fail(fmt::format("kernel_scale names an unknown kernel '{}'; kernels are: {}", it.key(), kernel_names()));
        m.kernel_scale[it.key()] = it->get<double>();
      }
    }
    if (j.contains("spec_sheet")) {
      const json& s = j["spec_sheet"];
      if (!s.is_object()) throw fail("\"spec_sheet\" is not an object");
      model::SpecSheet sheet;
      sheet.uarch = s.at("uarch").get<std::string>();
      sheet.sockets = s.at("sockets").get<int>();
      sheet.cores = s.at("cores").get<int>();
      sheet.smt = s.at("smt").get<int>();
      sheet.channels = s.at("channels").get<int>();
      sheet.mts = s.at("mts").get<double>();
      sheet.llc_bytes = s.at("llc_bytes").get<std::uint64_t>();
      sheet.base_ghz = s.value("base_ghz", 0.0);
      sheet.turbo_ghz = s.value("turbo_ghz", 0.0);
      m.spec_sheet = sheet;
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
  if (!(m.llc_domain_cores >= 0) || !std::isfinite(m.llc_domain_cores))
    throw fail("parameter llc_domain_cores must not be negative (0: the package's LLC is one domain)");
  if (!(m.own_latency_ns >= 0) || !std::isfinite(m.own_latency_ns))
    throw fail("parameter own_latency_ns must not be negative (0: no fast ownership path)");
  if (m.core_ghz < 0 || m.ref_ghz < 0) throw fail("parameters core_ghz and ref_ghz must not be negative");
  // Beyond any machine: hand-edited values that solved to 0.00 GB/s or a 300-digit latency.
  const auto at_most = [&](const char* name, double v, double most, const char* why) {
    if (!(v <= most)) throw fail(fmt::format("parameter {} must be at most {:g} ({}), got {:g}", name, most, why, v));
  };
  at_most("dram_latency_ns", m.dram_latency_ns, 10000, "10 us");
  at_most("llc_latency_ns", m.llc_latency_ns, 10000, "10 us");
  at_most("queue_k", m.queue_k, 100, "a queueing coefficient");
  at_most("core_ghz", m.core_ghz, 10, "a core clock");
  at_most("ref_ghz", m.ref_ghz, 10, "a core clock");
  at_most("mlp_wa_lines", m.mlp_wa_lines, 10000, "lines in flight per core");
  at_most("mlp_nt_lines", m.mlp_nt_lines, 10000, "lines in flight per core");
  at_most("band", m.band, 10, "the band is x/(1 + band)");
  if (!(m.remote_extra_ns >= 0) || !(m.remote_extra_ns <= 10000))
    throw fail(fmt::format("parameter remote_extra_ns must be in [0, 10000] ns, got {:g}", m.remote_extra_ns));
  if (!(m.smt_gain > -1 && m.smt_gain <= 1))
    throw fail(fmt::format("parameter smt_gain must be above -1 and at most 1, got {:g}", m.smt_gain));
  if (!(m.smt_gain_nt <= 1)) throw fail(fmt::format("parameter smt_gain_nt must be at most 1, got {:g}", m.smt_gain_nt));
  for (const auto& [name, v] : {std::pair{"llc_usable_fraction", m.llc_usable_fraction},
                                std::pair{"stos_evasion_load_drop", m.stos_evasion_load_drop},
                                std::pair{"speci2m_max_fraction", m.speci2m_max_fraction}})
    if (!(v >= 0 && v <= 1)) throw fail(fmt::format("parameter {} must be in [0, 1], got {:g}", name, v));
  if (!(m.warmup_us >= 0) || !std::isfinite(m.warmup_us)) throw fail("parameter warmup_us must not be negative");
  if (m.band < 0 || !std::isfinite(m.band)) throw fail("parameter band must not be negative");
  if (!(m.stos_evasion >= 0 && m.stos_evasion <= 1)) throw fail("parameter stos_evasion must be in [0, 1]");
  if (!(m.stos_evasion_nonzero >= 0 && m.stos_evasion_nonzero <= 1))
    throw fail("parameter stos_evasion_nonzero must be in [0, 1]");
  if (!(m.smt_gain_nt > -1)) throw fail("parameter smt_gain_nt must be above -1");
  if (m.llc_bytes_per_package == 0) throw fail("parameter llc_bytes_per_package must be positive");
  for (const auto& [k, v] : m.kernel_scale)
    if (!(v > 0)) throw fail(fmt::format("kernel_scale {} must be positive", k));
  return m;
}

}  // namespace bwlab
