// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/kernels/cpu_features.hpp"

namespace bwlab {

// A clearing kernel: writes `fill` to exactly [dst, dst + bytes). Any alignment, any size
// (0 included). Non-temporal kernels end with sfence.
using KernelFn = void (*)(void* dst, std::size_t bytes, std::uint8_t fill);

enum class TrafficClass {
  write_allocate,         // cacheable stores: each line is read for ownership, then written
  non_temporal,           // streaming stores: no read, no cache pollution
  zeroing_without_fetch,  // clzero: the line is zeroed without being read
};
std::string_view to_string(TrafficClass c);  // "write-allocate", "non-temporal", "zeroing-without-fetch"

enum class Feature { none, sse2, avx2, avx512f, clzero };
std::string_view to_string(Feature f);  // "-", "sse2", "avx2", "avx512f", "clzero"
bool has_feature(const CpuFeatures& cpu, Feature f);

// One row of the kernel table.
struct KernelInfo {
  std::string_view name;
  KernelFn fn;
  Feature requires_feature;
  TrafficClass traffic;
  bool zero_only;  // can only write zeros (clzero)
  std::string_view description;
};

// Every kernel bwlab knows, in display order: stosb, stosq, movnti, movntdq, avx2-nt,
// avx512-nt, avx2-store, avx512-store, clzero, memset.
std::span<const KernelInfo> kernel_table();

// Looks a kernel up by name or alias ("movnt" is "movnti"); nullptr if unknown.
const KernelInfo* find_kernel(std::string_view name);

// Comma-separated list of every kernel name, for error messages.
std::string kernel_names();

struct Availability {
  bool available = false;
  std::string reason;  // empty when available, else e.g. "needs avx512f, which this CPU lacks"
};
// `cpu` is this CPU's features or a model machine's; `lacked_by` names it in the reason ("that
// machine": "needs clzero (AMD only), which that machine lacks").
Availability kernel_availability(const KernelInfo& k, const CpuFeatures& cpu, std::string_view lacked_by = "this CPU");

// The kernels measured when none are named (bwlab run, simulate, calibrate, the GUI's ticks):
// "stosb,movnti,W" where W is the widest non-temporal SIMD kernel `cpu` runs (avx512-nt, avx2-nt,
// else movntdq).
std::string default_kernels(const CpuFeatures& cpu);

// The kernel functions themselves (core/kernels/kernels_x86.cpp), also reachable through
// kernel_table(). Calling one the CPU cannot run (see kernel_availability) is SIGILL.
namespace kernel_fns {
void stosb(void* dst, std::size_t bytes, std::uint8_t fill);
void stosq(void* dst, std::size_t bytes, std::uint8_t fill);
void movnti(void* dst, std::size_t bytes, std::uint8_t fill);
void movntdq(void* dst, std::size_t bytes, std::uint8_t fill);
void avx2_nt(void* dst, std::size_t bytes, std::uint8_t fill);
void avx512_nt(void* dst, std::size_t bytes, std::uint8_t fill);
void avx2_store(void* dst, std::size_t bytes, std::uint8_t fill);
void avx512_store(void* dst, std::size_t bytes, std::uint8_t fill);
void clzero(void* dst, std::size_t bytes, std::uint8_t fill);  // ignores fill: writes zero
void libc_memset(void* dst, std::size_t bytes, std::uint8_t fill);  // glibc ::memset
}  // namespace kernel_fns

}  // namespace bwlab
