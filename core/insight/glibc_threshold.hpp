// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/insight/verdict.hpp"

namespace bwlab {

// The cache figures glibc's formula takes (sizes in bytes; 0 when unknown).
struct CacheFigures {
  std::uint64_t l3_bytes = 0;
  int threads_sharing_l3 = 0;   // logical CPUs sharing one L3
  std::uint64_t l2_bytes = 0;
  int threads_sharing_l2 = 0;
  bool l3_inclusive = false;    // CPUID leaf 4, L3 EDX bit 1 (x86 only)
  std::string source;           // where they came from, for the report
};

// This machine's figures from /sys/devices/system/cpu/cpu0/cache (sizes, shared_cpu_list) and
// CPUID leaf 4 (L3 inclusiveness). Empty source string and zero sizes when unreadable.
CacheFigures read_cache_figures();

// glibc 2.36's default x86_non_temporal_threshold (sysdeps/x86/dl-cacheinfo.h, Intel path,
// dl_init_cacheinfo + get_common_cache_info): shared = L3 / threads sharing L3; when L3 is
// not inclusive, shared += L2 / threads sharing L2; threshold = shared * 3 / 4 (3/4 of one
// thread's share of the last-level cache). glibc counts the sharing threads with CPUID
// leaves 4 and 11, bwlab with sysfs; they agree on ordinary machines but the live value
// (ld.so --list-tunables) is the authority. Returns 0 when l3_bytes is 0.
std::uint64_t glibc236_nt_threshold(const CacheFigures& c);

struct Tunable {
  std::uint64_t value = 0, min = 0, max = 0;
};
// Parses `ld.so --list-tunables` output ("glibc.cpu.x86_non_temporal_threshold: 0x7200000
// (min: 0x4040, max: 0xfffffffffffffff)"), keyed by the full tunable name. Lines it does not
// understand are skipped.
std::map<std::string, Tunable> parse_tunables(std::string_view text);

// What this machine's glibc does, for the verdict.
struct GlibcInfo {
  std::string version;                      // gnu_get_libc_version()
  CacheFigures cache;
  std::uint64_t formula_bytes = 0;          // glibc236_nt_threshold(cache)
  std::optional<Tunable> live_nt;           // glibc.cpu.x86_non_temporal_threshold
  std::optional<Tunable> live_memset_nt;    // glibc.cpu.x86_memset_non_temporal_threshold (glibc >= 2.40)
  std::string live_source;                  // the ld.so that was asked, or why it could not be
};
// Runs the dynamic loader with --list-tunables (glibc >= 2.33) when it exists.
GlibcInfo read_glibc_info();

// "GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=0x1800000", clamped to the tunable's
// bounds when known.
std::string glibc_tunables_line(std::string_view tunable, std::uint64_t bytes, const std::optional<Tunable>& bounds);

// The glibc paragraph printed after the verdicts: glibc's threshold on this machine (formula
// and live), beside the measured crossover of glibc_reference_pair(), and the GLIBC_TUNABLES
// line that would match it. `data_host` is the host the points came from: when it is not this
// machine the paragraph says so. `llc_bytes` x `llc_count`: this machine's last-level caches (0:
// unknown); where the row it judges fits in the ones its threads reach (largest size x threads,
// llc_reach), no line is offered: such a row judges clears that can stay in the cache, not the
// large ones a threshold is for.
// `this_cpu`: this machine's CPU model name (same_machine; empty: the host name alone decides).
void print_glibc_comparison(std::ostream& out, const GlibcInfo& g, std::span<const PairVerdict> verdicts,
                            const std::string& this_host, std::uint64_t llc_bytes = 0, int llc_count = 1,
                            std::string_view this_cpu = {});

// What `bwlab verdict FILE` prints after its table, and the GUI's verdict panel shows (o.this_cpu
// tells this machine's points from those of another CPU under the same host name): the verdicts,
// the note of rows that fit in this machine's LLCs (`llc_count` of `llc_bytes`, 0: unknown;
// llc_resident_note),
// then the glibc paragraph, or for predictions only (another machine's figures) a line saying why
// this machine's threshold is not set beside them.
void print_verdicts_and_glibc(std::ostream& out, std::span<const PairVerdict> verdicts, const VerdictOptions& o,
                              const GlibcInfo& g, const std::string& this_host, std::uint64_t llc_bytes = 0,
                              int llc_count = 1);

// The verdicts of a run measured on another host (or this machine under `run --host NAME`) that
// recorded its LLC: calls from rows that fit in that LLC say so, as for this machine's runs (they
// did only when the host name was this machine's); this machine's glibc is not set beside them.
void print_verdicts_of_another_host(std::ostream& out, std::span<const PairVerdict> verdicts, const VerdictOptions& o,
                                    const std::string& host, std::uint64_t llc_bytes, int llc_count);

}  // namespace bwlab
