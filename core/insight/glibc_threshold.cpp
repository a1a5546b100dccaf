// SPDX-License-Identifier: MIT
#include "core/insight/glibc_threshold.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gnu/libc-version.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "core/report/plural.hpp"
#include "core/report/table.hpp"

namespace bwlab {

namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

// "0-1", "0,2-3,8" -> number of CPUs; 0 if unparsable.
int count_cpu_list(const std::string& list) {
  int n = 0;
  std::stringstream ss(list);
  for (std::string part; std::getline(ss, part, ',');) {
    if (part.empty()) continue;
    int a = 0, b = 0;
    const std::size_t dash = part.find('-');
    const std::string lo = part.substr(0, dash);
    if (std::from_chars(lo.data(), lo.data() + lo.size(), a).ec != std::errc{}) return 0;
    b = a;
    if (dash != std::string::npos) {
      const std::string hi = part.substr(dash + 1);
      if (std::from_chars(hi.data(), hi.data() + hi.size(), b).ec != std::errc{}) return 0;
    }
    n += b - a + 1;
  }
  return n;
}

// sysfs sizes: "307200K", "2048K", "32M".
std::uint64_t parse_cache_size(const std::string& s) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{}) return 0;
  const std::string unit(p, s.data() + s.size());
  if (unit == "K") return v << 10;
  if (unit == "M") return v << 20;
  if (unit.empty()) return v;
  return 0;
}

bool parse_hex(std::string_view s, std::uint64_t& v) {
  if (s.substr(0, 2) == "0x" || s.substr(0, 2) == "0X") s.remove_prefix(2);
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  return ec == std::errc{} && p == s.data() + s.size() && !s.empty();
}

std::string hex(std::uint64_t v) { return fmt::format("{:#x}", v); }

}  // namespace

CacheFigures read_cache_figures() {
  CacheFigures c;
  for (int i = 0; i < 16; ++i) {
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu0/cache/index{}/", i);
    const std::string level = read_line(dir + "level");
    if (level.empty()) break;
    const std::string type = read_line(dir + "type");
    if (type == "Instruction") continue;
    const std::uint64_t size = parse_cache_size(read_line(dir + "size"));
    const int sharing = count_cpu_list(read_line(dir + "shared_cpu_list"));
    if (level == "2") c.l2_bytes = size, c.threads_sharing_l2 = sharing;
    if (level == "3") c.l3_bytes = size, c.threads_sharing_l3 = sharing;
  }
  if (c.l3_bytes || c.l2_bytes) c.source = "sysfs /sys/devices/system/cpu/cpu0/cache";
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, cx = 0, d = 0;
  if (__get_cpuid_max(0, nullptr) >= 4) {
    for (unsigned sub = 0; sub < 16; ++sub) {
      __cpuid_count(4, sub, a, b, cx, d);
      if ((a & 0x1f) == 0) break;
      if (((a >> 5) & 0x7) == 3) c.l3_inclusive = (d & 0x2) != 0;
    }
    if (!c.source.empty()) c.source += " + CPUID leaf 4";
  }
#endif
  return c;
}

std::uint64_t glibc236_nt_threshold(const CacheFigures& c) {
  if (c.l3_bytes == 0) return 0;
  std::uint64_t shared = c.l3_bytes;
  if (c.threads_sharing_l3 > 0) shared /= static_cast<std::uint64_t>(c.threads_sharing_l3);
  if (!c.l3_inclusive) {
    std::uint64_t core = c.l2_bytes;
    if (c.threads_sharing_l2 > 0) core /= static_cast<std::uint64_t>(c.threads_sharing_l2);
    shared += core;
  }
  return shared * 3 / 4;
}

std::map<std::string, Tunable> parse_tunables(std::string_view text) {
  std::map<std::string, Tunable> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    // name: VALUE (min: MIN, max: MAX)
    const std::size_t colon = line.find(": ");
    const std::size_t open = line.find(" (min: ");
    const std::size_t comma = line.find(", max: ");
    const std::size_t close = line.rfind(')');
    if (colon == std::string_view::npos || open == std::string_view::npos || comma == std::string_view::npos ||
        close == std::string_view::npos || !(colon < open && open < comma && comma < close))
      continue;
    Tunable t;
    if (!parse_hex(line.substr(colon + 2, open - colon - 2), t.value)) continue;
    if (!parse_hex(line.substr(open + 7, comma - open - 7), t.min)) continue;
    if (!parse_hex(line.substr(comma + 7, close - comma - 7), t.max)) continue;
    out[std::string(line.substr(0, colon))] = t;
  }
  return out;
}

