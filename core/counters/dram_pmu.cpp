// SPDX-License-Identifier: MIT
#include "core/counters/dram_pmu.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace bwlab {

namespace fs = std::filesystem;

namespace {

// The first line of a sysfs file into `out`, trailing blanks removed; false when unreadable.
bool read_line(const fs::path& path, std::string& out) {
  std::ifstream in(path);
  if (!in) return false;
  std::getline(in, out);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ' || out.back() == '\t' || out.back() == '\r'))
    out.pop_back();
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

bool parse_u64(std::string_view s, std::uint64_t& v) {
  s = trim(s);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

bool parse_int(std::string_view s, int& v) {
  s = trim(s);
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

// Deposits `value` into the bit ranges of one format file ("config:0-7,32-35"), low bits first.
void deposit(PerfConfig& c, std::string_view term, std::string_view format, std::uint64_t value) {
  const std::size_t colon = format.find(':');
  if (colon == std::string_view::npos) throw std::runtime_error(fmt::format("format of '{}' unreadable: {}", term, format));
  const std::string_view word = format.substr(0, colon);
  std::uint64_t* target = word == "config" ? &c.config : word == "config1" ? &c.config1 : word == "config2" ? &c.config2 : nullptr;
  if (!target) throw std::runtime_error(fmt::format("format of '{}' names an unknown word: {}", term, format));
  std::uint64_t rest = value;
  for (std::string_view range : split(format.substr(colon + 1), ',')) {
    const std::size_t dash = range.find('-');
    int lo = 0, hi = 0;
    bool ok = parse_int(range.substr(0, dash), lo);
    hi = lo;  // a single bit: "config:18"
    if (ok && dash != std::string_view::npos) ok = parse_int(range.substr(dash + 1), hi);
    if (!ok || lo < 0 || hi < lo || hi > 63)
      throw std::runtime_error(fmt::format("format of '{}' unreadable: {}", term, format));
    const int width = hi - lo + 1;
    const std::uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
    *target |= (rest & mask) << lo;
    rest = width == 64 ? 0 : rest >> width;
  }
  if (rest != 0) throw std::runtime_error(fmt::format("value {:#x} of '{}' does not fit {}", value, term, format));
}

// Where AMD's UMC encodings come from (its sysfs events/ directory is empty): perf's
// tools/perf/pmu-events/arch/x86/amdzen4/memory-controller.json, umc_cas_cmd.rd / .wr.
constexpr const char* kAmdZen4Json = "perf pmu-events amdzen4/memory-controller.json";

struct Known {
  std::string_view name;
  DramDirection direction;
};

// Event names of the Intel IMC PMUs (see dram_pmu.hpp for the kernel files that define them).
constexpr Known kIntelImcEvents[] = {
    {"cas_count_read", DramDirection::read}, {"cas_count_write", DramDirection::write},
    {"data_read", DramDirection::read},      {"data_write", DramDirection::write},
    {"data_reads", DramDirection::read},     {"data_writes", DramDirection::write},
    {"read", DramDirection::read},           {"write", DramDirection::write},
};

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Intel servers from Ice Lake on expose both uncore_imc_N and uncore_imc_free_running_N for the
// same channels: only one family is used (the CAS counters when they are there), never both.
enum class Family { none, intel_imc, intel_imc_free_running, amd_umc };

Family family_of(std::string_view pmu) {
  if (starts_with(pmu, "uncore_imc_free_running")) return Family::intel_imc_free_running;
  if (pmu == "uncore_imc" || starts_with(pmu, "uncore_imc_")) return Family::intel_imc;
  if (starts_with(pmu, "amd_umc_")) return Family::amd_umc;
  return Family::none;
}

// The events of one PMU directory; `problem` gets why it gave none.
std::vector<DramEvent> pmu_events(const fs::path& dir, Family family, std::string& problem) {
  const std::string pmu = dir.filename().string();
  std::string line;
  int type = -1;
  if (!read_line(dir / "type", line) || !parse_int(line, type)) {
    problem = fmt::format("{}: no readable type file", pmu);
    return {};
  }
  std::vector<int> cpus;
  if (read_line(dir / "cpumask", line)) cpus = parse_cpu_list(line);
  if (cpus.empty()) {
    problem = fmt::format("{}: no readable cpumask", pmu);
    return {};
  }
  struct Candidate {
    std::string name, encoding;
    DramDirection direction;
    double bytes_per_count;
    std::string source;
  };
  std::vector<Candidate> found;
  if (family != Family::amd_umc) {
    for (const Known& k : kIntelImcEvents) {
      std::string enc;
      if (!read_line(dir / "events" / std::string(k.name), enc)) continue;
      std::string scale_text, unit;
      double scale = 1;
      if (read_line(dir / "events" / (std::string(k.name) + ".scale"), scale_text)) {
        try {
          scale = std::stod(scale_text);
        } catch (const std::exception&) {
          scale = std::numeric_limits<double>::quiet_NaN();
        }
      }
      (void)read_line(dir / "events" / (std::string(k.name) + ".unit"), unit);
      const double bpc = scale_to_bytes(scale, unit);
      if (!std::isfinite(bpc) || bpc <= 0) {
        problem = fmt::format("{}: event {} has scale '{}' unit '{}' that bwlab cannot turn into bytes", pmu, k.name,
                              scale_text, unit);
        continue;
      }
      found.push_back({std::string(k.name), enc, k.direction, bpc, "sysfs"});
    }
  } else {
    // Zen 4 UMC: a CAS command moves one 64-byte line.
    found.push_back({"umc_cas_cmd.rd", "event=0x0a,rdwrmask=0x1", DramDirection::read, 64.0, kAmdZen4Json});
    found.push_back({"umc_cas_cmd.wr", "event=0x0a,rdwrmask=0x2", DramDirection::write, 64.0, kAmdZen4Json});
  }
  // One read and one write event per PMU: the first of each in the table's order.
  std::vector<DramEvent> out;
  for (DramDirection d : {DramDirection::read, DramDirection::write}) {
    const auto it = std::find_if(found.begin(), found.end(), [&](const Candidate& c) { return c.direction == d; });
    if (it == found.end()) {
      if (problem.empty())
        problem = fmt::format("{}: no {} event bwlab knows", pmu, d == DramDirection::read ? "read" : "write");
      return {};
    }
    DramEvent e;
    e.pmu = pmu;
    e.type = type;
    e.cpus = cpus;
    e.name = it->name;
    e.encoding = it->encoding;
    e.direction = d;
    e.bytes_per_count = it->bytes_per_count;
    e.source = it->source;
    try {
      const PerfConfig c = encode_perf_event(dir, e.encoding);
      e.config = c.config;
      e.config1 = c.config1;
      e.config2 = c.config2;
    } catch (const std::exception& ex) {
      problem = fmt::format("{}: {}", pmu, ex.what());
      return {};
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

std::vector<int> parse_cpu_list(std::string_view text) {
  std::vector<int> out;
  text = trim(text);
  if (text.empty()) return {};
  for (std::string_view part : split(text, ',')) {
    const std::size_t dash = part.find('-');
    int lo = 0, hi = 0;
    if (!parse_int(part.substr(0, dash), lo)) return {};
    hi = lo;
    if (dash != std::string_view::npos && !parse_int(part.substr(dash + 1), hi)) return {};
    if (lo < 0 || hi < lo) return {};
    for (int c = lo; c <= hi; ++c) out.push_back(c);
  }
  return out;
}

PerfConfig encode_perf_event(const fs::path& pmu_dir, std::string_view encoding) {
  PerfConfig c;
  for (std::string_view term : split(trim(encoding), ',')) {
    term = trim(term);
    if (term.empty()) continue;
    const std::size_t eq = term.find('=');
    const std::string name(trim(term.substr(0, eq)));
    std::uint64_t value = 1;
    if (eq != std::string_view::npos && !parse_u64(term.substr(eq + 1), value))
      throw std::runtime_error(fmt::format("event term '{}' has no number", term));
    std::string format;
    if (!read_line(pmu_dir / "format" / name, format))
      throw std::runtime_error(fmt::format("event term '{}' has no format file under {}", name, (pmu_dir / "format").string()));
    deposit(c, name, format, value);
  }
  return c;
}

double scale_to_bytes(double scale, std::string_view unit) {
  unit = trim(unit);
  double factor = std::numeric_limits<double>::quiet_NaN();
  if (unit.empty() || unit == "B" || unit == "Bytes" || unit == "bytes") factor = 1;
  else if (unit == "KiB") factor = 1024.0;
  else if (unit == "MiB") factor = 1024.0 * 1024.0;
  else if (unit == "GiB") factor = 1024.0 * 1024.0 * 1024.0;
  else if (unit == "MB") factor = 1e6;
  return scale * factor;
}

double dram_per_byte(double dram_bytes, double bytes_cleared) {
  if (!std::isfinite(dram_bytes) || !std::isfinite(bytes_cleared) || bytes_cleared <= 0)
    return std::numeric_limits<double>::quiet_NaN();
  return dram_bytes / bytes_cleared;
}

DramDiscovery discover_dram_events(const fs::path& root) {
  DramDiscovery d;
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) names.push_back(it->path().filename().string());
  if (ec && names.empty()) {
    d.absent_reason = fmt::format("no memory-controller PMU: cannot list {} ({})", root.string(), ec.message());
    return d;
  }
  std::sort(names.begin(), names.end());
  std::vector<std::string> problems;
  std::vector<DramEvent> free_running;
  for (const std::string& n : names) {
    const Family f = family_of(n);
    if (f == Family::none) continue;
    std::string problem;
    std::vector<DramEvent> ev = pmu_events(root / n, f, problem);
    if (ev.empty()) problems.push_back(problem);
    for (auto& e : ev) (f == Family::intel_imc_free_running ? free_running : d.events).push_back(std::move(e));
  }
  const bool intel_cas = std::any_of(d.events.begin(), d.events.end(),
                                     [](const DramEvent& e) { return family_of(e.pmu) == Family::intel_imc; });
  if (!intel_cas)
    for (auto& e : free_running) d.events.push_back(std::move(e));
  if (d.found()) return d;
  if (!problems.empty())
    d.absent_reason = fmt::format("no usable memory-controller PMU under {}: {}", root.string(), fmt::join(problems, "; "));
  else
    d.absent_reason = fmt::format("no memory-controller PMU under {} (this host exposes: {})", root.string(),
                                  names.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(names, ", ")));
  return d;
}

}  // namespace bwlab
