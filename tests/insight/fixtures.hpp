// SPDX-License-Identifier: MIT
// Synthetic points for the insight tests: built as Point records (never as CSV text), so the
// tests follow the CSV/JSON schema wherever it goes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/report/record.hpp"

namespace bwlab::testing {

constexpr std::uint64_t MiB = 1024 * 1024;

// A point whose repetitions spread +-`half_range_pct` around `median` (min/max), with the given
// pstdev (default: half the range).
inline Point make_point(const std::string& kernel, int threads, std::uint64_t size, double median,
                        double half_range_pct = 1.0, int reps = 5, double pstdev_pct = -1) {
  Point p;
  p.source = "measured";
  p.scenario = "scaling";
  p.host = "testhost";
  p.cpu_model = "Test CPU";
  p.kernel = kernel;
  p.traffic_class = kernel == "stosb" || kernel == "stosq" || kernel == "memset" ? "write-allocate"
                    : kernel == "clzero"                                         ? "zeroing-without-fetch"
                                                                                 : "non-temporal";
  p.fill = "zero";
  p.threads = threads;
  p.placement = "compact";
  p.membind = "local";
  p.pages = "4k";
  p.size_bytes = size;
  p.reps = reps;
  p.duration_ms = 5;
  p.gbps_median = median;
  p.gbps_min = median * (1 - half_range_pct / 100);
  p.gbps_max = median * (1 + half_range_pct / 100);
  p.gbps_pstdev_pct = pstdev_pct >= 0 ? pstdev_pct : half_range_pct / 2;
  p.bytes_median = median * 1e9 * 0.005;
  p.elapsed_ns_median = 5e6;
  p.gbps_per_thread_median = median / threads;
  p.thread_fairness = 1;
  for (int i = 0; i < threads; ++i) p.pus.push_back(i), p.pus_planned.push_back(i);
  return p;
}

// WA kernel `wa` and NT kernel `nt` at `threads`, sizes 4MiB * 2^i, with the given medians.
inline void add_pair(std::vector<Point>& out, const std::string& wa, const std::vector<double>& wa_gbps,
                     const std::string& nt, const std::vector<double>& nt_gbps, int threads,
                     double half_range_pct = 1.0, int reps = 5, double pstdev_pct = -1) {
  for (std::size_t i = 0; i < wa_gbps.size(); ++i)
    out.push_back(make_point(wa, threads, (4 * MiB) << i, wa_gbps[i], half_range_pct, reps, pstdev_pct));
  for (std::size_t i = 0; i < nt_gbps.size(); ++i)
    out.push_back(make_point(nt, threads, (4 * MiB) << i, nt_gbps[i], half_range_pct, reps, pstdev_pct));
}

inline RunInfo make_run(const std::string& host, int model = 207, const std::string& microcode = "0x21000290") {
  RunInfo r;
  r.bwlab_version = "test";
  r.date = "2026-01-01T00:00:00Z";
  r.command_line = "bwlab run (synthetic)";
  r.host = host;
  r.cpu_vendor = "GenuineIntel";
  r.cpu_model_name = "Test CPU";
  r.cpu_family = 6;
  r.cpu_model = model;
  r.cpu_stepping = 2;
  r.microcode = microcode;
  r.kernel_release = "6.1.0";
  r.thp = "madvise";
  r.glibc_version = "2.36";
  r.topology = "1 package, 2 cores";
  return r;
}

// Checks that every tag is closed in order (the report is written as well-formed markup:
// void elements self-closed). Returns "" when well formed, else what is wrong.
inline std::string check_balanced(const std::string& s) {
  std::vector<std::string> open;
  std::size_t pos = 0;
  while ((pos = s.find('<', pos)) != std::string::npos) {
    const std::size_t end = s.find('>', pos);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(pos);
    const std::string tag = s.substr(pos + 1, end - pos - 1);
    pos = end + 1;
    if (tag.empty()) return "empty tag";
    if (tag[0] == '!' || tag[0] == '?') continue;  // doctype, comments
    if (tag.back() == '/') continue;                // self-closed
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes " + (open.empty() ? std::string("nothing") : "<" + open.back() + ">");
      open.pop_back();
      continue;
    }
    open.push_back(tag.substr(0, tag.find_first_of(" \t\n")));
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

inline std::string base64_decode(const std::string& in) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned buf = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=') break;
    const std::size_t v = alphabet.find(c);
    if (v == std::string::npos) return "<invalid base64>";
    buf = buf << 6 | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buf >> bits) & 0xff));
    }
  }
  return out;
}

}  // namespace bwlab::testing