GlibcInfo read_glibc_info() {
  GlibcInfo g;
  g.version = gnu_get_libc_version();
  g.cache = read_cache_figures();
  g.formula_bytes = glibc236_nt_threshold(g.cache);
  const char* loaders[] = {"/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"};
  const char* loader = nullptr;
  for (const char* l : loaders)
    if (::access(l, X_OK) == 0) {
      loader = l;
      break;
    }
  if (!loader) {
    g.live_source = "no x86-64 dynamic loader found at /lib64/ld-linux-x86-64.so.2";
    return g;
  }
  const std::string cmd = fmt::format("{} --list-tunables 2>/dev/null", loader);
  FILE* f = ::popen(cmd.c_str(), "r");
  if (!f) {
    g.live_source = fmt::format("could not run {} --list-tunables", loader);
    return g;
  }
  std::string text;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  const int status = ::pclose(f);
  const auto tunables = parse_tunables(text);
  if (const auto it = tunables.find("glibc.cpu.x86_non_temporal_threshold"); it != tunables.end()) g.live_nt = it->second;
  if (const auto it = tunables.find("glibc.cpu.x86_memset_non_temporal_threshold"); it != tunables.end())
    g.live_memset_nt = it->second;
  if (g.live_nt)
    g.live_source = fmt::format("{} --list-tunables", loader);
  else
    g.live_source = fmt::format("{} --list-tunables gave no x86_non_temporal_threshold (exit status {}; the option "
                                "needs glibc >= 2.33)",
                                loader, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return g;
}

std::string glibc_tunables_line(std::string_view tunable, std::uint64_t bytes, const std::optional<Tunable>& bounds) {
  if (bounds) bytes = std::clamp(bytes, bounds->min, bounds->max);
  return fmt::format("GLIBC_TUNABLES=glibc.cpu.{}={}", tunable, hex(bytes));
}

void print_glibc_comparison(std::ostream& out, const GlibcInfo& g, std::span<const PairVerdict> verdicts,
                            const std::string& this_host, std::uint64_t llc_bytes, int llc_count,
                            std::string_view this_cpu) {
  std::string s = fmt::format("\n== glibc on this machine ({}, glibc {}) ==\n", this_host, g.version);
  if (g.live_nt)
    s += fmt::format("x86_non_temporal_threshold: {} ({}) live, from {}\n", format_bytes(g.live_nt->value),
                     hex(g.live_nt->value), g.live_source);
  else
    s += fmt::format("x86_non_temporal_threshold: live value unavailable: {}\n", g.live_source);
  const CacheFigures& c = g.cache;
  if (g.formula_bytes)
    s += fmt::format("glibc 2.36 default formula (sysdeps/x86/dl-cacheinfo.h): 3/4 x (L3 {} / {} sharing{}) = {} ({}); "
                     "figures from {}\n",
                     format_bytes(c.l3_bytes), c.threads_sharing_l3,
                     c.l3_inclusive ? ", L3 inclusive so L2 not added"
                                    : fmt::format(" + L2 {} / {} sharing, L3 not inclusive", format_bytes(c.l2_bytes),
                                                  c.threads_sharing_l2),
                     format_bytes(g.formula_bytes), hex(g.formula_bytes), c.source);
  // Two figures for one threshold, unexplained (240MiB live beside a 12.75MiB formula): say which counts.
  if (g.formula_bytes && g.live_nt &&
      std::abs(static_cast<double>(g.live_nt->value) / static_cast<double>(g.formula_bytes) - 1) > 0.01)
    s += fmt::format("The two differ ({:.1f}x): the live value is the one this glibc uses. The formula is upstream "
                     "glibc 2.36's Intel path; this one computed another (AMD's path reads other cache figures, a "
                     "distribution may carry a later formula) or GLIBC_TUNABLES set it.\n",
                     static_cast<double>(g.live_nt->value) / static_cast<double>(g.formula_bytes));
  if (!g.formula_bytes)
    s += fmt::format("glibc 2.36 default formula: not computed: bwlab reads its cache figures from sysfs, and this "
                     "machine's lists no L3 (/sys/devices/system/cpu/cpu0/cache); glibc reads CPUID{}\n",
                     g.live_nt ? ", so the live value above is its own figure" : "");
  if (g.live_memset_nt)
    s += fmt::format("x86_memset_non_temporal_threshold: {} ({}) live: this glibc's memset switches to NT stores "
                     "above it\n",
                     format_bytes(g.live_memset_nt->value), hex(g.live_memset_nt->value));
  else
    s += "memset: this glibc lists no x86_memset_non_temporal_threshold (added in glibc 2.40), so its memset never "
         "uses non-temporal stores; x86_non_temporal_threshold steers memcpy/memmove, the nearest knob a libc has.\n";

  // This machine's own pairs decide its glibc advice when the file holds them beside other hosts'
  // (a file of vm's and hostB's rows set vm's threshold from hostB's crossover, "the points come
  // from host hostB").
  std::vector<PairVerdict> mine;
  std::set<std::string> others;
  for (const PairVerdict& v : verdicts) {
    if (v.source != "measured") continue;
    if (v.host.empty() || same_machine(v.host, v.cpu_model, this_host, this_cpu))
      mine.push_back(v);
    else
      others.insert(v.host);
  }
  const PairVerdict* ref = glibc_reference_pair(mine.empty() ? verdicts : std::span<const PairVerdict>(mine));
  if (!mine.empty() && !others.empty())
    s += fmt::format("Note: the file also holds the points of {} {}; the advice below uses this machine's only.\n",
                     others.size() == 1 ? "host" : "hosts", fmt::join(others, ", "));
  if (!ref) {
    s += "No measured write-allocate/NT pair to set beside glibc's threshold.\n";
    out << s;
    return;
  }
  const bool here = ref->host.empty() || same_machine(ref->host, ref->cpu_model, this_host, this_cpu);
  if (!ref->host.empty() && ref->host != this_host)
    s += fmt::format("Note: the points come from host {}; the glibc figures above are this machine's.\n", ref->host);
  else if (!here)
    s += fmt::format("Note: the points come from host {} with another CPU ({}; this machine's is {}): another "
                     "machine of the same name; the glibc figures above are this machine's.\n",
                     ref->host, ref->cpu_model, this_cpu);
  const ThreadsVerdict* row = nullptr;  // the most threads with a crossover: the contended case
  for (const ThreadsVerdict& t : ref->rows)
    if (t.crossover != CrossoverKind::not_computed) row = &t;
  if (!row || ref->recommendation == Recommendation::cannot_tell) {
    s += fmt::format("{} vs {}: the data cannot support a threshold (see the verdict above); no GLIBC_TUNABLES "
                     "line is suggested.\n",
                     ref->wa_kernel, ref->nt_kernel);
    out << s;
    return;
  }
  // A threshold only where the verdict made the call it would encode: NT ahead beyond the spread
  // for a crossover in or below the range, NT behind for none in range. A crossover of medians
  // whose largest size is level or too noisy is said, not turned into a GLIBC_TUNABLES line.
  const bool called = row->crossover == CrossoverKind::none_in_range ? row->standing == Standing::nt_behind
                                                                      : row->standing == Standing::nt_ahead;
  if (!called) {
    s += fmt::format("Measured crossover, {} vs {} ({} fill) at {} (the most measured), by medians: {}; at {} the "
                     "two stand {}, so the measurement does not support a threshold there; no GLIBC_TUNABLES line is "
                     "suggested.\n",
                     ref->wa_kernel, ref->nt_kernel, ref->fill, count_of(row->threads, "thread"), crossover_text(*row),
                     format_bytes(row->largest), standing_text(row->standing, row->predicted));
    out << s;
    return;
  }
  if (llc_bytes > 0 && here &&
      fits_in_llc(*row, llc_bytes, llc_count)) {
    // A threshold is for large clears from DRAM; this row's buffers can all stay in the cache.
    s += fmt::format("Measured crossover, {} vs {} ({} fill) at {} (the most measured), by medians: {}; but at {} the "
                     "largest size ({} per thread) and its threads' buffers fit in this machine's {}, so the "
                     "measurement judges clears that can stay in the cache, not the large ones a threshold is for; no "
                     "GLIBC_TUNABLES line is suggested (measure sizes above {} per thread at {}).\n",
                     ref->wa_kernel, ref->nt_kernel, ref->fill, count_of(row->threads, "thread"), crossover_text(*row),
                     count_of(row->threads, "thread"), format_bytes(row->largest), llc_phrase(llc_bytes, llc_count),
                     format_bytes(llc_reach(llc_bytes, llc_count, row->threads) /
                                  static_cast<std::uint64_t>(std::max(1, row->threads))),
                     count_of(row->threads, "thread"));
    out << s;
    return;
  }
  const std::string tunable = g.live_memset_nt ? "x86_memset_non_temporal_threshold" : "x86_non_temporal_threshold";
  const std::optional<Tunable>& bounds = g.live_memset_nt ? g.live_memset_nt : g.live_nt;
  const std::uint64_t glibc_now = bounds ? bounds->value : g.formula_bytes;
  s += fmt::format("Measured crossover, {} vs {} ({} fill) at {} (the most measured): {}\n", ref->wa_kernel,
                   ref->nt_kernel, ref->fill, count_of(row->threads, "thread"), crossover_text(*row));
  switch (row->crossover) {
    case CrossoverKind::interpolated: {
      const auto bytes = static_cast<std::uint64_t>(row->crossover_bytes + 0.5);
      if (glibc_now)
        s += fmt::format("glibc's threshold ({}) is {:.2f}x the measured crossover ({} per call).\n",
                         format_bytes(glibc_now), static_cast<double>(glibc_now) / static_cast<double>(bytes),
                         format_bytes(bytes));
      s += fmt::format("To match the measurement: {}\n", glibc_tunables_line(tunable, bytes, bounds));
      break;
    }
    case CrossoverKind::below_range:
      // A line is offered only when it changes glibc in the direction measured: down to the bound.
      if (glibc_now && glibc_now <= row->bracket_hi)
        s += fmt::format("NT was ahead at every size measured, so the measurement supports a threshold at or below {}; "
                         "glibc's ({}) is already there: nothing measured argues for changing it.\n",
                         format_bytes(row->bracket_hi), format_bytes(glibc_now));
      else
        s += fmt::format("NT was ahead at every size measured, so the measurement supports a threshold at or below {}; "
                         "measure smaller sizes to place it. Upper bound: {}\n",
                         format_bytes(row->bracket_hi), glibc_tunables_line(tunable, row->bracket_hi, bounds));
      break;
    case CrossoverKind::none_in_range:
      // glibc already above every size measured: the measurement agrees with it (a line at the
      // largest size once lowered a 127MiB threshold to 64MiB, where NT had been measured behind).
      if (glibc_now > row->largest)
        s += fmt::format("NT never overtook {} up to {}, and glibc's threshold ({}) is above every size measured: "
                         "nothing measured argues for changing it (measure larger sizes to place the crossover).\n",
                         ref->wa_kernel, format_bytes(row->largest), format_bytes(glibc_now));
      else
        s += fmt::format("NT never overtook {} up to {}{}: a threshold above {} matches the measurement, e.g. twice "
                         "the largest size: {}\n",
                         ref->wa_kernel, format_bytes(row->largest),
                         glibc_now ? fmt::format(", where glibc ({}) already uses NT", format_bytes(glibc_now)) : "",
                         format_bytes(row->largest), glibc_tunables_line(tunable, 2 * row->largest, bounds));
      break;
    case CrossoverKind::not_computed: break;
  }
  out << s;
}

void print_verdicts_and_glibc(std::ostream& out, std::span<const PairVerdict> verdicts, const VerdictOptions& o,
                              const GlibcInfo& g, const std::string& this_host, std::uint64_t llc_bytes,
                              int llc_count) {
  VerdictOptions with_llc = o;
  with_llc.llc_bytes = llc_bytes, with_llc.llc_count = llc_count, with_llc.this_host = this_host;
  print_verdicts(out, verdicts, with_llc);
  out << llc_resident_note(verdicts, llc_bytes, this_host, llc_count, "this machine's", o.this_cpu);
  // Predictions are another machine's figures: this machine's glibc has nothing to say of them.
  if (!verdicts.empty() &&
      std::all_of(verdicts.begin(), verdicts.end(), [](const PairVerdict& v) { return v.predicted; }))
    out << "\nglibc: this machine's threshold is not set beside predictions (another machine's figures); "
           "`bwlab verdict --machine MACHINE` gives the predicted glibc advice for that machine.\n";
  else
    print_glibc_comparison(out, g, verdicts, this_host, llc_bytes, llc_count, o.this_cpu);
}

void print_verdicts_of_another_host(std::ostream& out, std::span<const PairVerdict> verdicts, const VerdictOptions& o,
                                    const std::string& host, std::uint64_t llc_bytes, int llc_count) {
  const VerdictOptions with_llc = judged_by_llc_of(o, host, llc_bytes, llc_count);
  print_verdicts(out, verdicts, with_llc);
  out << llc_resident_note(verdicts, llc_bytes, host, llc_count, with_llc.llc_whose);
  out << "\n(glibc's threshold is not shown: the run was measured on " << host
      << ", and this machine's glibc says nothing of it; run `bwlab verdict` of a run measured here.)\n";
}

}  // namespace bwlab
